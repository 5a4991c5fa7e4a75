/** xorshift32 from `seed`: a deterministic stream of 32-bit states (as signed integers). */
function xorshift32(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state;
  };
}

/**
 * A deterministic stream of bytes (xorshift32, its low byte): the benches vary copies of real
 * transactions with it, the same bytes on every run.
 */
export function byteStream(seed = 0x2545f491): () => number {
  const next = xorshift32(seed);
  return () => next() & 0xff;
}

/** A deterministic stream of numbers in [0, 1) (xorshift32's state over 2^32), the same on every run. */
export function uniformStream(seed = 0x2545f491): () => number {
  const next = xorshift32(seed);
  return () => (next() >>> 0) / 2 ** 32;
}
