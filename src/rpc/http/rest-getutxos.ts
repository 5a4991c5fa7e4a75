/**
 * `/rest/getutxos` (zcashd v6.12.2's `rest_getutxos`): which of up to 15 outpoints are unspent,
 * with the chain's height and tip, as BIP 64's binary reply (`.bin`, `.hex`) or JSON.
 *
 * zcashd looks the outpoints up in a coins view whose backend is a dummy unless `checkmempool` is
 * asked for (the mempool over the chain's coins): without it every outpoint is reported spent,
 * and so it is here. With it, each outpoint is what `gettxout txid n true` finds (the same view:
 * the chain's coins and what the mempool creates and spends), so the lookups are calls of that
 * method, in one JSON-RPC batch with the tip's hash and height, through the work queue and the
 * memory budgets of every JSON-RPC request.
 */
import type { FastifyReply } from 'fastify';
import { parseJson } from '../../json/reader.js';
import { JsonNumber, JsonObject, type JsonValue } from '../../json/value.js';
import { JsonWriter } from '../../json/writer.js';
import { parseFixedPoint } from '../amount.js';
import { isRefusal, parseGetUtxosRequest, type GetUtxosRequest, type OutPoint } from './getutxos-request.js';
import { sendReply, type SimpleReply } from './reply.js';
import { restError, text } from './rest-common.js';
import type { RpcCore } from './rpc-core.js';

/** MEMPOOL_HEIGHT: the height zcashd gives a coin its mempool creates. */
const MEMPOOL_HEIGHT = 0x7fffffff;

const METHOD_NOT_FOUND = -32601;
export const NO_COINS_VIEW = 'Error: this node keeps no coins view to look outpoints up in';

/** Lookups tried again when a block arrives between the batch's first and last call. */
const TIP_ATTEMPTS = 3;

interface Unspent {
  txVersion: number;
  height: number;
  /** gettxout's `value` and `scriptPubKey`, written as zcashd's REST writes them. */
  value: JsonNumber;
  scriptPubKey: JsonObject;
}

interface Found {
  tipHeight: number;
  tipHash: string;
  /** Per outpoint, in request order: the coin, or null when spent or unknown. */
  coins: (Unspent | null)[];
}

type Lookup = { ok: true; found: Found } | { ok: false; reply: SimpleReply } | { ok: false; status: number; message: string };

const hexOf = (txid: Uint8Array): string => Buffer.from(txid).reverse().toString('hex');

const intOf = (v: JsonValue | undefined): number => (v instanceof JsonNumber ? Number(v.text) : NaN);

/** A batch member's result, or the RPC error it carries. */
function member(items: JsonValue, index: number): { result: JsonValue } | { message: string } {
  const item = Array.isArray(items) ? items[index] : undefined;
  if (!(item instanceof JsonObject)) return { message: 'Error: unexpected reply to a lookup' };
  const error = item.get('error');
  if (error instanceof JsonObject) {
    // A store without a coins view serves no gettxout (zcashd always has one).
    if (intOf(error.get('code')) === METHOD_NOT_FOUND) return { message: NO_COINS_VIEW };
    const message = error.get('message');
    return { message: typeof message === 'string' ? message : 'Error' };
  }
  return { result: item.get('result') ?? null };
}

/**
 * One batch: the tip, the lookups, the tip again. Outpoints beyond int32 (a uint32 read from a
 * body) name no output any transaction has, so they are not asked.
 */
async function lookOnce(core: RpcCore, request: GetUtxosRequest): Promise<Lookup | 'tip-moved'> {
  const asked = request.checkMempool ? request.outpoints.filter((o) => o.n <= 0x7fffffff) : [];
  const calls = [
    '{"method":"getbestblockhash","params":[],"id":0}',
    '{"method":"getblockcount","params":[],"id":1}',
    ...asked.map((o, i) => `{"method":"gettxout","params":["${hexOf(o.txid)}",${o.n},true],"id":${i + 2}}`),
    `{"method":"getbestblockhash","params":[],"id":${asked.length + 2}}`,
  ];
  const outcome = await core.execute(Buffer.from(`[${calls.join(',')}]`));
  let items: JsonValue;
  try {
    const r = outcome.reply;
    if (r.own !== 'json') return { ok: false, reply: r };
    const bytes = typeof r.body === 'string' ? Buffer.from(r.body, 'utf8') : Buffer.concat(r.body);
    items = parseJson(bytes);
    if (r.status !== 200) {
      const error = items instanceof JsonObject ? items.get('error') : null;
      const message = error instanceof JsonObject ? error.get('message') : null;
      return { ok: false, status: 500, message: typeof message === 'string' ? message : 'Error' };
    }
  } finally {
    outcome.done();
  }
  const first = member(items, 0);
  const count = member(items, 1);
  const last = member(items, asked.length + 2);
  for (const m of [first, count, last]) if ('message' in m) return { ok: false, status: 500, message: m.message };
  const tipHash = (first as { result: JsonValue }).result;
  if (typeof tipHash !== 'string' || tipHash !== (last as { result: JsonValue }).result) return 'tip-moved';
  const tipHeight = intOf((count as { result: JsonValue }).result);

  const byOutpoint = new Map<OutPoint, Unspent | null>();
  for (let i = 0; i < asked.length; i++) {
    const m = member(items, i + 2);
    if ('message' in m) return { ok: false, status: 500, message: m.message };
    const coin = m.result;
    if (!(coin instanceof JsonObject)) {
      byOutpoint.set(asked[i]!, null);
      continue;
    }
    const confirmations = intOf(coin.get('confirmations'));
    // An upstream answering for the mempool counts confirmations from its own tip, which the
    // height cannot be derived from until this node has it too.
    if (confirmations !== 0 && coin.get('bestblock') !== tipHash) {
      const theirs = String(coin.get('bestblock'));
      return {
        ok: false,
        status: 503,
        message: `Service temporarily unavailable: coins read at tip ${theirs}, not at this node's tip ${tipHash}`,
      };
    }
    const value = coin.get('value');
    const scriptPubKey = coin.get('scriptPubKey');
    if (!(value instanceof JsonNumber) || !(scriptPubKey instanceof JsonObject)) {
      return { ok: false, status: 500, message: 'Error: unexpected reply to a lookup' };
    }
    byOutpoint.set(asked[i]!, {
      txVersion: intOf(coin.get('version')),
      height: confirmations === 0 ? MEMPOOL_HEIGHT : tipHeight - confirmations + 1,
      value,
      scriptPubKey,
    });
  }
  return { ok: true, found: { tipHeight, tipHash, coins: request.outpoints.map((o) => byOutpoint.get(o) ?? null) } };
}

async function lookUp(core: RpcCore, request: GetUtxosRequest): Promise<Lookup> {
  for (let attempt = 1; ; attempt++) {
    const r = await lookOnce(core, request);
    if (r !== 'tip-moved') return r;
    if (attempt === TIP_ATTEMPTS)
      return { ok: false, status: 503, message: 'Service temporarily unavailable: the chain tip kept changing' };
  }
}

/** `chainActive.Height() << tip hash << bitmap << outs`, CCoin being nTxVer, nHeight and the CTxOut. */
function binaryReply(found: Found): Buffer {
  const parts: Buffer[] = [];
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n >>> 0);
    parts.push(b);
  };
  const compactSize = (n: number) => {
    if (n < 253) parts.push(Buffer.of(n));
    else if (n <= 0xffff) parts.push(Buffer.of(253, n & 0xff, n >>> 8));
    else {
      parts.push(Buffer.of(254));
      u32(n);
    }
  };
  u32(found.tipHeight);
  parts.push(Buffer.from(found.tipHash, 'hex').reverse());
  // boost::dynamic_bitset's blocks: outpoint i is bit i % 8 of byte i / 8.
  const bitmap = Buffer.alloc(Math.ceil(found.coins.length / 8));
  found.coins.forEach((c, i) => {
    if (c) bitmap[i >> 3]! |= 1 << (i & 7);
  });
  compactSize(bitmap.length);
  parts.push(bitmap);
  const unspent = found.coins.filter((c): c is Unspent => c !== null);
  compactSize(unspent.length);
  for (const c of unspent) {
    u32(c.txVersion);
    u32(c.height);
    const value = Buffer.alloc(8);
    value.writeBigInt64LE(parseFixedPoint(c.value.text, 8) ?? 0n);
    parts.push(value);
    const script = Buffer.from(String(c.scriptPubKey.get('hex')), 'hex');
    compactSize(script.length);
    parts.push(script);
  }
  return Buffer.concat(parts);
}

function jsonReply(found: Found): string {
  const w = new JsonWriter().beginObject();
  w.key('chainHeight').int(found.tipHeight);
  w.key('chaintipHash').plainStr(found.tipHash);
  w.key('bitmap').plainStr(found.coins.map((c) => (c ? '1' : '0')).join(''));
  w.key('utxos').beginArray();
  for (const c of found.coins) {
    if (!c) continue;
    w.beginObject();
    w.key('txvers').int(c.txVersion);
    w.key('height').int(c.height);
    w.key('value').value(c.value);
    w.key('scriptPubKey').value(c.scriptPubKey);
    w.endObject();
  }
  return w.endArray().endObject().toString() + '\n';
}

/** Answers `/rest/getutxos<uriPart>` with the request's body. */
export async function getUtxos(core: RpcCore, reply: FastifyReply, uriPart: string, body: Buffer): Promise<FastifyReply> {
  const request = parseGetUtxosRequest(uriPart, body);
  if (isRefusal(request)) return restError(reply, request.status, request.message);
  const looked = await lookUp(core, request);
  if (!looked.ok) return 'reply' in looked ? sendReply(reply, looked.reply) : restError(reply, looked.status, looked.message);
  const { found } = looked;
  if (request.format === 'json') return text(reply, 200, 'application/json', jsonReply(found));
  const bytes = binaryReply(found);
  return request.format === 'bin'
    ? text(reply, 200, 'application/octet-stream', bytes)
    : text(reply, 200, 'text/plain', `${bytes.toString('hex')}\n`);
}
