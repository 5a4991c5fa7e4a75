/**
 * The uncached render floor: a bare Fastify route (as fastify-ceiling-server.ts) that answers
 * each `decoderawtransaction` and `getrawtransaction <txid> 1` request with zecrpc's reply
 * bytes, doing on every request only the work no server answering it without a reply cache can
 * leave out, each part with the fastest code this checkout has for it:
 *
 * - decoderawtransaction: the parameter's hex decoded to the transaction's bytes (WebAssembly,
 *   as zecrpc decodes it), its curve points checked as the decoder checks them (Orchard's and
 *   Sapling's cv and rk: zcashd refuses a transaction with an invalid one; WebAssembly, no
 *   verdict memo), and its txid hashed: SHA-256d for v1–v4 (OpenSSL), ZIP 244's txid and
 *   auth digest for v5/v6 (zecrpc's WebAssembly, one walk for both), as the reply shows them;
 * - getrawtransaction 1: the transaction's bytes (held in memory: a store read costs nothing
 *   here) hashed to check they are the transaction asked for (block files carry no checksum;
 *   zcashd checks too), and encoded as the reply's `hex` (WebAssembly SIMD, as zecrpc's writer
 *   encodes it);
 * - both: the texts of the addresses the reply shows, checksums and Base58 (WebAssembly, four
 *   at a time, as zecrpc's address table encodes fresh ones: a server remembering no address
 *   computes each), and every byte of the reply written once into reused memory (the reply's
 *   other bytes copied from the recorded reply with one memcpy each: no decoding of the
 *   transaction's structure, no JSON, no numbers, no scripts). render-floor-plans.ts builds them.
 *
 * So a server answering these requests without a reply cache on one thread spends at least this
 * server's CPU a request, less the little it does that a server need not: matching the body
 * among the recorded ones, copies in and out of WebAssembly memory, a copy of the recorded bytes
 * where fresh ones could be written (tens of µs in all). Every request body whose method is
 * neither (getblock's) is replayed as the other floors replay it. At start it checks that each
 * reply it builds is the recorded one and that each digest it hashes is the reply's.
 *
 * With FLOOR_PROCESSES=n (n > 1) it answers on n processes (cluster-workers.ts: each worker a
 * whole floor with its own event loop): what a server spreading requests over the cores with no
 * cost of its own for doing so would reach, an upper bound for one spreading them over threads,
 * which pays to pass requests and replies between them.
 *
 * With FLOOR_THREADS=n (n ≥ 1) its per-request work runs on n worker threads instead
 * (floor-thread.ts: the body handed over through shared memory and Atomics, the reply sent from
 * the thread's output slot): the event loop keeps the route, the matching and the sending, so
 * what it reaches bounds every server answering on one event loop with its uncached work on
 * threads. FLOOR_SLOTS (default 16) sets the jobs in flight at once.
 *
 * REPLIES: path of a JSON file [{ "body": request body, "reply": base64 of zecrpc's whole reply }].
 */
import cluster from 'node:cluster';
import Fastify, { type FastifyReply } from 'fastify';
import { setPointCheckCache } from '../../src/crypto/curves.js';
import { floorPlan, ReplyMemory, type BuildReply } from './render-floor-plans.js';
import { holdWorkerChannel, printsPort, processesFromEnv, serveFromWorkers } from './cluster-workers.js';
import { FloorThreads, threadsFromEnv } from './floor-thread.js';
import { readRecordedReplies, type RecordedReply } from './recorded-replies.js';

const PROCESSES = processesFromEnv('FLOOR_PROCESSES');
const THREADS = threadsFromEnv('FLOOR_THREADS');
const SLOTS = threadsFromEnv('FLOOR_SLOTS') || 16;
if (PROCESSES > 1 && cluster.isPrimary) await serveFromWorkers(PROCESSES);
else await serve();

interface Plan {
  /** Its place in the replies file, which the render threads build their plans in. */
  index: number;
  request: Buffer;
  reply: RecordedReply;
  build: BuildReply | null;
}

/** One floor on this process's event loop; a cluster worker's port is printed by its primary. */
async function serve(): Promise<void> {
  // Each request's points checked as a transaction's never seen before are: the distinct copies
  // a load cycles share them, and a memo would answer them from its second round on.
  setPointCheckCache(false);
  const recorded = readRecordedReplies();
  // On threads, the event loop builds nothing: it only needs to know which requests a thread builds,
  // which must be those it would build itself (a thread building none would replay every reply).
  const threads = THREADS > 0 ? await FloorThreads.start(THREADS, SLOTS, process.env.REPLIES!, recorded) : null;
  if (threads) {
    const own = recorded.flatMap(({ request, reply }, index) => (floorPlan(request, reply) ? [index] : []));
    if (own.join() !== [...threads.built].sort((a, b) => a - b).join())
      throw new Error(`the render threads build requests ${[...threads.built].join(', ')}, the event loop would build ${own.join(', ')}`);
  }
  const byLength = new Map<number, Plan[]>();
  recorded.forEach(({ request, reply }, index) => {
    const build = threads ? (threads.built.has(index) ? onThread : null) : floorPlan(request, reply);
    byLength.set(request.length, [...(byLength.get(request.length) ?? []), { index, request, reply, build }]);
  });
  const memory = new ReplyMemory();

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
    if (threads) return answerFromThread(threads, plan, body, reply);
    const out = memory.take(r.body.length);
    plan.build(body, out);
    reply.raw.once('finish', () => memory.giveBack(out));
    return reply.code(r.status).header('Content-Type', r.type).send(out);
  });
  holdWorkerChannel();
  await app.listen({ port: 0, host: '127.0.0.1' });
  // Before the port, as cluster-workers.ts prints its workers: the bench reads the threads' CPU.
  if (threads) process.stdout.write(`THREADS ${threads.tids.join(' ')}\n`);
  if (printsPort()) process.stdout.write(`PORT ${(app.server.address() as { port: number }).port}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

// Fastify's types say a serializer returns a string; its code takes a Buffer as well (onSendEnd).
const asItIs = (payload: unknown): string => payload as string;

/** Marks a plan whose reply a render thread builds (the event loop never calls it). */
function onThread(): never {
  throw new Error('a render thread builds this reply');
}

/** The reply to `plan`'s request built on a render thread and sent from its slot, given back once written out or abandoned. */
async function answerFromThread(threads: FloorThreads, plan: Plan, body: Buffer, reply: FastifyReply): Promise<FastifyReply> {
  let closed = false;
  let built: number | null = null;
  // The slot is free again only once the thread is done with it and the reply is written out (or the connection gone).
  reply.raw.once('close', () => {
    closed = true;
    if (built !== null) threads.giveBack(built);
  });
  const { slot, ok, bytes } = await threads.build(plan.index, body);
  built = slot;
  if (closed) {
    threads.giveBack(slot);
    return reply;
  }
  if (!ok) return reply.code(500).header('Content-Type', 'text/plain').send(Buffer.from(bytes));
  // Fastify sends a Buffer as bytes only when it lies over an ArrayBuffer, and serializes one over
  // shared memory as JSON; a serializer returning it as it is gives it the same path to the socket.
  return reply.code(plan.reply.status).header('Content-Type', plan.reply.type).serializer(asItIs).send(bytes);
}
