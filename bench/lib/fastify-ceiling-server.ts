/**
 * The bare Fastify floor: a Fastify 5 instance with no hooks, no logger and one POST route
 * answering each request with the body and Content-Type zecrpc gave to the same request body,
 * captured beforehand, as one Buffer (the same replies as http-ceiling-server.ts). What it does
 * is the least any JSON-RPC server on Fastify does, so this floor ÷ the node:http ceiling is what
 * Fastify itself costs a request, before any of zecrpc's policy or methods.
 *
 * REPLIES: path of a JSON file [{ "body": request body, "reply": base64 of zecrpc's whole reply }].
 */
import Fastify from 'fastify';
import { recordedReplies } from './recorded-replies.js';

const replyTo = recordedReplies();

// zecrpc's keep-alive wait (-rpcservertimeout's default), so both heads are the same size.
const app = Fastify({ logger: false, keepAliveTimeout: 30_000, bodyLimit: 64 * 1024 * 1024 });
// Every body as its bytes: Fastify's own text/plain parser (the type the benches send) would make
// a string of it, which a server replaying bytes need not.
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
app.post('/', (request, reply) => {
  const r = replyTo(request.body as Buffer);
  if (!r) return reply.code(404).send();
  return reply.code(r.status).header('Content-Type', r.type).send(r.body);
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`PORT ${(app.server.address() as { port: number }).port}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
