/** A keep-alive HTTP/1.1 JSON-RPC client over one socket, for the stress runs: one request at a time. */
import { connect, type Socket } from 'node:net';
import { AUTH } from '../../stress/fixtures.js';

export interface Reply {
  status: number;
  body: Buffer;
}

export class KeepAliveClient {
  private sock: Socket | null = null;
  private chunks: Buffer[] = [];
  private received = 0;
  private pending: { resolve: (r: Reply) => void; reject: (e: Error) => void } | null = null;

  constructor(private readonly port: number) {}

  private open(): Socket {
    const s = connect(this.port, '127.0.0.1');
    s.setNoDelay(true);
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

  private needed = -1;
  private status = 0;

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
    const buf = Buffer.concat(this.chunks);
    const body = buf.subarray(this.headLength, this.needed);
    const rest = buf.subarray(this.needed);
    this.chunks = rest.length ? [rest] : [];
    this.received = rest.length;
    this.needed = -1;
    const p = this.pending;
    this.pending = null;
    p.resolve({ status: this.status, body });
  }

  private headLength = 0;

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
