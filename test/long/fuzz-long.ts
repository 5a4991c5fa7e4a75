/**
 * Long fuzz run of the decoder and rendering contract in test/fuzz/properties.ts (the CI fuzz
 * tests run the same properties a few thousand times):
 *
 *   npx tsx test/long/fuzz-long.ts [runs=1000000] [seed=random]
 *
 * Inputs: 85% mutations of real transactions (truncation, bit flips, overwrites, spliced
 * CompactSize values), 15% random bytes behind every known header. Exits non-zero with the
 * counterexample (and the seed to replay it) on the first contract violation.
 */
import fc from 'fast-check';
import { checkTransaction, fuzzCorpus, mutatedTransaction, randomTransactionBytes } from '../fuzz/properties.js';

const runs = Number(process.argv[2] ?? 1_000_000);
const seed = Number(process.argv[3] ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0);
if (!Number.isInteger(runs) || runs <= 0 || !Number.isInteger(seed)) {
  console.error('usage: npx tsx test/long/fuzz-long.ts [runs] [seed]');
  process.exit(2);
}

const corpus = fuzzCorpus();
const input = fc.oneof({ weight: 85, arbitrary: mutatedTransaction(corpus) }, { weight: 15, arbitrary: randomTransactionBytes() });
const outcomes = { decoded: 0, rejected: 0 };
let bytes = 0;
const started = performance.now();

const result = fc.check(
  fc.property(input, (tx) => {
    outcomes[checkTransaction(tx)]++;
    bytes += tx.length;
    const done = outcomes.decoded + outcomes.rejected;
    if (done % 100_000 === 0) {
      const s = (performance.now() - started) / 1000;
      console.log(`${done.toLocaleString('en-US')} inputs, ${s.toFixed(0)} s`);
    }
  }),
  { numRuns: runs, seed, endOnFailure: false },
);

const seconds = (performance.now() - started) / 1000;
console.log(
  `seed ${seed}: ${result.numRuns.toLocaleString('en-US')} inputs (${(bytes / 1e6).toFixed(0)} MB) in ${seconds.toFixed(1)} s ` +
    `— ${outcomes.decoded.toLocaleString('en-US')} decoded, ${outcomes.rejected.toLocaleString('en-US')} rejected with a known DecodeError`,
);
if (result.failed) {
  console.error(fc.defaultReportMessage(result));
  process.exit(1);
}
console.log('no contract violation');
