/** A keep-alive HTTP/1.1 JSON-RPC client over one socket, for the stress runs: one request at a time. */
import { connect, type Socket } from 'node:net';
import { AUTH } from '../../stress/fixtures.js';

/**
 * One reply. Its body stays in the pieces it arrived in until `body` is read: joining an 8 MB
 * reply copies it into new memory, and a load generator doing that for every reply paused for
 * its own garbage collection often enough to show up in the latencies it measured.
 */
export class Reply {
  private joined: Buffer | null = null;

  constructor(
    readonly status: number,
    private readonly parts: Buffer[],
    readonly length: number,
  ) {}

  /** The whole body. */
  get body(): Buffer {
    if (this.joined === null) {
      this.joined = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
      this.parts.splice(0, this.parts.length, this.joined);
    }
    return this.joined;
  }

  /** Body bytes [start, end) as latin1 text, read from the pieces without joining them. */
  latin1(start: number, end = this.length): string {
    let text = '';
    let at = 0;
    for (const p of this.parts) {
      const from = Math.max(start - at, 0);
      const to = Math.min(end - at, p.length);
      if (from < to) text += p.toString('latin1', from, to);
      at += p.length;
      if (at >= end) break;
    }
    return text;
  }
}

export class KeepAliveClient {
  private sock: Socket | null = null;
  private chunks: Buffer[] = [];
  private received = 0;
  private pending: { resolve: (r: Reply) => void; reject: (e: Error) => void } | null = null;
  private needed = -1;
  private status = 0;
  private headLength = 0;
  /** The local port of the latest connection (kept after it closes: the server's log names it). */
  localPort: number | undefined;

  constructor(private readonly port: number) {}

  private open(): Socket {
    const s = connect(this.port, '127.0.0.1');
    s.setNoDelay(true);
    s.once('connect', () => (this.localPort = s.localPort));
    s.on('data', (d: Buffer) => {
      this.chunks.push(d);
      this.received += d.length;
      this.tryComplete();
    });
    const fail = (e: Error) => {
      this.sock = null;
      const p = this.pending;
      this.pending = null;
      this.chunks = [];
      this.received = 0;
      p?.reject(e);
    };
    s.on('error', fail);
    s.on('close', () => fail(new Error('connection closed')));
    this.sock = s;
    return s;
  }

  private tryComplete(): void {
    if (!this.pending) return;
    if (this.needed < 0) {
      const buf = Buffer.concat(this.chunks);
      this.chunks = [buf];
      const sep = buf.indexOf('\r\n\r\n');
      if (sep < 0) return;
      const head = buf.subarray(0, sep).toString('latin1');
      this.status = Number(head.slice(9, 12));
      const len = /\r\ncontent-length: *(\d+)/i.exec(head);
      if (!len) return;
      this.needed = sep + 4 + Number(len[1]);
      this.headLength = sep + 4;
    }
    if (this.received < this.needed) return;
    // Cut the received pieces into this reply's body and the start of the next reply.
    const body: Buffer[] = [];
    const rest: Buffer[] = [];
    let at = 0;
    for (const c of this.chunks) {
      const from = Math.max(this.headLength - at, 0);
      const to = Math.min(this.needed - at, c.length);
      if (from < to) body.push(c.subarray(from, to));
      if (to < c.length) rest.push(c.subarray(Math.max(to, 0)));
      at += c.length;
    }
    const reply = new Reply(this.status, body, this.needed - this.headLength);
    this.chunks = rest;
    this.received = rest.reduce((n, c) => n + c.length, 0);
    this.needed = -1;
    const p = this.pending;
    this.pending = null;
    p.resolve(reply);
  }

  request(json: string): Promise<Reply> {
    const s = this.sock ?? this.open();
    return new Promise<Reply>((resolve, reject) => {
      this.pending = { resolve, reject };
      s.write(`POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
    });
  }

  close(): void {
    this.sock?.destroy();
    this.sock = null;
  }
}
