/**
 * Transparent address encoding (Base58Check of prefix ‖ hash160), which getblock verbosity 2
 * and decoderawtransaction do for every P2PKH/P2SH output:
 *
 *   npx tsx bench/addresses.ts [--quick]
 *
 * "Fresh" addresses were never encoded before (an explorer reading each block once); "known"
 * ones are answered from the address table (1,000 of them: few share a slot of its 65,536).
 * The baseline is bs58check, the library the encoder replaced. Rounds alternate the two sides;
 * the ratio is taken per round and its median and spread reported.
 */
import bs58check from 'bs58check';
import { MAINNET } from '../src/chain/network.js';
import { encodeTransparentAddress } from '../src/codec/script/address.js';
import { fmt, load, median, QUICK } from './lib/measure.js';

const COUNT = QUICK ? 2_000 : 50_000;
const KNOWN = 1_000;
const ROUNDS = QUICK ? 3 : 9;

/** Deterministic hashes; `salt` makes every round's set new to the table. */
function hashes(count: number, salt: number): Uint8Array[] {
  let x = (salt * 0x9e3779b1) | 1;
  return Array.from({ length: count }, () =>
    Uint8Array.from({ length: 20 }, () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return x & 0xff;
    }),
  );
}

function nsPer(list: readonly Uint8Array[], encode: (h: Uint8Array) => string): number {
  let sink = 0;
  const t0 = process.hrtime.bigint();
  for (const h of list) sink += encode(h).length;
  const ns = Number(process.hrtime.bigint() - t0) / list.length;
  if (sink < 34 * list.length) throw new Error('addresses too short: nothing was encoded');
  return ns;
}

const ours = (h: Uint8Array) => encodeTransparentAddress('p2pkh', h, MAINNET);
const prefix = MAINNET.p2pkhPrefix;
const theirs = (h: Uint8Array) => {
  const payload = new Uint8Array(22);
  payload.set(prefix, 0);
  payload.set(h, 2);
  return bs58check.encode(payload);
};

// Same answers first: a faster wrong encoder is not a result.
for (const h of hashes(1_000, 1)) if (ours(h) !== theirs(h)) throw new Error('encoders disagree');
// Warm-up of both code paths.
nsPer(hashes(COUNT, 2), ours);
nsPer(hashes(COUNT, 3), theirs);

const fresh: number[] = [];
const base: number[] = [];
const ratios: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const a = nsPer(hashes(COUNT, 100 + r), ours);
  const b = nsPer(hashes(COUNT, 200 + r), theirs);
  fresh.push(a);
  base.push(b);
  ratios.push(b / a);
}
const known = hashes(KNOWN, 7);
nsPer(known, ours);
const hits = Array.from({ length: ROUNDS }, () => nsPer(known, ours));

console.log(
  `t-address encoding, fresh addresses (${fmt(COUNT)} per round, ${ROUNDS} rounds): zecrpc ${fmt(median(fresh))} ns, ` +
    `bs58check ${fmt(median(base))} ns → ${median(ratios).toFixed(1)}× (min–max ${Math.min(...ratios).toFixed(1)}–${Math.max(...ratios).toFixed(1)}) | ` +
    `known addresses (${fmt(KNOWN)} repeated): zecrpc ${fmt(median(hits))} ns | ${load()}`,
);
