/**
 * decoderawtransaction JSON throughput on real v4/v5 transactions: zecrpc's TxToJSON
 * (UniValue-exact writer, hex conversions and script rendering included) against
 * JSON.stringify of an equivalent plain object built beforehand (pure serialization), and the
 * JsonWriter serializing the same prebuilt values (writer against JSON.stringify, like for like);
 * then what a reply sends, bytes: txToJsonBytes (byte output, as decoderawtransaction renders)
 * against JSON.stringify of the prebuilt object encoded to a Buffer.
 *
 * Those render the same decoded objects again and again: their txids are memoized and every
 * address is in the address table after the first round. What one request costs is measured
 * apart ("per request"): each round decodes copies of the transactions from their bytes and
 * renders them, and the copies rotate through COPIES variants whose P2PKH/P2SH hashes differ
 * (all but the two bytes that choose the address table's slot), so each address is a miss,
 * evicted by the copy before.
 * Each case runs once a round, the order rotated a round; the figures are medians over the rounds.
 * Run: npx tsx bench/decoderaw.ts [--quick]
 */
import Benchmark from 'benchmark';
import { MAINNET } from '../src/chain/network.js';
import { decodeBlock } from '../src/codec/block.js';
import { decodeTransaction, type Transaction } from '../src/codec/tx/transaction.js';
import { txToJson, txToJsonBytes } from '../src/render/tx.js';
import { parseJson } from '../src/json/reader.js';
import { JsonWriter } from '../src/json/writer.js';
import { JsonNumber, JsonObject, type JsonValue } from '../src/json/value.js';
import { readHexVector, realBlockFiles } from '../test/support/vectors.js';
import { byteStream } from './lib/byte-stream.js';
import { varyOutputAddresses } from './lib/large-transactions.js';
import { median } from './lib/measure.js';

function toPlain(v: JsonValue): unknown {
  if (v instanceof JsonNumber) return Number(v.text);
  if (Array.isArray(v)) return v.map(toPlain);
  if (v instanceof JsonObject) return Object.fromEntries(v.entries.map(([k, x]) => [k, toPlain(x)]));
  return v;
}

const txs: Transaction[] = [];
for (const f of realBlockFiles()) {
  for (const tx of decodeBlock(readHexVector(f.file)).transactions) {
    if (tx.data.overwintered && tx.data.version >= 4) txs.push(tx);
  }
}

/** Variants of each transaction a round of the per-request measurement rotates through. */
const COPIES = 16;

/** One stream for every copy of every transaction, so that no two outputs get the same bytes. */
const next = byteStream();

/**
 * `COPIES` copies of `tx` whose P2PKH/P2SH output hashes differ from each other's (and from every
 * other output's) but in their first two bytes, which choose the hash's slot in the address
 * table: each copy's address evicts the previous copy's from that slot. A transaction without
 * such outputs is copied as it is.
 */
function addressVariants(tx: Transaction): Uint8Array[] {
  return Array.from({ length: COPIES }, () => {
    const bytes = new Uint8Array(tx.bytes);
    varyOutputAddresses(bytes, decodeTransaction(bytes).data.vout, next);
    return bytes;
  });
}

/**
 * Rounds of every case, their order rotated a round and reversed every other round, so that each
 * ratio pairs cases timed side by side and no case always follows the same one.
 */
const ROUNDS = process.argv.includes('--quick') ? 1 : 5;

for (const version of [4, 5]) {
  const set = txs.filter((t) => t.data.version === version);
  const variants = set.map(addressVariants);
  let nextCopy = 0;
  const bytes = set.reduce((s, t) => s + t.size, 0);
  const trees = set.map((t) => parseJson(txToJson(t, MAINNET)));
  const plain = trees.map(toPlain);
  const outBytes = set.reduce((s, t) => s + Buffer.byteLength(txToJson(t, MAINNET)), 0);
  let sink = 0;
  const cases: [string, () => void][] = [
    [
      'zecrpc txToJson',
      () => {
        for (const t of set) sink += txToJson(t, MAINNET).length;
      },
    ],
    [
      'JSON.stringify(prebuilt plain object)',
      () => {
        for (const p of plain) sink += JSON.stringify(p).length;
      },
    ],
    [
      'JsonWriter(prebuilt JsonValue tree)',
      () => {
        for (const v of trees) sink += new JsonWriter().value(v).toString().length;
      },
    ],
    [
      'zecrpc txToJsonBytes (reply bytes)',
      () => {
        for (const t of set) sink += txToJsonBytes(t, MAINNET).length;
      },
    ],
    [
      'Buffer.from(JSON.stringify(prebuilt))',
      () => {
        for (const p of plain) sink += Buffer.from(JSON.stringify(p), 'latin1').length;
      },
    ],
    [
      'zecrpc per request (decode, reply bytes)',
      () => {
        const k = nextCopy++ % COPIES;
        for (const copies of variants) sink += txToJsonBytes(decodeTransaction(copies[k]!), MAINNET).length;
      },
    ],
  ];
  /** Sets a second, by case and round. */
  const hz = new Map<string, number[]>(cases.map(([name]) => [name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const suite = new Benchmark.Suite(`v${version} round ${r}`);
    for (let i = 0; i < cases.length; i++) {
      const at = (i + r) % cases.length;
      const [name, fn] = cases[r % 2 === 0 ? at : cases.length - 1 - at]!;
      suite.add(name, fn, { maxTime: 1 });
    }
    suite.on('cycle', (e: Benchmark.Event) => {
      const b = e.target as unknown as Benchmark;
      hz.get(String(b.name))!.push(b.hz!);
    });
    suite.run();
  }
  for (const [name] of cases) {
    const perSec = median(hz.get(name)!);
    console.log(
      `v${version} ${name.padEnd(40)} ${(perSec * set.length).toFixed(0).padStart(9)} tx/s  ` +
        `${((perSec * outBytes) / 1e6).toFixed(1)} MB/s JSON out  ${((perSec * bytes) / 1e6).toFixed(1)} MB/s tx in  (median of ${ROUNDS} rounds)`,
    );
  }
  // Each ratio the median of the rounds' own ratios.
  const ratio = (a: string, b: string): string => median(hz.get(a)!.map((x, r) => x / hz.get(b)![r]!)).toFixed(2);
  const all = (a: string, b: string): string =>
    hz
      .get(a)!
      .map((x, r) => (x / hz.get(b)![r]!).toFixed(2))
      .join(', ');
  console.log(
    `v${version} ratio writer-only / JSON.stringify (same prebuilt values) = ${ratio('JsonWriter(prebuilt JsonValue tree)', 'JSON.stringify(prebuilt plain object)')}; ` +
      `full txToJson (decoded tx → JSON, incl. hex/asm/addresses) / JSON.stringify(prebuilt) = ${ratio('zecrpc txToJson', 'JSON.stringify(prebuilt plain object)')}; ` +
      `as reply bytes / Buffer.from(JSON.stringify(prebuilt)) = ${ratio('zecrpc txToJsonBytes (reply bytes)', 'Buffer.from(JSON.stringify(prebuilt))')}; ` +
      `per request (fresh decode, cold addresses) / Buffer.from(JSON.stringify(prebuilt)) = ${ratio('zecrpc per request (decode, reply bytes)', 'Buffer.from(JSON.stringify(prebuilt))')} ` +
      `(rounds: ${all('zecrpc per request (decode, reply bytes)', 'Buffer.from(JSON.stringify(prebuilt))')})  (${set.length} txs)`,
  );
  if (sink < 0) console.log(sink);
}
