/**
 * The uncached render floor: a bare Fastify route (as fastify-ceiling-server.ts) that answers
 * each `decoderawtransaction` and `getrawtransaction <txid> 1` request with zecrpc's reply
 * bytes, doing on every request only the work no server answering it without a reply cache can
 * leave out, each part with the fastest code this checkout has for it:
 *
 * - decoderawtransaction: the parameter's hex decoded to the transaction's bytes (WebAssembly,
 *   as zecrpc decodes it), and for v1–v4 transactions the txid's SHA-256d of those bytes
 *   (OpenSSL); v5 and v6 txids (ZIP 244's BLAKE2b tree) are left out, which only lowers the floor.
 * - getrawtransaction 1: the transaction's bytes (held in memory: a store read costs nothing
 *   here) encoded as the reply's `hex` (WebAssembly SIMD, as zecrpc's writer encodes it).
 * - both: every byte of the reply written once into reused memory (the reply's other bytes
 *   copied from the recorded reply with one memcpy each: no decoding of the transaction's
 *   structure, no JSON, no numbers, no addresses).
 *
 * So no uncached renderer on Fastify can spend less CPU a request than this server, nor (its
 * clients reading the same bytes) serve more requests a second: its share of the ceiling
 * bounds what an uncached reply can reach on the promised stack. Every request body whose
 * method is neither (getblock's) is replayed as the other floors replay it. At start it checks
 * that each reply it builds is the recorded one and that each txid it hashes is the reply's.
 *
 * REPLIES: path of a JSON file [{ "body": request body, "reply": base64 of zecrpc's whole reply }].
 */
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { wasmHexDecodeInto, wasmHexInto } from '../../src/json/hex-wasm.js';
import { readRecordedReplies, type RecordedReply } from './recorded-replies.js';

/** How one request's reply is built; `build` writes the whole reply into `out`. */
interface Plan {
  request: Buffer;
  reply: RecordedReply;
  build: ((body: Buffer, out: Buffer) => void) | null;
}

const DECODE_PARAM = Buffer.from('"method":"decoderawtransaction","params":["');
const GETRAW = Buffer.from('"method":"getrawtransaction"');
const HEX_FIELD = Buffer.from('"hex":"');

/** The byte range of the first string value after `marker` in `bytes`, or null. */
function stringAfter(bytes: Buffer, marker: Buffer): { start: number; end: number } | null {
  const at = bytes.indexOf(marker);
  if (at < 0) return null;
  const start = at + marker.length;
  const end = bytes.indexOf(0x22, start);
  return end < 0 ? null : { start, end };
}

function sha256d(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();
}

function decodePlan(request: Buffer, reply: RecordedReply): Plan['build'] {
  const param = stringAfter(request, DECODE_PARAM);
  if (!param) return null;
  const tx = Buffer.allocUnsafeSlow((param.end - param.start) >>> 1);
  const version = (): number => tx.readUInt32LE(0) & 0x7fffffff;
  const decode = (body: Buffer): void => {
    if (wasmHexDecodeInto(body.subarray(param.start, param.end), tx) !== true) throw new Error('the hex parameter did not decode');
  };
  // The txid the reply shows, byte-reversed, must be the one hashed (v1–v4).
  decode(request);
  const hashes = version() <= 4;
  if (hashes) {
    const shown = stringAfter(reply.body, Buffer.from('"txid":"'))!;
    const txid = Buffer.from(reply.body.toString('latin1', shown.start, shown.end), 'hex').reverse();
    if (!txid.equals(sha256d(tx))) throw new Error('the hashed txid is not the reply’s');
  }
  return (body, out) => {
    decode(body);
    if (hashes) sha256d(tx);
    reply.body.copy(out);
  };
}

function getrawPlan(request: Buffer, reply: RecordedReply): Plan['build'] {
  if (request.indexOf(GETRAW) < 0) return null;
  const hex = stringAfter(reply.body, HEX_FIELD);
  if (!hex) return null;
  const tx = Buffer.from(reply.body.toString('latin1', hex.start, hex.end), 'hex');
  return (_body, out) => {
    reply.body.copy(out, 0, 0, hex.start);
    if (!wasmHexInto(tx, 0, tx.length, out, hex.start)) throw new Error('the WebAssembly hex encoder is unavailable');
    reply.body.copy(out, hex.end, hex.end);
  };
}

const byLength = new Map<number, Plan[]>();
for (const { request, reply } of readRecordedReplies()) {
  const plan: Plan = { request, reply, build: decodePlan(request, reply) ?? getrawPlan(request, reply) };
  if (plan.build) {
    const out = Buffer.alloc(reply.body.length);
    plan.build(request, out);
    if (!out.equals(reply.body)) throw new Error(`the reply built for ${request.toString('latin1', 0, 80)}… is not the recorded one`);
  }
  byLength.set(request.length, [...(byLength.get(request.length) ?? []), plan]);
}

/** Reply memory by size, reused once its reply has been written out, as zecrpc's lent slabs are. */
const spare = new Map<number, Buffer[]>();
function take(size: number): Buffer {
  return spare.get(size)?.pop() ?? Buffer.allocUnsafeSlow(size);
}
function giveBack(b: Buffer): void {
  const list = spare.get(b.length);
  if (list) list.push(b);
  else spare.set(b.length, [b]);
}

// zecrpc's keep-alive wait (-rpcservertimeout's default), so the heads are the same size as the other floors'.
const app = Fastify({ logger: false, keepAliveTimeout: 30_000, bodyLimit: 64 * 1024 * 1024 });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
app.post('/', (request, reply) => {
  const body = request.body as Buffer;
  const plan = byLength.get(body.length)?.find((p) => p.request.equals(body));
  if (!plan) return reply.code(404).send();
  const r = plan.reply;
  if (!plan.build) return reply.code(r.status).header('Content-Type', r.type).send(r.body);
  const out = take(r.body.length);
  plan.build(body, out);
  reply.raw.once('finish', () => giveBack(out));
  return reply.code(r.status).header('Content-Type', r.type).send(out);
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`PORT ${(app.server.address() as { port: number }).port}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
