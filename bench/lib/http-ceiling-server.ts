/**
 * The node:http ceiling: Node's own HTTP server (llhttp, the parser Fastify runs on) answering
 * each request with the body and Content-Type zecrpc gave to the same request body, captured
 * beforehand, as one Buffer. What it does is the least any server on node:http does, so
 * zecrpc ÷ this ceiling is what Fastify and zecrpc's policy cost above Node's HTTP
 * (bench/front-end.ts); bench/large-tx.ts runs it as the node:http floor beside its node:net
 * ceiling, where it shows what Node's HTTP itself costs a large request or reply.
 *
 * REPLIES: path of a JSON file [{ "body": request body, "reply": base64 of zecrpc's whole reply }].
 */
import { createServer } from 'node:http';
import { recordedReplies } from './recorded-replies.js';

const replyTo = recordedReplies();

const server = createServer({ noDelay: true }, (req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (d: Buffer) => parts.push(d));
  req.on('end', () => {
    const r = replyTo(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
    if (!r) {
      res.writeHead(404, { 'Content-Length': 0 }).end();
      return;
    }
    res.writeHead(r.status, { 'Content-Type': r.type, 'Content-Length': r.body.length }).end(r.body);
  });
});
// zecrpc's keep-alive wait (-rpcservertimeout's default), so both heads are the same size.
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`PORT ${(server.address() as { port: number }).port}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
