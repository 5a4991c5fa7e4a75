/**
 * `getrawtransaction "txid" 1` of the largest real v6 transaction beside a v5 transaction of the
 * same size: the work the method does once it has the stored bytes (decode, txid and auth digest,
 * TxToJSON with the leading `hex` and the block members, as UTF-8 bytes).
 *
 *   npx tsx bench/getrawtransaction-v6.ts [--rounds=N]   (ZECRPC_VECTORS overrides the vectors folder)
 *
 * The v6 transaction is mainnet 3428145 #3 (43,916 bytes, 13 Orchard actions, no Ironwood
 * actions; nu6.3/ in the test vectors). No real v5 transaction comes near that size, so the v5
 * one is the same transaction re-encoded as v5 with the NU6.2 branch id: the same transparent part
 * and the same 13 actions, one byte shorter (no Ironwood action count). Both are timed in every
 * round, in alternating order; the v6 ÷ v5 time ratio is taken within each round and reported as
 * median and min–max over rounds. Two passes: the whole reply from the bytes (every Orchard point
 * checked, as on first sight), and TxToJSON alone of a transaction decoded (digests included) before.
 */
import { MAINNET } from '../src/chain/network.js';
import { decodeBlock } from '../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../src/codec/tx/acceptance.js';
import { decodeTransaction } from '../src/codec/tx/transaction.js';
import { setPointCheckCache } from '../src/crypto/curves.js';
import { txToJsonBytes, type TxJsonExtras } from '../src/render/tx.js';
import { readHexVector } from '../test/support/vectors.js';
import { describePercent, fmt, load, median, numberFlag, spread } from './lib/measure.js';

setPointCheckCache(false);

const ROUNDS = numberFlag('rounds', 15);
const ROUND_MS = 300;

const block = decodeBlock(readHexVector('nu6.3', 'blocks', 'mainnet', '3428145.hex'), CURRENT_CHAIN_ACCEPTANCE);
const v6 = block.transactions[3]!;
if (v6.data.version !== 6 || v6.size !== 43916 || v6.data.ironwood !== null)
  throw new Error('mainnet 3428145 #3 is not the v6 transaction this bench expects');

/** v6 → v5: header and version group id of v5, the NU6.2 branch id, and without the last byte (the empty Ironwood part's action count). */
function asV5(bytes: Uint8Array): Uint8Array {
  const out = Buffer.from(bytes.subarray(0, bytes.length - 1));
  if (bytes[bytes.length - 1] !== 0) throw new Error('the v6 transaction has Ironwood actions');
  out.writeUInt32LE(0x80000005, 0);
  out.writeUInt32LE(0x26a7270a, 4);
  out.writeUInt32LE(0x5437f330, 8);
  return new Uint8Array(out);
}
const v5Bytes = asV5(v6.bytes);
const v5 = decodeTransaction(v5Bytes, CURRENT_CHAIN_ACCEPTANCE);
if (v5.data.orchard?.actions.length !== 13) throw new Error('the v5 twin does not carry the 13 Orchard actions');

const extras: TxJsonExtras = {
  leadingHex: true,
  block: { hash: block.hash, height: 3428145, confirmations: 11663, time: block.header.time },
};
const cases = [
  { name: 'v6', bytes: v6.bytes },
  { name: 'v5', bytes: v5Bytes },
].map((c) => ({ ...c, reply: txToJsonBytes(decodeTransaction(c.bytes, CURRENT_CHAIN_ACCEPTANCE), MAINNET, extras).length }));

interface Pass {
  name: string;
  run: (k: number) => void;
}

const decoded = cases.map((c) => {
  const tx = decodeTransaction(c.bytes, CURRENT_CHAIN_ACCEPTANCE);
  void tx.txid;
  void tx.authDigest;
  return tx;
});
const PASSES: Pass[] = [
  {
    name: 'decode+digests+TxToJSON',
    run: (k) => void txToJsonBytes(decodeTransaction(cases[k]!.bytes, CURRENT_CHAIN_ACCEPTANCE), MAINNET, extras),
  },
  { name: 'TxToJSON alone', run: (k) => void txToJsonBytes(decoded[k]!, MAINNET, extras) },
];

/** µs per reply over about ROUND_MS of wall time. */
function microsPerReply(pass: Pass, k: number): number {
  let n = 0;
  const t0 = process.hrtime.bigint();
  let elapsed = 0;
  do {
    pass.run(k);
    n++;
    elapsed = Number(process.hrtime.bigint() - t0);
  } while (elapsed < ROUND_MS * 1e6);
  return elapsed / n / 1000;
}

function measure(pass: Pass): void {
  for (let k = 0; k < cases.length; k++) for (let i = 0; i < 30; i++) pass.run(k);
  const times = cases.map(() => [] as number[]);
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    const t = [0, 0];
    for (const k of order) t[k] = microsPerReply(pass, k);
    t.forEach((v, k) => times[k]!.push(v));
    ratios.push((100 * t[0]!) / t[1]!);
  }
  const line = cases.map((c, k) => `${c.name} ${fmt(median(times[k]!), 1)} µs (${fmt(c.reply / median(times[k]!))} MB/s of JSON)`);
  console.log(`${pass.name}: ${line.join(' | ')} | v6 time ÷ v5 time ${describePercent(spread(ratios))}`);
}

function main(): void {
  console.log(`node ${process.version}, ${ROUNDS} interleaved rounds of ${ROUND_MS} ms per case, ${load()}`);
  for (const c of cases) console.log(`${c.name}: ${fmt(c.bytes.length)} bytes, reply ${fmt(c.reply)} bytes`);
  for (const p of PASSES) measure(p);
}

main();
