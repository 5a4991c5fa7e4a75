/**
 * Output memory reused from one reply to the next for replies that fit in it, whose result is
 * then copied out at its exact size. A fresh buffer sized for the worst case each time is a new
 * ArrayBuffer outside V8's pooled small allocations, which costs more than the copy, and its
 * external memory makes the collector run more often.
 */
import { Buffer } from 'node:buffer';
import { JsonWriter } from '../json/writer.js';

const SCRATCH_BYTES = 1 << 20;
let scratch: Buffer | null = null;

/**
 * Runs `write` on a byte JsonWriter and returns the text: in the shared scratch memory when
 * `estimate` (bytes the caller expects at most, usually) fits it, else in memory of `estimate`.
 */
export function renderToBytes(estimate: number, write: (w: JsonWriter) => void): Buffer {
  const memory = estimate <= SCRATCH_BYTES ? (scratch ?? Buffer.allocUnsafe(SCRATCH_BYTES)) : null;
  // Taken while in use, so that a render inside this one could never write into it too.
  scratch = null;
  try {
    const w = new JsonWriter(memory ?? estimate);
    write(w);
    const out = w.toBuffer();
    // Exactly the reply's bytes, so that whoever keeps it (a cache) keeps no slack.
    return out.buffer === memory?.buffer || out.buffer.byteLength > 1.5 * out.length ? Buffer.from(out) : out;
  } finally {
    if (memory !== null) scratch = memory;
  }
}
