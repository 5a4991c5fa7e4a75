/**
 * Where two reply bodies first differ, byte for byte, with a little text around that offset from
 * each side: the one place to look when a structural diff says nothing (trailing newline,
 * whitespace, escaping) or says too much (everything after an inserted member shifts).
 */

export interface FirstDifference {
  /** Offset of the first differing byte (= the shorter length when one body is a prefix). */
  offset: number;
  referenceLength: number;
  targetLength: number;
  /** Up to `window` bytes before and after the offset, as printable text (non-ASCII escaped). */
  referenceExcerpt: string;
  targetExcerpt: string;
}

/** Offset of the first byte at which `a` and `b` differ; -1 when they are identical. */
export function firstDifferingByte(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  // Multi-megabyte replies are common: narrow the range with native compares, then scan bytes.
  let i = 0;
  if (n >= 8) {
    const da = Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    const db = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    if (da.compare(db, 0, n, 0, n) === 0) return a.length === b.length ? -1 : n;
    let lo = 0;
    let hi = n;
    while (hi - lo > 64) {
      const mid = (lo + hi) >>> 1;
      if (da.compare(db, lo, mid, lo, mid) === 0) lo = mid;
      else hi = mid;
    }
    i = lo;
  }
  for (; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

function excerpt(bytes: Uint8Array, offset: number, window: number): string {
  const start = Math.max(0, offset - window);
  const end = Math.min(bytes.length, offset + window);
  let s = start > 0 ? '…' : '';
  for (let i = start; i < end; i++) {
    const c = bytes[i]!;
    if (i === offset) s += '⟦';
    s += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : c === 0x0a ? '\\n' : `\\x${c.toString(16).padStart(2, '0')}`;
    if (i === offset) s += '⟧';
  }
  if (offset >= bytes.length) s += '⟦end⟧';
  if (end < bytes.length) s += '…';
  return s;
}

/** The first difference of two bodies, or null when they are byte-identical. */
export function locateFirstDifference(reference: Uint8Array, target: Uint8Array, window = 24): FirstDifference | null {
  const offset = firstDifferingByte(reference, target);
  if (offset < 0) return null;
  return {
    offset,
    referenceLength: reference.length,
    targetLength: target.length,
    referenceExcerpt: excerpt(reference, offset, window),
    targetExcerpt: excerpt(target, offset, window),
  };
}
