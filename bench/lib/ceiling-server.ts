/**
 * The ceiling: a plain node:net server (its own process, started by child-server.ts) that answers
 * each request with the complete reply zecrpc gave to the same request body, captured beforehand:
 * the same head, the same body bytes, the same framing, written as one Buffer. Parsing is the
 * least a server must do (find the head's end, read Content-Length, wait for the body, find the
 * recorded body equal to it, byte for byte), so the ratio zecrpc ÷ ceiling is zecrpc's own work
 * over what any server on this machine pays to move those bytes.
 *
 * REPLIES: path of a JSON file [{ "body": request body, "reply": base64 of the reply bytes }].
 */
import { readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';

interface Recorded {
  body: string;
  reply: string;
}

interface Replay {
  body: Buffer;
  bytes: Buffer;
  close: boolean;
}

/**
 * Recorded replies by their request body's length; a request is matched by comparing bytes, so
 * that a large request (a 200 kB raw transaction) is never made into a string, which zecrpc
 * must do (it parses the JSON) but a server replaying bytes need not.
 */
const replies = new Map<number, Replay[]>();
for (const r of JSON.parse(readFileSync(process.env.REPLIES!, 'utf8')) as Recorded[]) {
  const bytes = Buffer.from(r.reply, 'base64');
  const head = bytes.toString('latin1', 0, bytes.indexOf('\r\n\r\n'));
  const body = Buffer.from(r.body, 'utf8');
  const sameLength = replies.get(body.length) ?? [];
  sameLength.push({ body, bytes, close: /\r\nconnection: *close/i.test(head) });
  replies.set(body.length, sameLength);
}
const NOT_RECORDED = Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n', 'latin1');
const CRLFCRLF = Buffer.from('\r\n\r\n', 'latin1');

function replayOf(body: Buffer): Replay | undefined {
  return replies.get(body.length)?.find((r) => r.body.equals(body));
}

function serve(sock: Socket): void {
  sock.setNoDelay(true);
  // What has arrived and not been answered, joined only to find a head or once a request is whole.
  let chunks: Buffer[] = [];
  let received = 0;
  let needed = -1;
  let headEnd = 0;
  const joined = (): Buffer => {
    if (chunks.length > 1) chunks = [Buffer.concat(chunks, received)];
    return chunks[0]!;
  };
  sock.on('data', (d: Buffer) => {
    chunks.push(d);
    received += d.length;
    while (received > 0) {
      if (needed < 0) {
        const pending = joined();
        const sep = pending.indexOf(CRLFCRLF);
        if (sep < 0) return;
        const len = /\r\ncontent-length: *(\d+)/i.exec(pending.toString('latin1', 0, sep));
        headEnd = sep + 4;
        needed = headEnd + (len ? Number(len[1]) : 0);
      }
      if (received < needed) return;
      const pending = joined();
      const r = replayOf(pending.subarray(headEnd, needed));
      const rest = pending.subarray(needed);
      chunks = rest.length > 0 ? [rest] : [];
      received = rest.length;
      needed = -1;
      if (!r) sock.write(NOT_RECORDED);
      else {
        sock.write(r.bytes);
        if (r.close) return void sock.end();
      }
    }
  });
  sock.on('error', () => sock.destroy());
}

const server = createServer(serve);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`PORT ${(server.address() as { port: number }).port}\n`);
});
process.once('SIGTERM', () => process.exit(0));
