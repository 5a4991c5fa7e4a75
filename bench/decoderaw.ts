/**
 * decoderawtransaction JSON throughput on real v4/v5 transactions: zecrpc's TxToJSON
 * (UniValue-exact writer, hex conversions and script rendering included) against
 * JSON.stringify of an equivalent plain object built beforehand (pure serialization), and the
 * JsonWriter serializing the same prebuilt values (writer against JSON.stringify, like for like);
 * then what a reply sends, bytes: txToJsonBytes (byte output, as decoderawtransaction renders)
 * against JSON.stringify of the prebuilt object encoded to a Buffer.
 * Run: npx tsx bench/decoderaw.ts
 */
import Benchmark from 'benchmark';
import { MAINNET } from '../src/chain/network.js';
import { decodeBlock } from '../src/codec/block.js';
import type { Transaction } from '../src/codec/tx/transaction.js';
import { txToJson, txToJsonBytes } from '../src/render/tx.js';
import { parseJson } from '../src/json/reader.js';
import { JsonWriter } from '../src/json/writer.js';
import { JsonNumber, JsonObject, type JsonValue } from '../src/json/value.js';
import { readHexVector, realBlockFiles } from '../test/support/vectors.js';

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

for (const version of [4, 5]) {
  const set = txs.filter((t) => t.data.version === version);
  const bytes = set.reduce((s, t) => s + t.size, 0);
  const trees = set.map((t) => parseJson(txToJson(t, MAINNET)));
  const plain = trees.map(toPlain);
  const outBytes = set.reduce((s, t) => s + Buffer.byteLength(txToJson(t, MAINNET)), 0);
  const suite = new Benchmark.Suite(`v${version}`);
  let sink = 0;
  suite
    .add('zecrpc txToJson', () => {
      for (const t of set) sink += txToJson(t, MAINNET).length;
    })
    .add('JSON.stringify(prebuilt plain object)', () => {
      for (const p of plain) sink += JSON.stringify(p).length;
    })
    .add('JsonWriter(prebuilt JsonValue tree)', () => {
      for (const v of trees) sink += new JsonWriter().value(v).toString().length;
    })
    .add('zecrpc txToJsonBytes (reply bytes)', () => {
      for (const t of set) sink += txToJsonBytes(t, MAINNET).length;
    })
    .add('Buffer.from(JSON.stringify(prebuilt))', () => {
      for (const p of plain) sink += Buffer.from(JSON.stringify(p), 'latin1').length;
    })
    .on('cycle', (e: Benchmark.Event) => {
      const b = e.target as unknown as Benchmark;
      const perSec = b.hz! * set.length;
      console.log(
        `v${version} ${String(b.name).padEnd(40)} ${perSec.toFixed(0).padStart(9)} tx/s  ` +
          `${((b.hz! * outBytes) / 1e6).toFixed(1)} MB/s JSON out  ${((b.hz! * bytes) / 1e6).toFixed(1)} MB/s tx in`,
      );
    })
    .on('complete', function (this: Benchmark.Suite) {
      const runs = this as unknown as Benchmark[];
      const [ours, base, writerOnly, oursBytes, baseBytes] = [runs[0]!, runs[1]!, runs[2]!, runs[3]!, runs[4]!];
      console.log(
        `v${version} ratio writer-only / JSON.stringify (same prebuilt values) = ${(writerOnly.hz! / base.hz!).toFixed(2)}; ` +
          `full txToJson (decoded tx → JSON, incl. hex/asm/addresses) / JSON.stringify(prebuilt) = ${(ours.hz! / base.hz!).toFixed(2)}; ` +
          `as reply bytes / Buffer.from(JSON.stringify(prebuilt)) = ${(oursBytes.hz! / baseBytes.hz!).toFixed(2)}  (${set.length} txs)`,
      );
    })
    .run();
  if (sink < 0) console.log(sink);
}
