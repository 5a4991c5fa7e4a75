// Rewrites a zcashd-exact reply into the shape zebrad gives (zebra-rpc snapshot tests): JSON-RPC
// 2.0 envelope without `"error":null`, HTTP 200 for errors, amounts and difficulty as serde f64,
// no `chainwork`, a `trees` object in getblock, `height`/`confirmations` in its verbose transactions.
import { parseJson } from '../../src/json/reader.js';
import { JsonNumber, JsonObject, type JsonValue } from '../../src/json/value.js';
import { JsonWriter } from '../../src/json/writer.js';
import type { ReplyRewriter } from './servers.js';

const AMOUNT_KEYS = new Set(['value', 'valueBalance', 'vpub_old', 'vpub_new', 'valueBalanceSapling', 'valueBalanceOrchard', 'difficulty']);

/** serde_json's f64 text: shortest round-trip digits, and `.0` on whole numbers. */
function f64Text(token: string): string {
  const s = String(Number(token));
  return /[.e]/.test(s) ? s : `${s}.0`;
}

function reshape(v: JsonValue, key: string | null): JsonValue {
  if (v instanceof JsonNumber) return key !== null && AMOUNT_KEYS.has(key) ? new JsonNumber(f64Text(v.text)) : v;
  if (Array.isArray(v)) return v.map((x) => reshape(x, null));
  if (v instanceof JsonObject) {
    const o = new JsonObject();
    for (const [k, x] of v.entries) if (k !== 'chainwork') o.entries.push([k, reshape(x, k)]);
    return o;
  }
  return v;
}

const write = (v: JsonValue): string => new JsonWriter().value(v).toString();

export function zebraShape(opts: { alterTxidAtHeight?: { hash: string } } = {}): ReplyRewriter {
  return (req, reply) => {
    if (req.method === 'getnetworkinfo') {
      return {
        status: 200,
        body: Buffer.from('{"jsonrpc":"2.0","id":"compare","result":{"version":2050000,"subversion":"/Zebra:2.5.0/"}}'),
      };
    }
    const envelope = parseJson(reply.body) as JsonObject;
    const id = write(envelope.get('id')!);
    const error = envelope.get('error');
    if (error !== null && error !== undefined) {
      return { status: 200, body: Buffer.from(`{"jsonrpc":"2.0","id":${id},"error":${write(error)}}`) };
    }
    const result = reshape(envelope.get('result')!, null);
    if (req.method === 'getblock' && result instanceof JsonObject) {
      if (!result.has('trees')) result.entries.push(['trees', new JsonObject()]);
      const txs = result.get('tx');
      // zebrad repeats the block's height and confirmations in each verbose transaction.
      if (Array.isArray(txs)) {
        for (const tx of txs) {
          if (tx instanceof JsonObject)
            tx.entries.splice(1, 0, ['height', result.get('height')!], ['confirmations', result.get('confirmations')!]);
        }
      }
      if (opts.alterTxidAtHeight && req.params[0] === opts.alterTxidAtHeight.hash) {
        const tx = result.get('tx');
        if (Array.isArray(tx) && typeof tx[0] === 'string') tx[0] = `${'0'.repeat(63)}1`;
      }
    }
    return { status: 200, body: Buffer.from(`{"jsonrpc":"2.0","id":${id},"result":${write(result)}}`) };
  };
}
