/**
 * One HTTP/1.1 exchange seen as bytes: what the benches send (the request autocannon sends) and
 * the whole reply a server writes, head included, which the ceiling server replays verbatim.
 */
import { connect } from 'node:net';

export const BENCH_USER = 'bench';
export const BENCH_PASSWORD = 'bench';

/** The headers every bench request carries (autocannon adds Host and Content-Length). */
export const BENCH_HEADERS: Readonly<Record<string, string>> = {
  authorization: 'Basic ' + Buffer.from(`${BENCH_USER}:${BENCH_PASSWORD}`).toString('base64'),
  'content-type': 'text/plain',
};

export function requestBytes(port: number, body: string): Buffer {
  const head = [
    `POST / HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    ...Object.entries(BENCH_HEADERS).map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
  ];
  return Buffer.concat([Buffer.from(head.join('\r\n') + '\r\n\r\n', 'latin1'), Buffer.from(body, 'utf8')]);
}

export interface CapturedReply {
  /** Head and body exactly as received. */
  bytes: Buffer;
  status: number;
  headLength: number;
  /** Wall time from connecting to the last byte, ms. */
  ms: number;
}

/** Sends `body` on a fresh connection and returns the complete reply (Content-Length framed). */
export function captureReply(port: number, body: string): Promise<CapturedReply> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const sock = connect(port, '127.0.0.1');
    sock.setNoDelay(true);
    const chunks: Buffer[] = [];
    let received = 0;
    let needed = -1;
    let headLength = 0;
    sock.on('data', (d: Buffer) => {
      chunks.push(d);
      received += d.length;
      if (needed < 0) {
        const buf = Buffer.concat(chunks);
        chunks.splice(0, chunks.length, buf);
        const sep = buf.indexOf('\r\n\r\n');
        if (sep < 0) return;
        const len = /\r\ncontent-length: *(\d+)/i.exec(buf.toString('latin1', 0, sep));
        if (!len) return fail(new Error('reply without Content-Length'));
        headLength = sep + 4;
        needed = headLength + Number(len[1]);
      }
      if (received < needed) return;
      const bytes = Buffer.concat(chunks).subarray(0, needed);
      const ms = performance.now() - t0;
      sock.destroy();
      done({ bytes, status: Number(bytes.toString('latin1', 9, 12)), headLength, ms });
    });
    sock.on('error', fail);
    sock.on('close', () => {
      if (needed < 0 || received < needed) fail(new Error(`connection closed after ${received} bytes of the reply`));
    });
    sock.write(requestBytes(port, body));
  });
}

/** The reply's body, and its head with the Date line removed (the only part that changes between two replies). */
export function replyParts(r: CapturedReply): { head: string; body: Buffer } {
  const head = r.bytes
    .toString('latin1', 0, r.headLength)
    .split('\r\n')
    .filter((l) => !/^date:/i.test(l))
    .join('\r\n');
  return { head, body: r.bytes.subarray(r.headLength) };
}
