/**
 * What one load-generator process (bench/lib/timed-client-process.ts, started by
 * bench/lib/load-generator.ts) does with each job it receives: it keeps `connections` keep-alive
 * HTTP/1.1 connections to the port busy, one request in flight on each, until `amount` requests
 * have been answered, and returns every request's latency in nanoseconds (`process.hrtime.bigint()`, from writing the request to
 * reading its reply's last byte), the failures, and when the first request left and the last
 * reply arrived (CLOCK_MONOTONIC, comparable between processes on one machine).
 *
 * A reply counts as a failure when its status is not 2xx or its size (head included) is off the
 * expected size by more than 0.5 % (every reply of a job is the same reply; only its Date line
 * could change, and it keeps its length), or when the connection closes or errs before it ends.
 */
import { connect, type Socket } from 'node:net';

export interface LoadJob {
  port: number;
  /** The whole request, head and body, written as is for every request. */
  request: Uint8Array;
  connections: number;
  amount: number;
  replyBytes: number;
}

export interface LoadJobResult {
  latenciesNs: Float64Array;
  failures: number;
  firstSentNs: bigint;
  lastReceivedNs: bigint;
}

const CRLFCRLF = Buffer.from('\r\n\r\n', 'latin1');
/** Larger than any head a bench's server writes: a reply without its head's end within this is a failure, not a wait. */
const MAX_HEAD_BYTES = 16 * 1024;

/** How long a reply may take before it counts as a failure and its connection is dropped (autocannon's default is 10 s). */
const REPLY_TIMEOUT_MS = 30_000;

type Outcome = { status: number; bytes: number } | Error;

/** One connection; `exchange` writes the request and resolves with the whole reply's status and size, or an Error. */
class KeepAliveConnection {
  private socket: Socket | null = null;
  private head: Buffer = Buffer.alloc(0);
  private needed = -1;
  private received = 0;
  private status = 0;
  private closeAfter = false;
  private timer: NodeJS.Timeout | null = null;
  private settle: ((r: Outcome) => void) | null = null;

  constructor(private readonly port: number) {}

  exchange(request: Uint8Array): Promise<Outcome> {
    return new Promise((resolve) => {
      this.settle = resolve;
      this.head = Buffer.alloc(0);
      this.needed = -1;
      this.received = 0;
      this.closeAfter = false;
      this.timer = setTimeout(() => this.finish(new Error(`no reply within ${REPLY_TIMEOUT_MS} ms`)), REPLY_TIMEOUT_MS);
      (this.socket ?? this.open()).write(request);
    });
  }

  close(): void {
    const s = this.socket;
    this.socket = null;
    s?.destroy();
  }

  private open(): Socket {
    const s = connect(this.port, '127.0.0.1');
    s.setNoDelay(true);
    // Events of a socket this connection has already dropped are not about the exchange in flight.
    s.on('data', (d: Buffer) => {
      if (this.socket === s) this.onData(d);
    });
    const fail = (e?: Error): void => {
      if (this.socket === s) this.finish(e ?? new Error('connection closed before the reply ended'));
    };
    s.on('error', fail);
    s.on('close', () => fail());
    this.socket = s;
    return s;
  }

  private onData(d: Buffer): void {
    this.received += d.length;
    if (this.needed < 0) {
      this.head = this.head.length ? Buffer.concat([this.head, d]) : d;
      const sep = this.head.indexOf(CRLFCRLF);
      if (sep < 0) {
        if (this.head.length > MAX_HEAD_BYTES) this.finish(new Error('no end of head'));
        return;
      }
      const head = this.head.toString('latin1', 0, sep);
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      if (!length) return this.finish(new Error('reply without Content-Length'));
      this.status = Number(head.slice(9, 12));
      this.needed = sep + 4 + Number(length[1]);
      this.closeAfter = /\r\nconnection: *close/i.test(head);
      this.head = Buffer.alloc(0);
    }
    if (this.received >= this.needed) this.finish({ status: this.status, bytes: this.needed });
  }

  private finish(r: Outcome): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // After an error or a `Connection: close` reply, the next request opens a new connection.
    if (r instanceof Error || this.closeAfter) this.close();
    const settle = this.settle;
    this.settle = null;
    settle?.(r);
  }
}

export async function runJob(job: LoadJob): Promise<LoadJobResult> {
  const latencies = new Float64Array(job.amount);
  let issued = 0;
  let answered = 0;
  let failures = 0;
  let lastReceived = 0n;
  const firstSent = process.hrtime.bigint();
  const loop = async (): Promise<void> => {
    const c = new KeepAliveConnection(job.port);
    try {
      while (issued < job.amount) {
        issued++;
        const t0 = process.hrtime.bigint();
        const r = await c.exchange(job.request);
        lastReceived = process.hrtime.bigint();
        latencies[answered++] = Number(lastReceived - t0);
        if (r instanceof Error || r.status < 200 || r.status > 299 || Math.abs(r.bytes - job.replyBytes) > 0.005 * job.replyBytes) {
          failures++;
        }
      }
    } finally {
      c.close();
    }
  };
  await Promise.all(Array.from({ length: job.connections }, loop));
  return { latenciesNs: latencies.slice(0, answered), failures, firstSentNs: firstSent, lastReceivedNs: lastReceived };
}
