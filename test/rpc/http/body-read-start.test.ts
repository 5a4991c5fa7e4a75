// A body read starts reading its stream at once (body.ts `BodyRead.run`): chunks Node's parser
// pushes in the same read as the request's head go straight to the reader, instead of filling the
// request stream past its mark, which would stop the socket's reads until a later tick started them
// again (two system calls per request). The body read is the same either way.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readBudgetedBodyThen, type ReadBody } from '../../../src/rpc/http/body.js';
import { MemoryBudget } from '../../../src/rpc/http/memory-budget.js';

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

/** Serves one request whose body is read by readBudgetedBodyThen; resolves with its body and the server socket's pauses. */
async function readOneBody(body: Buffer, declared: boolean): Promise<{ body: Buffer; pauses: number }> {
  let pauses = 0;
  let read: ReadBody | null = null;
  const done = new Promise<void>((resolve, reject) => {
    server = createServer((req: IncomingMessage, res) => {
      const socket = req.socket;
      const pause = socket.pause.bind(socket);
      socket.pause = () => {
        pauses++;
        return pause();
      };
      readBudgetedBodyThen(req, declared ? body.length : null, new MemoryBudget(1 << 20), undefined, (error, r) => {
        if (error) return reject(error);
        read = r;
        res.end('ok');
        resolve();
      });
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server!.address() as { port: number }).port;
  const client: Socket = connect(port, '127.0.0.1');
  const framing = declared ? `Content-Length: ${body.length}` : 'Transfer-Encoding: chunked';
  const payload = declared ? body : Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
  // Head and body in one write: the server's first read holds the head and far more body than a stream's mark.
  client.write(Buffer.concat([Buffer.from(`POST / HTTP/1.1\r\nHost: x\r\n${framing}\r\n\r\n`, 'latin1'), payload]));
  await done;
  client.destroy();
  return { body: read!.body, pauses };
}

describe('a body read', () => {
  const body = Buffer.from('{"id":1,"method":"m","params":["' + 'ab'.repeat(20_000) + '"]}', 'latin1');

  for (const declared of [true, false]) {
    it(`takes the chunks that came with the head without pausing the socket (${declared ? 'declared length' : 'chunked'})`, async () => {
      const r = await readOneBody(body, declared);
      expect(r.body.equals(body)).toBe(true);
      expect(r.pauses).toBe(0);
    });
  }
});
