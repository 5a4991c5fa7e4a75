/**
 * One client connection, served the way zcashd's libevent server does (rpc-http-json.md §1):
 * one request at a time (zcashd stops reading while a request is processed, so pipelined
 * requests run in order), keep-alive per the request's version and `Connection` header, and
 * `-rpcservertimeout` for a request to arrive and for its reply to be taken.
 *
 * Where zecrpc answers earlier than zcashd, to protect itself: every decision that needs only
 * the request head — method, peer address, path, POST-only, credentials — is made before the
 * body is read, and a refused request's body is skipped without being stored. Only an
 * authenticated POST to `/` gets its body read (under the process-wide body budget) and enters
 * the work queue.
 */
import type { Socket } from 'node:net';
import { CONTINUE_REPLY, errorPage, keepsAlive, replyHead, type OwnHeader, type ReplyFraming } from './framing.js';
import { headerValue, parseRequestHead, type RequestHead } from './request-head.js';
import { MAX_BODY_SIZE, readBody, type BodyFraming } from './request-body.js';
import type { MemoryBudget } from './memory-budget.js';
import { SocketInput } from './socket-input.js';

/** Methods libevent passes to zcashd (everything else is 501 before any other check). */
const LIBEVENT_METHODS = new Set(['GET', 'POST', 'HEAD', 'PUT', 'DELETE']);

/** zcashd's penalty for wrong credentials (not for missing ones). */
export const WRONG_CREDENTIALS_DELAY_MS = 250;

/** zcashd's answer when its work queue is full (httpserver.cpp). */
export const WORK_QUEUE_FULL: SimpleReply = { status: 500, body: 'Work queue depth exceeded', own: 'none' };

export interface SimpleReply {
  status: number;
  body: string | Buffer[];
  own: OwnHeader;
}

/** What a connection needs from the server it belongs to. */
export interface ConnectionHost {
  readonly timeoutMs: number;
  /** True once shutdown has begun. */
  readonly closing: boolean;
  isAllowed(address: string | undefined): boolean;
  /** null: no Authorization header; otherwise whether it grants access. */
  checkAuth(authorization: string | undefined): boolean | null;
  /** Body budget, for authenticated bodies. */
  readonly bodies: MemoryBudget;
  /** Runs an authenticated JSON-RPC body through the work queue. `done` is called once written. */
  execute(body: Buffer): Promise<{ reply: SimpleReply; done: () => void }>;
  /**
   * Holds a work-queue slot for `ms`, as zcashd's worker thread sleeps on wrong credentials: the
   * penalty then limits how fast anyone can guess, not only each connection. False when the queue
   * is full (the request then gets zcashd's "Work queue depth exceeded").
   */
  penalize(ms: number): Promise<boolean>;
  logIncoming(head: RequestHead, remote: string | undefined): void;
  logRequest(head: RequestHead, status: number, started: number, remote: string | undefined): void;
}

/**
 * The reply bytes handed to the socket at once (one corked round; larger buffers are cut). A
 * client must take this much within `-rpcservertimeout` to keep its connection (9 kB/s at the
 * default 30 s).
 */
const WRITE_ROUND_BYTES = 256 * 1024;

/** The chunks with buffers longer than WRITE_ROUND_BYTES cut (views, not copies). Strings are heads, always small. */
function writePieces(chunks: readonly (string | Buffer)[]): (string | Buffer)[] {
  const pieces: (string | Buffer)[] = [];
  for (const c of chunks) {
    if (typeof c === 'string' || c.length <= WRITE_ROUND_BYTES) pieces.push(c);
    else for (let at = 0; at < c.length; at += WRITE_ROUND_BYTES) pieces.push(c.subarray(at, at + WRITE_ROUND_BYTES));
  }
  return pieces;
}

export type ConnectionState = 'idle' | 'reading' | 'busy' | 'closed';

export class Connection {
  state: ConnectionState = 'idle';
  private timer: NodeJS.Timeout | null = null;
  private expiry: NodeJS.Immediate | null = null;
  private readonly input: SocketInput;
  /** Resolves when the connection has closed. */
  readonly finished: Promise<void>;

  constructor(
    private readonly socket: Socket,
    private readonly host: ConnectionHost,
  ) {
    socket.setNoDelay(true);
    socket.on('error', () => socket.destroy());
    this.input = new SocketInput(socket);
    this.finished = new Promise<void>((resolve) =>
      socket.once('close', () => {
        this.state = 'closed';
        this.clearTimer();
        resolve();
      }),
    );
  }

  /** Closes the connection now (shutdown of an idle or half-sent connection, or the grace period ran out). */
  destroy(): void {
    this.socket.destroy();
  }

  /**
   * Closes the connection `ms` from now unless it progresses first. A timer can fall due while
   * the event loop was busy (rendering other replies) with this client's bytes already waiting
   * in the kernel; the close is confirmed only after the loop's I/O phase has delivered them
   * (setImmediate runs after it), as libevent delivers a ready read before a timeout.
   * `ms` 0 (`-rpcservertimeout=0`) arms nothing: libevent reads a zero timeout as none.
   */
  private arm(ms: number): void {
    this.clearTimer();
    if (ms <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.expiry = setImmediate(() => this.socket.destroy());
    }, ms);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.expiry) clearImmediate(this.expiry);
    this.timer = null;
    this.expiry = null;
  }

  async serve(): Promise<void> {
    try {
      while (this.state !== 'closed' && !this.socket.destroyed) {
        if (!(await this.serveOne())) break;
      }
    } finally {
      this.clearTimer();
      if (!this.socket.destroyed) {
        this.socket.end();
        // A client that never sends its own FIN must not keep the socket: libevent closes it whole.
        this.arm(this.host.timeoutMs);
      }
    }
  }

  /**
   * Writes bytes; resolves when they are handed to the kernel, or the client stopped taking them
   * for too long. Like libevent's write timeout, the deadline runs from the last progress, not
   * from the start of the reply: a client reading a large reply slowly but steadily keeps its
   * connection. Node reports progress only when its buffer empties ('drain'), so the reply goes
   * out in corked rounds of about WRITE_ROUND_BYTES, each once the previous one has left. A
   * round at least the socket's high-water mark always ends in 'drain'.
   */
  private write(chunks: readonly (string | Buffer)[]): Promise<void> {
    if (this.socket.destroyed) return Promise.resolve();
    const s = this.socket;
    const pieces = writePieces(chunks);
    if (pieces.length === 0) return Promise.resolve();
    const roundBytes = Math.max(WRITE_ROUND_BYTES, s.writableHighWaterMark);
    return new Promise<void>((resolve) => {
      let next = 0;
      const round = (): void => {
        s.cork();
        for (let bytes = 0; next < pieces.length && bytes < roundBytes;) {
          const piece = pieces[next++]!;
          bytes += piece.length;
          // The last piece's callback runs once it is handed over, or with an error if the socket is destroyed.
          if (next === pieces.length) s.write(piece, finish);
          else s.write(piece);
        }
        s.uncork();
      };
      const onDrain = () => {
        this.arm(this.host.timeoutMs);
        if (next < pieces.length) round();
      };
      const finish = () => {
        s.off('drain', onDrain);
        s.off('close', finish);
        this.clearTimer();
        resolve();
      };
      this.arm(this.host.timeoutMs);
      round();
      // Most replies fit one round, finished by the last piece's callback. A longer one waits
      // for 'drain' (emitted after this tick) and must also hear a close between its rounds.
      if (next < pieces.length) {
        s.on('drain', onDrain);
        s.once('close', finish);
      }
    });
  }

  private async fatal(status: number): Promise<false> {
    await this.write([errorPage(status)]);
    this.socket.end();
    return false;
  }

  /** Serves one request; false when the connection must close afterwards. */
  private async serveOne(): Promise<boolean> {
    this.state = 'idle';
    this.arm(this.host.timeoutMs);
    let buf: Buffer = Buffer.alloc(0);
    let head: RequestHead;
    for (;;) {
      if (buf.length > 0) {
        const parsed = parseRequestHead(buf);
        if (parsed.state === 'error') return this.fatal(parsed.status);
        if (parsed.state === 'done') {
          head = parsed.head;
          this.input.unshift(buf.subarray(parsed.consumed));
          break;
        }
      }
      const chunk = await this.input.next();
      if (chunk === null) return false;
      if (this.state === 'idle') {
        // The request's deadline runs from its first byte, however slowly the rest comes.
        this.state = 'reading';
        this.arm(this.host.timeoutMs);
        if (this.host.closing) return this.fatal(503);
      }
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    }
    const started = performance.now();
    const remote = this.socket.remoteAddress;
    this.host.logIncoming(head, remote);
    if (this.host.closing) return this.fatal(503);
    if (!LIBEVENT_METHODS.has(head.method)) return this.fatal(501);

    const te = headerValue(head, 'transfer-encoding');
    let framing: BodyFraming;
    // evhttp_get_body reads no body for HEAD, and looks at none of the body's headers.
    if (head.method === 'HEAD') framing = { kind: 'length', length: 0 };
    else if (te !== undefined && te.toLowerCase() === 'chunked') framing = { kind: 'chunked' };
    else {
      const cl = headerValue(head, 'content-length');
      // libevent's strtoll: leading spaces and a sign are read ("+34"; "-0" is 0); no negative length.
      if (cl !== undefined && (!/^[ \t\n\v\f\r]*[+-]?\d+$/.test(cl) || Number(cl) < 0)) return this.fatal(400);
      const length = cl === undefined ? 0 : Number(cl);
      if (length > MAX_BODY_SIZE) return this.fatal(413);
      framing = { kind: 'length', length };
    }
    // Expect is looked at only when a body is to be read: chunked, or a Content-Length above 0.
    const bodyComing = framing.kind === 'chunked' || framing.length > 0;
    const expect = head.minor === 1 && bodyComing ? headerValue(head, 'expect') : undefined;
    if (expect !== undefined && expect.toLowerCase() !== '100-continue') return this.fatal(417);

    // libevent compares the whole value with "close" and its start with "keep-alive", case aside.
    const connection = headerValue(head, 'connection') ?? '';
    const f: ReplyFraming = {
      minor: head.minor,
      wantsClose: /^close$/i.test(connection),
      wantsKeepAlive: /^keep-alive/i.test(connection),
      head: head.method === 'HEAD',
    };

    this.state = 'busy';
    const early = await this.answerFromHead(head, remote);
    if (early) {
      // A client told to wait for 100 Continue may send its body or not: the connection closes
      // after the reply, so a body that never comes cannot be mistaken for the next request.
      if (expect !== undefined) {
        await this.reply(early, { ...f, wantsClose: true });
        this.host.logRequest(head, early.status, started, remote);
        return false;
      }
      await this.reply(early, f);
      // The body of a refused request is skipped, never stored, to keep the connection in step,
      // under the same deadline as any read (the reply's write cleared the request's).
      this.state = 'reading';
      this.arm(this.host.timeoutMs);
      const skipped = await readBody(this.input, framing, null);
      this.host.logRequest(head, early.status, started, remote);
      // A reply has gone out already: a body that cannot be skipped ends the connection, with no
      // second reply (zcashd, which reads the body first, sends only the 400 or 413).
      if (!skipped.ok) return false;
      return keepsAlive(f) && !f.head && !this.host.closing;
    }

    this.state = 'reading';
    if (expect !== undefined && !this.input.hasBuffered) {
      await this.write([CONTINUE_REPLY]);
      this.arm(this.host.timeoutMs); // the body is awaited as long as a request, not forever
    }
    const body = await readBody(this.input, framing, this.host.bodies);
    if (!body.ok) return body.status === null ? false : this.fatal(body.status);
    this.state = 'busy';
    this.clearTimer();
    let outcome;
    try {
      outcome = await this.host.execute(body.body);
    } finally {
      this.host.bodies.release(body.reserved);
    }
    try {
      await this.reply(outcome.reply, f);
    } finally {
      outcome.done();
    }
    this.host.logRequest(head, outcome.reply.status, started, remote);
    return keepsAlive(f) && !f.head && !this.host.closing;
  }

  /** zcashd's checks that need no body (§1.2 steps 1–3, 5–7), or null for an authenticated POST /. */
  private async answerFromHead(head: RequestHead, remote: string | undefined): Promise<SimpleReply | null> {
    if (!this.host.isAllowed(remote)) return { status: 403, body: '', own: 'none' };
    if (head.method === 'DELETE') return { status: 405, body: '', own: 'none' };
    if (head.target !== '/') return { status: 404, body: '', own: 'none' };
    if (head.method !== 'POST') return { status: 405, body: 'JSONRPC server handles only POST requests', own: 'none' };
    const verdict = this.host.checkAuth(headerValue(head, 'authorization'));
    if (verdict === true) return null;
    if (verdict === false && !(await this.host.penalize(WRONG_CREDENTIALS_DELAY_MS))) return WORK_QUEUE_FULL;
    return { status: 401, body: '', own: 'www-authenticate' };
  }

  private reply(r: SimpleReply, f: ReplyFraming): Promise<void> {
    const chunks: (string | Buffer)[] = typeof r.body === 'string' ? [Buffer.from(r.body, 'utf8')] : r.body;
    let length = 0;
    for (const c of chunks) length += c.length;
    return this.write([replyHead(r.status, r.own, length, f), ...chunks.filter((c) => c.length > 0)]);
  }
}
