/**
 * Decode-time curve-point checks (src/crypto/curves.ts): BigInt Jacobi symbol against the
 * WebAssembly module (assembly/points.ts), in the same process, in interleaved rounds.
 *
 *   npx tsx bench/curves.ts [--quick]
 *
 * Per point: µs of CPU per check on real Sapling cv/rk and Orchard cv/rk from the vectors and
 * on random encodings below the modulus (either sign bit: about half are on the curve), with
 * the verdict cache off. Per transaction: decode + txid of every real transaction carrying
 * Sapling or Orchard data, and of all real transactions, under each backend (cache off).
 * Each round measures both sides back to back; the ratio is taken per round and reported as
 * the median with its range over rounds.
 */
import { randomBytes } from 'node:crypto';
import { decodeBlock } from '../src/codec/block.js';
import { decodeTransaction } from '../src/codec/tx/transaction.js';
import {
  isCanonicalJubjubPoint,
  isValidPallasPoint,
  JUBJUB_Q,
  PALLAS_P,
  setPointCheckBackend,
  setPointCheckCache,
  type PointCheckBackend,
} from '../src/crypto/curves.js';
import { readHexVector, realBlockFiles, zcashd2019Heights } from '../test/support/vectors.js';
import { cpuMicrosPerUnit, fmt, load, median, QUICK } from './lib/measure.js';

const ROUNDS = QUICK ? 3 : 7;
const SECONDS = QUICK ? 0.03 : 0.3;

function leBigint(b: Uint8Array): bigint {
  return BigInt('0x' + Buffer.from(b).reverse().toString('hex'));
}

/** `count` random encodings whose value (bit 255 cleared) is below `modulus`, random sign bit. */
function randomCanonical(modulus: bigint, count: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  while (out.length < count) {
    const b = randomBytes(32);
    if ((leBigint(b) & ((1n << 255n) - 1n)) < modulus) out.push(Uint8Array.from(b));
  }
  return out;
}

const blocks: Uint8Array[] = realBlockFiles().map((f) => readHexVector(f.file));
for (const h of zcashd2019Heights()) blocks.push(readHexVector('zcashd-2019', `${h}.hex`));
const txs = blocks.flatMap((b) => decodeBlock(b).transactions);
const jubjubReal = txs.flatMap((t) => [
  ...(t.data.sapling?.spends ?? []).flatMap((s) => [s.cv, s.rk]),
  ...(t.data.sapling?.outputs ?? []).map((o) => o.cv),
]);
const pallasReal = txs.flatMap((t) => (t.data.orchard?.actions ?? []).flatMap((a) => [a.cv, a.rk]));
const shieldedTxs = txs
  .filter((t) => (t.data.sapling?.spends.length ?? 0) + (t.data.sapling?.outputs.length ?? 0) + (t.data.orchard?.actions.length ?? 0) > 0)
  .map((t) => t.bytes);
const allTxs = txs.map((t) => t.bytes);
const shieldedPoints = jubjubReal.length + pallasReal.length;

interface Case {
  name: string;
  units: number;
  op: () => void;
}

function pointCase(name: string, points: Uint8Array[], check: (b: Uint8Array) => boolean): Case {
  return {
    name,
    units: points.length,
    op: () => {
      let accepted = 0;
      for (const p of points) if (check(p)) accepted++;
      if (accepted < 0) throw new Error('unreachable');
    },
  };
}

function decodeCase(name: string, set: Uint8Array[]): Case {
  return {
    name,
    units: set.length,
    op: () => {
      for (const t of set) void decodeTransaction(t).txid;
    },
  };
}

const cases: Case[] = [
  pointCase(`Jubjub, ${jubjubReal.length} real Sapling cv/rk`, jubjubReal, isCanonicalJubjubPoint),
  pointCase(`Pallas, ${pallasReal.length} real Orchard cv/rk`, pallasReal, isValidPallasPoint),
  pointCase('Jubjub, 1000 random v < q', randomCanonical(JUBJUB_Q, 1000), isCanonicalJubjubPoint),
  pointCase('Pallas, 1000 random x < p', randomCanonical(PALLAS_P, 1000), isValidPallasPoint),
  decodeCase(`decode + txid, ${shieldedTxs.length} shielded txs (${shieldedPoints} points), per tx`, shieldedTxs),
  decodeCase(`decode + txid, all ${allTxs.length} real txs, per tx`, allTxs),
];

function measure(backend: PointCheckBackend, c: Case): number {
  setPointCheckBackend(backend);
  setPointCheckCache(false);
  return cpuMicrosPerUnit(c.op, c.units, 1, SECONDS);
}

console.log(`curve-point checks: BigInt vs WebAssembly, verdict cache off, ${ROUNDS} interleaved rounds (${load()})`);
console.log('case | BigInt µs | WASM µs | ratio (median, range over rounds)');
for (const c of cases) {
  const big: number[] = [];
  const wasm: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which side goes first so drift in machine load does not favour one.
    let b: number;
    let w: number;
    if (r % 2 === 0) {
      b = measure('bigint', c);
      w = measure('wasm', c);
    } else {
      w = measure('wasm', c);
      b = measure('bigint', c);
    }
    big.push(b);
    wasm.push(w);
    ratios.push(b / w);
  }
  console.log(
    `${c.name} | ${fmt(median(big), 2)} | ${fmt(median(wasm), 2)} | ${fmt(median(ratios), 1)}× (${fmt(Math.min(...ratios), 1)}–${fmt(Math.max(...ratios), 1)}×)`,
  );
}

// The cache a long-running server keeps: a hit costs the key and the lookup, not the check.
setPointCheckBackend('wasm');
setPointCheckCache(true);
const warm = pointCase(`Jubjub, ${jubjubReal.length} real points, cache on and warm`, jubjubReal, isCanonicalJubjubPoint);
console.log(`${warm.name} | — | ${fmt(cpuMicrosPerUnit(warm.op, warm.units, ROUNDS, SECONDS / 2), 2)} | (${load()})`);
