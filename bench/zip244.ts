/**
 * ZIP-244 digests of v5 transactions: the one-call WebAssembly path (src/crypto/zip244-wasm.ts)
 * against the field-by-field TypeScript path that drives blake2b-wasm's compression per
 * sub-hash (the path used before, kept as the fallback), in the same process.
 *
 *   npx tsx bench/zip244.ts [--quick]        (ZECRPC_VECTORS overrides the vectors folder)
 *
 * Transactions: every v5 transaction of the real blocks in the test vectors. Figures are CPU µs
 * per transaction; each round times every variant once, in turn, and the ratio old ÷ new is taken
 * per round: the median and the spread (min–max) over rounds are printed. Decode + txid is
 * measured with the curve-point verdict cache off (every point validated, as on first sight)
 * and on (verdicts remembered, as a long-running server re-decoding the same transactions), and
 * once more against the path issue 15 measured: BigInt point checks with the field-by-field
 * digests.
 */
import { decodeBlock } from '../src/codec/block.js';
import { decodeTransaction } from '../src/codec/tx/transaction.js';
import { zip244AuthDigestFromFields, zip244TxIdFromFields } from '../src/codec/tx/zip244.js';
import { setPointCheckBackend, setPointCheckCache } from '../src/crypto/curves.js';
import { blake2b256Of, personalization } from '../src/crypto/hash.js';
import {
  wasmPersonalBlake2b256,
  wasmZip244AuthDigest,
  wasmZip244Digests,
  wasmZip244TxId,
  zip244WasmAvailable,
} from '../src/crypto/zip244-wasm.js';
import { readHexVector, realBlockFiles } from '../test/support/vectors.js';
import { QUICK, cpuMicros, fmt, load, median } from './lib/measure.js';

const ROUNDS = QUICK ? 3 : 7;
const SECONDS_PER_RUN = QUICK ? 0.1 : 0.25;

/** CPU µs per unit of `op` (which handles `units` units per call), over about SECONDS_PER_RUN. */
function time(op: () => void, units: number): number {
  let done = 0;
  const start = cpuMicros();
  do {
    op();
    done += units;
  } while (cpuMicros() - start < SECONDS_PER_RUN * 1e6);
  return (cpuMicros() - start) / done;
}

interface Pair {
  name: string;
  units: number;
  before: () => void;
  after: () => void;
  /** Run before each side is timed (and before its warm-up), outside the timing. */
  beforeSetup?: () => void;
  afterSetup?: () => void;
}

function report(pairs: Pair[], unit: string): void {
  const perPair = pairs.map(() => ({ before: [] as number[], after: [] as number[], ratio: [] as number[] }));
  for (const p of pairs) {
    p.beforeSetup?.();
    p.before();
    p.afterSetup?.();
    p.after();
  }
  for (let r = 0; r < ROUNDS; r++) {
    pairs.forEach((p, i) => {
      p.beforeSetup?.();
      const b = time(p.before, p.units);
      p.afterSetup?.();
      const a = time(p.after, p.units);
      perPair[i]!.before.push(b);
      perPair[i]!.after.push(a);
      perPair[i]!.ratio.push(b / a);
    });
  }
  pairs.forEach((p, i) => {
    const s = perPair[i]!;
    console.log(
      `${p.name.padEnd(34)} before ${fmt(median(s.before), 2).padStart(8)} ${unit}  after ${fmt(median(s.after), 2).padStart(8)} ${unit}  ` +
        `→ ${median(s.ratio).toFixed(2)}× (rounds ${Math.min(...s.ratio).toFixed(2)}–${Math.max(...s.ratio).toFixed(2)}×)`,
    );
  });
}

function main(): void {
  if (!zip244WasmAvailable()) throw new Error('zip244.wasm unavailable (ZECRPC_PURE_TXID=1 or not built: npm run build:wasm)');
  const txs = realBlockFiles()
    .flatMap((f) => decodeBlock(readHexVector(f.file)).transactions)
    .filter((t) => t.data.format === 'v5');
  const wires = txs.map((t) => Uint8Array.from(t.bytes));
  const bytes = wires.reduce((n, w) => n + w.length, 0);
  const n = txs.length;
  console.log(`node ${process.version}, ${n} real v5 transactions, ${fmt(bytes / 1e3, 1)} kB, ${ROUNDS} interleaved rounds, ${load()}`);
  console.log('before: field-by-field TypeScript, a blake2b-wasm call per block; after: one call into zip244.wasm per transaction');

  report(
    [
      {
        name: 'txid',
        units: n,
        before: () => txs.forEach((t) => zip244TxIdFromFields(t.data, t.bytes)),
        after: () => wires.forEach((w) => wasmZip244TxId(w)),
      },
      {
        name: 'auth digest',
        units: n,
        before: () => txs.forEach((t) => zip244AuthDigestFromFields(t.data)),
        after: () => wires.forEach((w) => wasmZip244AuthDigest(w)),
      },
      {
        name: 'txid + auth digest',
        units: n,
        before: () => txs.forEach((t) => (zip244TxIdFromFields(t.data, t.bytes), zip244AuthDigestFromFields(t.data))),
        after: () => wires.forEach((w) => wasmZip244Digests(w)),
      },
    ],
    'µs/tx',
  );

  for (const cache of [false, true]) {
    setPointCheckCache(cache);
    report(
      [
        {
          name: `decode + txid, point cache ${cache ? 'on' : 'off'}`,
          units: n,
          before: () =>
            wires.forEach((w) => {
              const t = decodeTransaction(w);
              zip244TxIdFromFields(t.data, t.bytes);
            }),
          // The Transaction getter is what every caller uses; with bytes it takes the one-call path.
          after: () => wires.forEach((w) => void decodeTransaction(w).txid),
        },
      ],
      'µs/tx',
    );
    // Decoding alone bounds what any txid speed-up can do for decode + txid.
    const decodeOnly = median(Array.from({ length: ROUNDS }, () => time(() => wires.forEach((w) => decodeTransaction(w)), n)));
    console.log(`${'  decode alone'.padEnd(34)} ${fmt(decodeOnly, 2).padStart(15)} µs/tx`);
  }
  // Issue 15's target for v5 decode + txid is against the path it measured: BigInt point checks
  // (the pure-TypeScript fallback today, itself faster than then) and the field-by-field digests.
  setPointCheckCache(false);
  report(
    [
      {
        name: 'decode + txid, point cache off, against BigInt point checks and field-by-field digests',
        units: n,
        beforeSetup: () => setPointCheckBackend('bigint'),
        before: () =>
          wires.forEach((w) => {
            const t = decodeTransaction(w);
            zip244TxIdFromFields(t.data, t.bytes);
          }),
        afterSetup: () => setPointCheckBackend('wasm'),
        after: () => wires.forEach((w) => void decodeTransaction(w).txid),
      },
    ],
    'µs/tx',
  );
  setPointCheckBackend('wasm');
  setPointCheckCache(true);

  // The hash cores alone on one long input: blake2b-wasm's compression driven from JS against
  // the AssemblyScript BLAKE2b of zip244.wasm.
  const personal = personalization('ZTxAuthOrchaHash');
  const block = new Uint8Array(64 * 1024).map((_, i) => i & 0xff);
  report(
    [
      {
        name: 'BLAKE2b-256 of 64 kB',
        units: block.length / 1024,
        before: () => blake2b256Of(personal, block),
        after: () => wasmPersonalBlake2b256(personal, block),
      },
    ],
    'µs/kB',
  );
}

main();
