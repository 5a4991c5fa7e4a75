/**
 * The ceiling: a plain node:net server (its own process, started by child-server.ts) that answers
 * each request with the complete reply zecrpc gave to the same request body, captured beforehand:
 * the same head, the same body bytes, the same framing, written as one Buffer. Parsing is the
 * least a server must do (find the head's end, read Content-Length, wait for the body), so the
 * ratio zecrpc ÷ ceiling is zecrpc's own work over what any server on this machine pays to move
 * those bytes.
 *
 * REPLIES: path of a JSON file [{ "body": request body, "reply": base64 of the reply bytes }].
 */
import { readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';

interface Recorded {
  body: string;
  reply: string;
}

const replies = new Map<string, { bytes: Buffer; close: boolean }>();
for (const r of JSON.parse(readFileSync(process.env.REPLIES!, 'utf8')) as Recorded[]) {
  const bytes = Buffer.from(r.reply, 'base64');
  const head = bytes.toString('latin1', 0, bytes.indexOf('\r\n\r\n'));
  replies.set(r.body, { bytes, close: /\r\nconnection: *close/i.test(head) });
}
const NOT_RECORDED = Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n', 'latin1');
const CRLFCRLF = Buffer.from('\r\n\r\n', 'latin1');

function serve(sock: Socket): void {
  sock.setNoDelay(true);
  let pending: Buffer = Buffer.alloc(0);
  sock.on('data', (d: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, d]) : d;
    for (;;) {
      const sep = pending.indexOf(CRLFCRLF);
      if (sep < 0) return;
      const len = /\r\ncontent-length: *(\d+)/i.exec(pending.toString('latin1', 0, sep));
      const end = sep + 4 + (len ? Number(len[1]) : 0);
      if (pending.length < end) return;
      const r = replies.get(pending.toString('utf8', sep + 4, end));
      pending = pending.subarray(end);
      if (!r) {
        sock.write(NOT_RECORDED);
        continue;
      }
      sock.write(r.bytes);
      if (r.close) return void sock.end();
    }
  });
  sock.on('error', () => sock.destroy());
}

const server = createServer(serve);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`PORT ${(server.address() as { port: number }).port}\n`);
});
process.once('SIGTERM', () => process.exit(0));
