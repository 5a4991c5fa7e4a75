/**
 * v6 (ZIP 229) decode + txid + auth digest beside v5 (ZIP 244), on the real transactions: every
 * v6 transaction of the NU6.3 blocks in the test vectors (nu6.3/), and every v5 transaction of the
 * real blocks (blocks/ and the NU6.2 blocks of nu6.3/), each split into transparent-only and
 * shielded, since a shielded transaction's time is mostly its point checks and hashing.
 *
 *   npx tsx bench/decode-v6.ts [--share-rounds=N]   (ZECRPC_VECTORS overrides the vectors folder)
 *
 * As in bench/decode.ts, the "share of the hashing ceiling" is the time of the hashing alone (here
 * the txid and the auth digest, as `Transaction` computes them: one call each, from the bytes, on
 * transactions decoded beforehand) divided by the time of decoding and hashing, one transaction
 * after another: the fraction of the hashing's own throughput that decoding keeps. Shares come
 * from interleaved rounds (each round times every pass of a set in rotating order), median and
 * min–max over rounds. Every Sapling/Orchard point is checked (no verdict cache), as on first
 * sight.
 */
import { decodeBlock } from '../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../src/codec/tx/acceptance.js';
import { decodeTransaction, type Transaction } from '../src/codec/tx/transaction.js';
import { zip229AuthDigest, zip229TxId } from '../src/codec/tx/zip229.js';
import { zip244AuthDigest, zip244TxId } from '../src/codec/tx/zip244.js';
import { setPointCheckCache } from '../src/crypto/curves.js';
import { zip244WasmAvailable } from '../src/crypto/zip244-wasm.js';
import { readHexVector, readJsonVector, realBlockFiles } from '../test/support/vectors.js';
import { describePercent, fmt, load, median, numberFlag, spread } from './lib/measure.js';

setPointCheckCache(false);

const ROUNDS = numberFlag('share-rounds', 7);
const ROUND_MS = 150;

interface TxSet {
  name: string;
  txs: Uint8Array[];
  bytes: number;
}

function nu63Blocks(): Uint8Array[] {
  const facts = readJsonVector<{ blocks: Record<string, { file: string }> }>('nu6.3', 'facts.json').blocks;
  return Object.values(facts).map((b) => readHexVector('nu6.3', b.file));
}

function loadSets(): TxSet[] {
  const blocks = [...realBlockFiles().map((f) => readHexVector(f.file)), ...nu63Blocks()];
  const groups = new Map<string, Uint8Array[]>();
  for (const b of blocks) {
    for (const tx of decodeBlock(b, CURRENT_CHAIN_ACCEPTANCE).transactions) {
      const d = tx.data;
      if (d.format !== 'v5' && d.format !== 'v6') continue;
      const shielded = d.sapling !== null || d.orchard !== null || (d.ironwood ?? null) !== null;
      const name = `${d.format} ${shielded ? 'shielded' : 'transparent'}`;
      groups.set(name, [...(groups.get(name) ?? []), tx.bytes.slice()]);
    }
  }
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, txs]) => ({ name, txs, bytes: txs.reduce((n, t) => n + t.length, 0) }));
}

/** The digests as `Transaction` takes them: txid, then auth digest, each one call from the bytes. */
function digestsOf(tx: Transaction): void {
  if (tx.data.format === 'v6') {
    zip229TxId(tx.data, tx.bytes);
    zip229AuthDigest(tx.data, tx.bytes);
  } else {
    zip244TxId(tx.data, tx.bytes);
    zip244AuthDigest(tx.data, tx.bytes);
  }
}

function passes(s: TxSet): { name: string; run: () => void }[] {
  const decoded = s.txs.map((t) => decodeTransaction(t, CURRENT_CHAIN_ACCEPTANCE));
  return [
    {
      name: 'digests alone',
      run: () => {
        for (const tx of decoded) digestsOf(tx);
      },
    },
    {
      name: 'decode+txid+auth',
      run: () => {
        for (const t of s.txs) {
          const tx = decodeTransaction(t, CURRENT_CHAIN_ACCEPTANCE);
          void tx.txid;
          void tx.authDigest;
        }
      },
    },
    {
      name: 'decode alone',
      run: () => {
        for (const t of s.txs) decodeTransaction(t, CURRENT_CHAIN_ACCEPTANCE);
      },
    },
  ];
}

/** ns per transaction of `run` over `s`, run for about `ms`. */
function nsPerTx(run: () => void, s: TxSet, ms: number): number {
  let n = 0;
  const t0 = process.hrtime.bigint();
  let elapsed = 0;
  do {
    run();
    n++;
    elapsed = Number(process.hrtime.bigint() - t0);
  } while (elapsed < ms * 1e6);
  return elapsed / n / s.txs.length;
}

function measure(s: TxSet): string {
  const ps = passes(s);
  for (const p of ps) for (let i = 0; i < 20; i++) p.run(); // warm every pass before any round
  const ns = ps.map(() => [] as number[]);
  const shares: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const thisRound = ps.map(() => 0);
    for (let k = 0; k < ps.length; k++) {
      const which = (k + round) % ps.length;
      thisRound[which] = nsPerTx(ps[which]!.run, s, ROUND_MS);
    }
    thisRound.forEach((v, k) => ns[k]!.push(v));
    shares.push((100 * thisRound[0]!) / thisRound[1]!);
  }
  const rate = (k: number) => `${fmt(1e9 / median(ns[k]!))} tx/s (${fmt(median(ns[k]!) / 1000, 1)} µs)`;
  return (
    `${s.name.padEnd(16)} ${String(s.txs.length).padStart(4)} txs ${fmt(s.bytes / 1e3).padStart(6)} kB | ` +
    `digests alone ${rate(0)} | decode+txid+auth ${rate(1)} | decode alone ${rate(2)} | ` +
    `share of the hashing ceiling ${describePercent(spread(shares))}`
  );
}

function main(): void {
  if (!zip244WasmAvailable()) throw new Error('the WebAssembly digests are not built (npm run build:wasm)');
  const sets = loadSets();
  console.log(`node ${process.version}, ${ROUNDS} interleaved rounds of ${ROUND_MS} ms per pass, ${load()}`);
  for (const s of sets) console.log(measure(s));
}

main();
