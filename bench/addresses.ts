/**
 * Transparent address encoding (Base58Check of prefix ‖ hash160), which getblock verbosity 2
 * and decoderawtransaction do for every P2PKH/P2SH output:
 *
 *   npx tsx bench/addresses.ts [--quick]
 *
 * "Fresh" addresses were never encoded before (an explorer reading each block once), encoded one
 * at a time or, as getblock 2 does a transaction's outputs, requested and flushed together; "known"
 * ones are answered from the address table (1,000 of them: few share a slot of its 65,536).
 * The baseline is bs58check, the library the encoder replaced. Each round times zecrpc one at a
 * time, bs58check and zecrpc batched in turn; the ratios are taken per round and their median
 * and spread reported.
 */
import bs58check from 'bs58check';
import { MAINNET } from '../src/chain/network.js';
import { addressTable, encodeTransparentAddress } from '../src/codec/script/address.js';
import { wasmAddressChecksumsAvailable } from '../src/crypto/address-checksums.js';
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

// Batched, as getblock 2 encodes a transaction's outputs: a transaction's addresses (500, as in
// a large pool payout) requested, then one flush (checksums four at a time in WebAssembly), then
// read as its outputs are written.
const TX_OUTPUTS = 500;
const table = addressTable('p2pkh', MAINNET);
function batchedNsPer(list: readonly Uint8Array[]): number {
  const t0 = process.hrtime.bigint();
  let length = 0;
  for (let start = 0; start < list.length; start += TX_OUTPUTS) {
    const tx = list.slice(start, start + TX_OUTPUTS);
    for (const h of tx) table.request(h, 0);
    table.flush();
    for (const h of tx) length += table.textLength(table.slotOf(h, 0));
  }
  const ns = Number(process.hrtime.bigint() - t0) / list.length;
  if (length < 34 * list.length) throw new Error('batched addresses too short');
  return ns;
}

// Same answers first, both ways: a faster wrong encoder is not a result.
for (const h of hashes(1_000, 1)) if (ours(h) !== theirs(h)) throw new Error('encoders disagree');
const sample = hashes(1_000, 4);
for (const h of sample) table.request(h, 0);
table.flush();
for (const h of sample) if (table.textOf(table.slotOf(h, 0)) !== theirs(h)) throw new Error('batched encoding disagrees with bs58check');
// Warm-up of every code path.
nsPer(hashes(COUNT, 2), ours);
nsPer(hashes(COUNT, 3), theirs);
batchedNsPer(hashes(COUNT, 5));

// Each round times the three in turn, on sets new to the table; ratios are taken per round.
const fresh: number[] = [];
const base: number[] = [];
const batched: number[] = [];
const ratios: number[] = [];
const batchedRatios: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const a = nsPer(hashes(COUNT, 100 + r), ours);
  const b = nsPer(hashes(COUNT, 200 + r), theirs);
  const c = batchedNsPer(hashes(COUNT, 300 + r));
  fresh.push(a);
  base.push(b);
  batched.push(c);
  ratios.push(b / a);
  batchedRatios.push(b / c);
}
const spread = (xs: number[]) => `${median(xs).toFixed(1)}× (min–max ${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

const known = hashes(KNOWN, 7);
nsPer(known, ours);
const hits = Array.from({ length: ROUNDS }, () => nsPer(known, ours));

console.log(
  `t-address encoding, fresh addresses (${fmt(COUNT)} per round, ${ROUNDS} rounds): zecrpc ${fmt(median(fresh))} ns, ` +
    `bs58check ${fmt(median(base))} ns → ${spread(ratios)} | ` +
    `batched (${TX_OUTPUTS} requested, then one flush${wasmAddressChecksumsAvailable() ? '' : ', no WebAssembly'}): ` +
    `zecrpc ${fmt(median(batched))} ns → ${spread(batchedRatios)} | ` +
    `known addresses (${fmt(KNOWN)} repeated): zecrpc ${fmt(median(hits))} ns | ${load()}`,
);
