/**
 * Request bodies as libevent frames them: `Content-Length`, or `Transfer-Encoding: chunked`,
 * or none (an empty body), at most 32 MiB (zcashd's MAX_SIZE; exactly 32 MiB is accepted).
 * A body is either kept — every byte reserved on the process-wide body budget first, so the
 * bodies of all clients together stay bounded — or skipped without being stored (the request
 * was already answered from its headers).
 */
import type { BoundedReadOptions } from '../../bounded-read.js';
import type { MemoryBudget } from './memory-budget.js';
import type { SocketInput } from './socket-input.js';

/** zcashd's MAX_SIZE: the largest request body libevent accepts. */
export const MAX_BODY_SIZE = 0x02000000;

/**
 * Text a command reads to send in one JSON-RPC request (`zecrpc-cli -stdin`), or to decode as
 * if sent in one (`decode-tx`/`decode-block` with `@file` or `-`): nothing longer could reach
 * zcashd, so reading stops there (`@/dev/zero` ends with an error, not out of memory).
 */
export const REQUEST_TEXT_LIMIT: BoundedReadOptions = { maxBytes: MAX_BODY_SIZE, why: 'the most a JSON-RPC request to zcashd can carry' };

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

/** A line of a chunked body; one longer than `max` is a malformed body (413, as libevent answers those). */
async function readLine(reader: FramedReader, max: number): Promise<string> {
  try {
    return await reader.line(max);
  } catch (e) {
    if (e instanceof BodyError) throw new BodyError(413);
    throw e;
  }
}

/**
 * A chunk size as libevent reads it, `strtoll(line, &end, 16)` with `*end` the line's end or a
 * space: leading white space, a sign and `0x` allowed; null for anything else or a negative size.
 */
function chunkSize(line: string): number | null {
  const m = /^[ \t\n\v\f\r]*([+-]?)(?:0[xX](?=[0-9a-fA-F]))?([0-9a-fA-F]+)(?: .*)?$/s.exec(line);
  if (!m) return null;
  const size = parseInt(m[2]!, 16);
  if (m[1] === '-' && size !== 0) return null;
  return size;
}

/**
 * Reads one body. With `budget`, the body is kept and its bytes reserved (the caller releases
 * `reserved` when done); without, it is skipped. Fails with the status libevent would answer
 * (413 for a body too large and for malformed chunking alike) or null when the client went away.
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
      // libevent's evhttp_handle_chunked_read: empty lines before a size line are skipped (so the
      // CRLF after a chunk's data may be missing), and every malformed chunk or trailer is
      // answered as one too long, 413.
      let total = 0;
      for (;;) {
        const sizeLine = await readLine(reader, 1024);
        if (sizeLine === '') continue;
        const size = chunkSize(sizeLine);
        if (size === null) throw new BodyError(413);
        if (size === 0) break;
        total += size;
        if (total > MAX_BODY_SIZE) throw new BodyError(413);
        await reserve(size);
        await reader.bytes(size, keep);
      }
      // Trailer fields, up to the empty line.
      for (let n = 0; (await readLine(reader, 8192)) !== ''; n++) if (n > 100) throw new BodyError(413);
    }
    reader.finish();
    return { ok: true, body: parts.length === 1 ? parts[0]! : Buffer.concat(parts), reserved };
  } catch (e) {
    if (reserved > 0) budget!.release(reserved);
    if (e instanceof BodyError) return { ok: false, status: e.status };
    throw e;
  }
}
