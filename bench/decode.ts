/**
 * Decode + txid throughput on every real transaction in the test vectors (blocks/ and
 * zcashd-2019/), per transaction version, against @bitgo/utxo-lib's Zcash parser.
 *
 *   npx tsx bench/decode.ts [--share-rounds=N]   (ZECRPC_VECTORS overrides the vectors folder)
 *
 * One benchmark "op" is a pass over a whole set of transactions, so tx/s = hz × count and
 * MB/s = hz × bytes. utxo-lib only parses transparent-only transactions (it throws on any
 * JoinSplit or Sapling/Orchard data), so ratios compare both libraries on exactly the
 * transactions utxo-lib accepts; zecrpc's throughput on the full set is reported as well.
 *
 * "txid alone" times only the txid hashing (SHA-256d of the bytes for v1–v4, the ZIP-244
 * BLAKE2b tree for v5) of already-decoded transactions. utxo-lib's time divided by that is the
 * ceiling on the decode+txid ratio for any decoder using the same hashes on this machine.
 *
 * decode+txid is timed two ways. "One call each" decodes a transaction and hashes it before
 * the next, as a caller handling one transaction at a time does. "Listed" decodes the whole
 * set, then takes every txid, as decodeBlock and the merkle root do for a block's transactions.
 * utxo-lib is timed both ways too. Both shares of the hashing alone are then taken again within
 * interleaved rounds (median and spread), the figures docs/performance.md quotes. The work is identical;
 * alternating JS decoding with the hash per transaction costs ≈ 60–150 ns more on this machine,
 * which the listed order avoids. The alternation lines at the end locate it: decoding
 * alternating with a cheap native call (one inside OpenSSL too), and a small JS loop
 * alternating with the hash, all cost little extra; decoding alternating with a longer OpenSSL
 * path (a 1-byte HMAC) costs at least as much as with the hash. So the extra comes with
 * OpenSSL's digest path running between two decodes (code and data locality; no hardware
 * counters here to say which), and no decoder calling node:crypto once per transaction avoids
 * it; a smaller decoder loses less to it (reading transparent v3–v5 transactions in one
 * function halved it). The interleaved rounds also hash each transaction after only finding
 * where it ends (no objects built, nothing validated): that keeps 90–99 % of the hashing alone
 * one call each, so what a real decoder loses beyond it is the cost of building and checking
 * what it returns, roughly doubled by the alternation. They also time bench/lib/least-decoder.ts:
 * for v1, v3, v4 and v5, the least a decoder can do and still return this codec's objects with
 * zcashd's checks, one function per version with nothing dispatched. Its share is about the most
 * a decoder returning `Transaction`s can keep one call each on this machine (round-to-round noise
 * puts either a point or two ahead); ours is measured beside it. So are the same four functions
 * behind a switch on the header (`leastAnyVersion`, warm on all four versions): the least a
 * decoder of every version does, since it must first choose the version's reader.
 */
import Benchmark from 'benchmark';
import * as utxolib from '@bitgo/utxo-lib';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { decodeBlock } from '../src/codec/block.js';
import { setPointCheckCache } from '../src/crypto/curves.js';
import { decodeTransaction, type Transaction } from '../src/codec/tx/transaction.js';
import { sha256, sha256d } from '../src/crypto/hash.js';
import { compactSizeLength } from '../src/codec/bytes.js';
import { zip244TxId } from '../src/codec/tx/zip244.js';
import { readHexVector, realBlockFiles, zcashd2019Heights } from '../test/support/vectors.js';
import { leastAnyVersion, leastDecoderFor } from './lib/least-decoder.js';
import { describePercent, median, numberFlag, spread } from './lib/measure.js';

// The benchmark decodes the same transactions over and over; measure the cold path, where every
// Sapling/Orchard point is validated, not the memoized verdicts a long-running server reuses.
setPointCheckCache(false);

interface TxSet {
  txs: Buffer[];
  bytes: number;
}

function set(txs: Buffer[]): TxSet {
  return { txs, bytes: txs.reduce((n, t) => n + t.length, 0) };
}

const network = utxolib.networks.zcash;

function utxoDecode(tx: Buffer): Buffer {
  return utxolib.bitgo.ZcashTransaction.fromBuffer(tx, false, 'number', network).getHash();
}

function utxoCanParse(tx: Buffer): boolean {
  try {
    utxoDecode(tx);
    return true;
  } catch {
    return false;
  }
}

/** Every real transaction, grouped by wire format (v1..v5), as Buffers for both libraries. */
function loadByVersion(): Map<string, Buffer[]> {
  const blocks: Uint8Array[] = realBlockFiles().map((f) => readHexVector(f.file));
  for (const h of zcashd2019Heights()) blocks.push(readHexVector('zcashd-2019', `${h}.hex`));
  const byVersion = new Map<string, Buffer[]>();
  for (const b of blocks) {
    for (const tx of decodeBlock(b).transactions) {
      const list = byVersion.get(tx.data.format) ?? [];
      list.push(Buffer.from(tx.bytes));
      byVersion.set(tx.data.format, list);
    }
  }
  return new Map([...byVersion].sort(([a], [b]) => a.localeCompare(b)));
}

function zecrpcPass(s: TxSet, withTxid = true): () => void {
  return withTxid
    ? () => {
        // Reading the getter is the work being measured (it hashes on first access).
        for (const t of s.txs) void decodeTransaction(t).txid;
      }
    : () => {
        for (const t of s.txs) decodeTransaction(t);
      };
}

/** Every transaction decoded first, then every txid: the order a block is handled in. */
function zecrpcListedPass(s: TxSet): () => void {
  const decoded = new Array<Transaction>(s.txs.length);
  return () => {
    for (let i = 0; i < s.txs.length; i++) decoded[i] = decodeTransaction(s.txs[i]!);
    for (const tx of decoded) void tx.txid;
  };
}

/** Only the txid hashing, on transactions decoded beforehand. */
function txidOnlyPass(s: TxSet): () => void {
  const decoded: Transaction[] = s.txs.map((t) => decodeTransaction(t));
  return () => {
    for (const tx of decoded) {
      if (tx.data.format === 'v5') zip244TxId(tx.data, tx.bytes);
      else sha256d(tx.bytes);
    }
  };
}

/**
 * Where a transaction that utxo-lib parses (transparent only: v1, v3, v4, v5) ends, found by
 * stepping over its fields and building nothing: the least any decoder does before it can hash
 * the transaction. Not a decoder (it validates nothing); main() checks it against the real one.
 */
function transparentEnd(b: Uint8Array): number {
  const version = b[0]!; // v1 to v5 fit in the header's low byte
  let p = b[3]! >= 0x80 ? 8 : 4; // the overwintered flag adds a version group id
  if (version === 5) p += 12; // branch id, lock time, expiry height
  const inputs = compactSizeValue(b, p);
  p += compactSizeLength(inputs);
  for (let i = 0; i < inputs; i++) {
    const script = compactSizeValue(b, p + 36);
    p += 36 + compactSizeLength(script) + script + 4;
  }
  const outputs = compactSizeValue(b, p);
  p += compactSizeLength(outputs);
  for (let i = 0; i < outputs; i++) {
    const script = compactSizeValue(b, p + 8);
    p += 8 + compactSizeLength(script) + script;
  }
  // v1: lock time; v3: lock time, expiry, no JoinSplits; v4: the same, value balance and three
  // empty counts; v5: three empty counts (no v2 here: utxo-lib parses no JoinSplits)
  return p + [0, 4, 0, 9, 19, 3][version]!;
}

/** A one- or three-byte CompactSize (the only sizes the real transparent transactions use). */
function compactSizeValue(b: Uint8Array, at: number): number {
  return b[at]! < 0xfd ? b[at]! : b[at + 1]! | (b[at + 2]! << 8);
}

/** A transaction's hashing alone, each after finding where it ends as `transparentEnd` does. */
function walkThenTxidPass(s: TxSet): () => void {
  const decoded: Transaction[] = s.txs.map((t) => decodeTransaction(t));
  for (const [i, t] of s.txs.entries()) {
    if (transparentEnd(t) !== decoded[i]!.size) throw new Error(`transparentEnd disagrees with the decoder on transaction ${i}`);
  }
  let ends = 0;
  return () => {
    for (let i = 0; i < s.txs.length; i++) {
      ends += transparentEnd(s.txs[i]!);
      const tx = decoded[i]!;
      if (tx.data.format === 'v5') zip244TxId(tx.data, tx.bytes);
      else sha256d(tx.bytes);
    }
    if (ends < 0) throw new Error('unreachable');
  };
}

/** utxo-lib in the listed order too: every transaction parsed, then every hash. */
function utxoListedPass(s: TxSet): () => void {
  const parsed = new Array<ReturnType<typeof utxolib.bitgo.ZcashTransaction.fromBuffer>>(s.txs.length);
  return () => {
    for (let i = 0; i < s.txs.length; i++) parsed[i] = utxolib.bitgo.ZcashTransaction.fromBuffer(s.txs[i]!, false, 'number', network);
    for (const tx of parsed) tx.getHash();
  };
}

function utxoPass(s: TxSet, withTxid = true): () => void {
  return withTxid
    ? () => {
        for (const t of s.txs) utxoDecode(t);
      }
    : () => {
        for (const t of s.txs) utxolib.bitgo.ZcashTransaction.fromBuffer(t, false, 'number', network);
      };
}

interface Row {
  version: string;
  txs: number;
  utxoTxs: number;
  /** name → finished benchmark */
  results: Map<string, Benchmark>;
  all: TxSet;
  same: TxSet;
}

function run(row: Row): void {
  const suite = new Benchmark.Suite(row.version);
  const opts = { maxTime: 1.5, minSamples: 5 };
  suite.add('zecrpc all', zecrpcPass(row.all), opts);
  if (row.same.txs.length > 0) {
    suite.add('zecrpc same', zecrpcPass(row.same), opts);
    suite.add('utxo-lib same', utxoPass(row.same), opts);
    suite.add('zecrpc same, listed', zecrpcListedPass(row.same), opts);
    suite.add('utxo-lib same, listed', utxoListedPass(row.same), opts);
    suite.add('zecrpc same, no txid', zecrpcPass(row.same, false), opts);
    suite.add('utxo-lib same, no txid', utxoPass(row.same, false), opts);
    suite.add('txid alone same', txidOnlyPass(row.same), opts);
  }
  suite.on('cycle', (e: Benchmark.Event) => {
    const b = e.target as unknown as Benchmark;
    row.results.set(b.name ?? '', b);
  });
  suite.run({ async: false });
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (x: number) => `${(100 * x).toFixed(0)} %`;
const txps = (b: Benchmark | undefined, s: TxSet) => (b ? b.hz * s.txs.length : NaN);
const mbps = (b: Benchmark | undefined, s: TxSet) => (b ? (b.hz * s.bytes) / 1e6 : NaN);

function main(): void {
  const byVersion = loadByVersion();
  const rows: Row[] = [];
  const allTxs: Buffer[] = [];
  for (const [version, txs] of byVersion) {
    const same = txs.filter(utxoCanParse);
    allTxs.push(...txs);
    rows.push({ version, txs: txs.length, utxoTxs: same.length, all: set(txs), same: set(same), results: new Map() });
  }
  const sameAll = allTxs.filter(utxoCanParse);
  // The dispatching least decoder is warm on every version before it is timed on any, as a
  // decoder of all of them is in a server; ours meets them all in the suites below.
  for (let pass = 0; pass < 100; pass++) for (const t of sameAll) void leastAnyVersion(t).txid;
  rows.push({ version: 'all', txs: allTxs.length, utxoTxs: sameAll.length, all: set(allTxs), same: set(sameAll), results: new Map() });

  console.log(`node ${process.version}, ${allTxs.length} real transactions, ${fmt(set(allTxs).bytes / 1e6, 2)} MB`);
  for (const row of rows) {
    run(row);
    const r = (name: string) => row.results.get(name);
    const z = r('zecrpc all')!;
    const line = [
      `${row.version.padEnd(3)} ${String(row.txs).padStart(4)} txs ${fmt(row.all.bytes / 1e3).padStart(6)} kB`,
      `zecrpc decode+txid ${fmt(txps(z, row.all)).padStart(7)} tx/s ${fmt(mbps(z, row.all), 1).padStart(5)} MB/s ±${z.stats.rme.toFixed(0)}%`,
      `utxo-lib parses ${row.utxoTxs}/${row.txs}`,
    ];
    const zs = r('zecrpc same');
    const us = r('utxo-lib same');
    if (zs && us) {
      line.push(
        `on those, decode+txid: zecrpc ${fmt(txps(zs, row.same))} tx/s ${fmt(mbps(zs, row.same), 1)} MB/s, ` +
          `utxo-lib ${fmt(txps(us, row.same))} tx/s ${fmt(mbps(us, row.same), 1)} MB/s → ${(zs.hz / us.hz).toFixed(1)}×`,
      );
      const zn = r('zecrpc same, no txid')!;
      const un = r('utxo-lib same, no txid')!;
      line.push(`decode only: ${fmt(txps(zn, row.same))} vs ${fmt(txps(un, row.same))} tx/s → ${(zn.hz / un.hz).toFixed(1)}×`);
      const h = r('txid alone same')!;
      line.push(`txid alone: ${fmt(txps(h, row.same))} tx/s → ceiling ${(h.hz / us.hz).toFixed(1)}×`);
      const zl = r('zecrpc same, listed')!;
      const ul = r('utxo-lib same, listed')!;
      line.push(
        `listed decode+txid: zecrpc ${fmt(txps(zl, row.same))} tx/s, utxo-lib ${fmt(txps(ul, row.same))} tx/s → ${(zl.hz / ul.hz).toFixed(1)}× ` +
          `(share of ceiling: one call each ${pct(zs.hz / h.hz)}, listed ${pct(zl.hz / h.hz)})`,
      );
    }
    console.log(line.join(' | '));
    if (row.same.txs.length > 0) console.log(sharesPerRound(row));
  }
  const v4 = rows.find((row) => row.version === 'v4');
  if (v4 && v4.same.txs.length > 0) alternationCost(v4.same);
}

/** `--share-rounds=N` narrows the medians (41 rounds take about five minutes in all). */
const SHARE_ROUNDS = numberFlag('share-rounds', 7);
const SHARE_ROUND_MS = 150;

/** ns per transaction of `pass` over `s`, run for about `ms` (after the suite above warmed it). */
function nsPerTx(pass: () => void, s: TxSet, ms: number): number {
  let passes = 0;
  const t0 = process.hrtime.bigint();
  let elapsed = 0;
  do {
    pass();
    passes++;
    elapsed = Number(process.hrtime.bigint() - t0);
  } while (elapsed < ms * 1e6);
  return elapsed / passes / s.txs.length;
}

const spreadPct = (ratios: number[]) => describePercent(spread(ratios.map((x) => 100 * x)));

/**
 * The shares of the txid hashing alone again, from interleaved rounds: each round times the
 * hashing alone, one call each and listed back to back (each for SHARE_ROUND_MS, the order
 * rotating), and takes both shares within the round; the median and spread over the rounds are
 * printed. The suite's shares above compare runs seconds apart, which shared-machine noise moves
 * by several points. The same rounds time the hashing after only finding each transaction's end
 * (`transparentEnd`): how much of the one-call share any decoder loses before it builds anything;
 * and, for v1, v3, v4 and v5, the least conforming decoder of the version (least-decoder.ts),
 * alone and behind a version dispatch.
 */
function sharesPerRound(row: Row): string {
  const s = row.same;
  const least = leastDecoderFor(row.version);
  const passes = [txidOnlyPass(s), zecrpcPass(s), zecrpcListedPass(s), walkThenTxidPass(s)];
  if (least) passes.push(leastDecoderPass(s, least), leastDecoderPass(s, leastAnyVersion));
  const shares = passes.map(() => [] as number[]);
  const nsOf = passes.map(() => [] as number[]);
  for (let round = 0; round < SHARE_ROUNDS; round++) {
    const ns = passes.map(() => 0);
    for (let k = 0; k < passes.length; k++) {
      const which = (k + round) % passes.length;
      ns[which] = nsPerTx(passes[which]!, s, SHARE_ROUND_MS);
    }
    for (let k = 0; k < passes.length; k++) {
      shares[k]!.push(ns[0]! / ns[k]!);
      nsOf[k]!.push(ns[k]!);
    }
  }
  const rate = (k: number) => fmt(1e9 / median(nsOf[k]!));
  return (
    `${row.version} shares of the txid hashing alone, ${SHARE_ROUNDS} interleaved rounds: txid alone ${rate(0)} tx/s, ` +
    `decode+txid one call each ${rate(1)} tx/s, listed ${rate(2)} tx/s | one call each ${spreadPct(shares[1]!)}, listed ${spreadPct(shares[2]!)} | ` +
    `only finding each transaction's end, then its txid, one call each ${rate(3)} tx/s, ${spreadPct(shares[3]!)}` +
    (least
      ? ` | the least conforming ${row.version} decoder (bench/lib/least-decoder.ts), one call each ${rate(4)} tx/s, ${spreadPct(shares[4]!)}` +
        ` | the same behind a version dispatch, one call each ${rate(5)} tx/s, ${spreadPct(shares[5]!)}`
      : '')
  );
}

/**
 * bench/lib/least-decoder.ts's decoder for the set's version, then the txid, one call each;
 * checked first to agree with the real decoder on every transaction of the set.
 */
function leastDecoderPass(s: TxSet, least: (b: Uint8Array) => Transaction): () => void {
  for (const [i, t] of s.txs.entries()) {
    const want = decodeTransaction(t);
    const got = least(t);
    const same =
      got.size === want.size &&
      Buffer.from(got.txid).equals(want.txid) &&
      JSON.stringify({ ...got.data, vin: got.data.vin.length, vout: got.data.vout.length }) ===
        JSON.stringify({ ...want.data, vin: want.data.vin.length, vout: want.data.vout.length });
    if (!same) throw new Error(`the least decoder disagrees with the real one on transaction ${i}`);
  }
  return () => {
    for (const t of s.txs) void least(t).txid;
  };
}

/**
 * What alternating costs, apart from hashing: each transaction decoded, then a 1-byte SHA-256
 * (a native call that does almost no hashing), against the two loops run separately. The
 * controls say where the extra comes from: decoding alternating with a native call outside
 * OpenSSL (a 1-byte Buffer.compare), with a short call into OpenSSL that skips its digest path
 * (a 1-byte timingSafeEqual, CRYPTO_memcmp), and with a longer OpenSSL path than the hash (a
 * 1-byte HMAC-SHA-256); and a small JS loop (a 64-byte sum) alternating with the 1-byte SHA-256.
 * When the short calls and the JS loop stay near zero and the HMAC costs at least as much as
 * the hash, the extra is decoding's working set meeting OpenSSL's digest path.
 */
function alternationCost(s: TxSet): void {
  const oneByte = Buffer.alloc(1);
  const otherByte = Buffer.alloc(1);
  const hmacKey = Buffer.alloc(16, 1);
  const hmac = (): number => createHmac('sha256', hmacKey).update(oneByte).digest('binary').length;
  let sink = 0;
  const sum64 = (t: Uint8Array): number => {
    let x = 0;
    for (let i = 0; i < 64 && i < t.length; i++) x += t[i]!;
    return x;
  };
  const passes: Record<string, () => void> = {
    decode: () => {
      for (const t of s.txs) sink += decodeTransaction(t).size;
    },
    sha: () => {
      for (let i = 0; i < s.txs.length; i++) sink += sha256(oneByte)[0]!;
    },
    alternating: () => {
      for (const t of s.txs) sink += decodeTransaction(t).size + sha256(oneByte)[0]!;
    },
    compare: () => {
      for (let i = 0; i < s.txs.length; i++) sink += Buffer.compare(oneByte, otherByte) + 1;
    },
    'decode with compare': () => {
      for (const t of s.txs) sink += decodeTransaction(t).size + Buffer.compare(oneByte, otherByte);
    },
    'timing-safe equal': () => {
      for (let i = 0; i < s.txs.length; i++) sink += timingSafeEqual(oneByte, otherByte) ? 1 : 2;
    },
    'decode with timing-safe equal': () => {
      for (const t of s.txs) sink += decodeTransaction(t).size + (timingSafeEqual(oneByte, otherByte) ? 1 : 2);
    },
    hmac: () => {
      for (let i = 0; i < s.txs.length; i++) sink += hmac();
    },
    'decode with hmac': () => {
      for (const t of s.txs) sink += decodeTransaction(t).size + hmac();
    },
    sum: () => {
      for (const t of s.txs) sink += sum64(t) + 1;
    },
    'sum with sha': () => {
      for (const t of s.txs) sink += sum64(t) + sha256(oneByte)[0]!;
    },
  };
  const ns = new Map<string, number>();
  const suite = new Benchmark.Suite('alternation');
  for (const [name, fn] of Object.entries(passes)) suite.add(name, fn, { maxTime: 1.5, minSamples: 5 });
  suite.on('cycle', (e: Benchmark.Event) => {
    const b = e.target as unknown as Benchmark;
    ns.set(b.name ?? '', 1e9 / (b.hz * s.txs.length));
  });
  suite.run({ async: false });
  const t = (name: string) => ns.get(name)!;
  const line = (what: string, a: string, an: number, b: string, bn: number, both: number) =>
    `${what}: ${a} ${fmt(an)} ns/tx, ${b} ${fmt(bn)} ns, alternating ${fmt(both)} ns → ${fmt(both - an - bn)} ns per transaction more than the two apart`;
  const where = 'v4 transactions utxo-lib parses';
  console.log(line(`alternation cost, ${where}`, 'decode', t('decode'), '1-byte SHA-256', t('sha'), t('alternating')));
  console.log(
    line(`alternation control, ${where}`, 'decode', t('decode'), '1-byte Buffer.compare', t('compare'), t('decode with compare')),
  );
  console.log(
    line(
      `alternation control, ${where}`,
      'decode',
      t('decode'),
      '1-byte timingSafeEqual (OpenSSL, no digest)',
      t('timing-safe equal'),
      t('decode with timing-safe equal'),
    ),
  );
  console.log(line(`alternation control, ${where}`, 'decode', t('decode'), '1-byte HMAC-SHA-256', t('hmac'), t('decode with hmac')));
  console.log(line(`alternation control, ${where}`, '64-byte JS sum', t('sum'), '1-byte SHA-256', t('sha'), t('sum with sha')));
  if (sink === 0) throw new Error('alternation passes did no work');
}

main();
