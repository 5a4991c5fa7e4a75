/**
 * Long fuzz run of the decoder and rendering contract in test/fuzz/properties.ts (the CI fuzz
 * tests, test/fuzz/*.fuzz.test.ts, run the same properties a few thousand times, seeded):
 *
 *   npx tsx test/long/fuzz-long.ts [runs=10000000] [seed=random]
 *
 * Inputs: 45% mutations of real v1–v5 transactions read as zcashd v6.12.2 reads them, 40%
 * mutations of today's chain's v4, v5 and v6 transactions (nu6.3/) read with today's chain's
 * acceptance (truncation, bit flips, overwrites, spliced CompactSize values), 15% random bytes
 * behind every known header, v6's included. Exits non-zero with the counterexample (and the seed
 * to replay it) on the first contract violation.
 */
import fc from 'fast-check';
import { CURRENT_CHAIN_ACCEPTANCE, ZCASHD_6_12_2_ACCEPTANCE, type TxAcceptance } from '../../src/codec/tx/acceptance.js';
import { decodeTransaction } from '../../src/codec/tx/transaction.js';
import { checkTransaction, currentChainFuzzCorpus, fuzzCorpus, mutatedTransaction, randomTransactionBytes } from '../fuzz/properties.js';

const runs = Number(process.argv[2] ?? 10_000_000);
const seed = Number(process.argv[3] ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0);
if (!Number.isInteger(runs) || runs <= 0 || !Number.isInteger(seed)) {
  console.error('usage: npx tsx test/long/fuzz-long.ts [runs] [seed]');
  process.exit(2);
}

const corpus = fuzzCorpus();
const current = currentChainFuzzCorpus();
const v6Headers = current.filter((b) => decodeTransaction(b, CURRENT_CHAIN_ACCEPTANCE).data.format === 'v6').map((b) => b.subarray(0, 12));
const as = (acceptance: TxAcceptance) => (bytes: Uint8Array) => ({ bytes, acceptance });
const input = fc.oneof(
  { weight: 45, arbitrary: mutatedTransaction(corpus).map(as(ZCASHD_6_12_2_ACCEPTANCE)) },
  { weight: 40, arbitrary: mutatedTransaction(current).map(as(CURRENT_CHAIN_ACCEPTANCE)) },
  { weight: 15, arbitrary: randomTransactionBytes(v6Headers).map(as(CURRENT_CHAIN_ACCEPTANCE)) },
);
const outcomes = { decoded: 0, rejected: 0 };
let bytes = 0;
const started = performance.now();

const result = fc.check(
  fc.property(input, ({ bytes: tx, acceptance }) => {
    outcomes[checkTransaction(tx, acceptance)]++;
    bytes += tx.length;
    const done = outcomes.decoded + outcomes.rejected;
    if (done % 1_000_000 === 0) {
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
