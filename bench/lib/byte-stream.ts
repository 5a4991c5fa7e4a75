/**
 * A deterministic stream of bytes (xorshift32, its low byte): the benches vary copies of real
 * transactions with it, the same bytes on every run.
 */
export function byteStream(seed = 0x2545f491): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state & 0xff;
  };
}
