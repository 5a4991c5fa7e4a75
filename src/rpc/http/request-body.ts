/**
 * Request bodies as libevent frames them: `Content-Length`, or `Transfer-Encoding: chunked`,
 * or none (an empty body), at most 32 MiB (zcashd's MAX_SIZE; exactly 32 MiB is accepted).
 * A body is either kept — every byte reserved on the process-wide body budget first, so the
 * bodies of all clients together stay bounded — or skipped without being stored (the request
 * was already answered from its headers).
 */
import type { MemoryBudget } from './memory-budget.js';
import type { SocketInput } from './socket-input.js';

/** zcashd's MAX_SIZE: the largest request body libevent accepts. */
export const MAX_BODY_SIZE = 0x02000000;

export type BodyFraming = { kind: 'length'; length: number } | { kind: 'chunked' };

export type BodyResult = { ok: true; body: Buffer; reserved: number } | { ok: false; status: 400 | 413 | null };

class BodyError extends Error {
  constructor(readonly status: 400 | 413 | null) {
    super(String(status));
  }
}

/** Reads framed bytes off a SocketInput: exact byte counts and CRLF-terminated lines. */
class FramedReader {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly input: SocketInput) {}

  private async fill(): Promise<void> {
    const c = await this.input.next();
    if (c === null) throw new BodyError(null);
    this.pending = this.pending.length === 0 ? c : Buffer.concat([this.pending, c]);
  }

  /** Hands `n` bytes to `sink` as they arrive. */
  async bytes(n: number, sink: ((b: Buffer) => void) | null): Promise<void> {
    while (n > 0) {
      if (this.pending.length === 0) await this.fill();
      const take = Math.min(n, this.pending.length);
      sink?.(this.pending.subarray(0, take));
      this.pending = this.pending.subarray(take);
      n -= take;
    }
  }

  /** One line without its line end; lines longer than `max` are a framing error. */
  async line(max: number): Promise<string> {
    for (;;) {
      const lf = this.pending.indexOf(10);
      if (lf >= 0) {
        const end = lf > 0 && this.pending[lf - 1] === 13 ? lf - 1 : lf;
        const s = this.pending.toString('latin1', 0, end);
        this.pending = this.pending.subarray(lf + 1);
        return s;
      }
      if (this.pending.length > max + 1) throw new BodyError(400); // room for the line's CR, its LF yet to come
      await this.fill();
    }
  }

  /** Returns unread bytes (the next pipelined request) to the input. */
  finish(): void {
    this.input.unshift(this.pending);
    this.pending = Buffer.alloc(0);
  }
}

/**
 * Reads one body. With `budget`, the body is kept and its bytes reserved (the caller releases
 * `reserved` when done); without, it is skipped. Fails with the status libevent would answer
 * (400 malformed chunking, 413 too large) or null when the client went away.
 */
export async function readBody(input: SocketInput, framing: BodyFraming, budget: MemoryBudget | null): Promise<BodyResult> {
  const reader = new FramedReader(input);
  const parts: Buffer[] = [];
  let reserved = 0;
  const keep = budget ? (b: Buffer) => void parts.push(Buffer.from(b)) : null;
  const reserve = async (n: number) => {
    if (!budget || n === 0) return;
    if (!(await budget.reserve(n))) throw new BodyError(413);
    reserved += n;
  };
  try {
    if (framing.kind === 'length') {
      await reserve(framing.length);
      // Known length: received bytes are copied once, into the body's own buffer.
      const body = budget ? Buffer.allocUnsafeSlow(framing.length) : null;
      let at = 0;
      await reader.bytes(framing.length, body ? (b) => void (at += b.copy(body, at)) : null);
      reader.finish();
      return { ok: true, body: body ?? Buffer.alloc(0), reserved };
    } else {
      let total = 0;
      for (;;) {
        const sizeLine = await reader.line(1024);
        const m = /^([0-9A-Fa-f]+)(?:\s*;.*)?\s*$/.exec(sizeLine);
        if (!m) throw new BodyError(400);
        const size = parseInt(m[1]!, 16);
        if (size === 0) break;
        total += size;
        if (total > MAX_BODY_SIZE) throw new BodyError(413);
        await reserve(size);
        await reader.bytes(size, keep);
        if ((await reader.line(0)) !== '') throw new BodyError(400);
      }
      // Trailer fields, up to the empty line.
      for (let n = 0; (await reader.line(8192)) !== ''; n++) if (n > 100) throw new BodyError(400);
    }
    reader.finish();
    return { ok: true, body: parts.length === 1 ? parts[0]! : Buffer.concat(parts), reserved };
  } catch (e) {
    if (reserved > 0) budget!.release(reserved);
    if (e instanceof BodyError) return { ok: false, status: e.status };
    throw e;
  }
}
