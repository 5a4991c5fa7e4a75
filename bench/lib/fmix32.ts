/** MurmurHash3's 32-bit finaliser: a bijection that spreads consecutive inputs uniformly (the LevelDB benches' keys). */
export function fmix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
