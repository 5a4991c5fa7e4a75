/**
 * zcashd hands some parts of a transaction to Rust parsers and re-throws their failures as
 * `ios_base::failure("<prefix>: <rust error>")`. This reproduces that wrapping: a C++ stream
 * error raised inside (end of data) keeps its own suffix and gains a second one.
 */
import type { ByteReader } from '../bytes.js';
import { DecodeError, type DecodeReason, IOS_SUFFIX, InnerRustError } from '../errors.js';

/**
 * Runs `parse(r)`, rewrapping its errors as zcashd does. `parse` is taken with its reader rather
 * than as a closure: a closure made per call starts in V8's lazy-compile stub on every call.
 */
export function inRustSection<T>(prefix: string, sectionReason: DecodeReason, r: ByteReader, parse: (r: ByteReader) => T): T {
  try {
    return parse(r);
  } catch (e) {
    if (e instanceof InnerRustError) {
      // Field checks are reported under the section's reason; CompactSize problems keep theirs.
      const reason = e.reason.startsWith('invalid-') ? sectionReason : e.reason;
      throw new DecodeError(reason, e.offset, `${prefix}: ${e.inner}${IOS_SUFFIX}`);
    }
    if (e instanceof DecodeError) {
      throw new DecodeError(e.reason, e.offset, `${prefix}: ${e.what}${IOS_SUFFIX}`);
    }
    throw e;
  }
}

/** Fails a Rust-side field check with its inner message. */
export function rustCheck(ok: boolean, reason: DecodeReason, offset: number, inner: string): void {
  if (!ok) throw new InnerRustError(reason, offset, inner);
}

/**
 * Reads a 32-byte field and applies its Rust-side validity check (`inRustSection` reports a
 * failure under the section's own reason).
 */
export function checked32(r: ByteReader, check: (b: Uint8Array) => boolean, inner: string): Uint8Array {
  const at = r.pos;
  const b = r.bytes(32);
  rustCheck(check(b), 'invalid-field', at, inner);
  return b;
}
