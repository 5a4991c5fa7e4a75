/**
 * A bounded memo of point-check verdicts keyed by a 32-byte encoding, for the curve checks the
 * decoder makes (./curves.ts). It is looked up for every Sapling and Orchard point of every
 * transaction decoded, so a lookup makes no object: the key's eight words are read from the
 * bytes in place and kept in one Int32Array, open-addressed, rather than turned into a string
 * for a Map (a Buffer view and a 32-character string a lookup).
 *
 * Bounded: `limit` verdicts at most, cleared wholesale when full (no LRU bookkeeping on the hot
 * path), 36 bytes a slot. Keys are chosen by whoever sends a transaction, so probing is
 * bounded too: a key whose probe window is full takes the last slot of it, and a lookup never
 * looks at more than PROBES slots. Crafted collisions can only make verdicts be computed again.
 */

/** Slots examined for a key before its verdict is computed (and stored over the window's last). */
const PROBES = 8;
const WORDS = 8;

export class PointVerdicts {
  /** Eight words a slot, the key's bytes as little-endian int32s. */
  private keys: Int32Array | null = null;
  /** 0: empty slot; 1: the check failed; 2: it passed. */
  private verdicts: Uint8Array | null = null;
  private used = 0;
  private readonly mask: number;

  /**
   * @param slots a power of two, at least 2 × `limit`, so that probe windows stay short.
   * @param limit verdicts kept before the memo is cleared.
   */
  constructor(
    slots: number,
    private readonly limit: number,
  ) {
    if (!Number.isInteger(slots) || slots < 2 || (slots & (slots - 1)) !== 0)
      throw new RangeError(`PointVerdicts: ${slots} slots is not a power of two`);
    if (!(limit >= 1 && 2 * limit <= slots)) throw new RangeError(`PointVerdicts: a limit of ${limit} needs at least twice as many slots`);
    this.mask = slots - 1;
  }

  /** Verdicts held (for tests). */
  get size(): number {
    return this.used;
  }

  /** `check(b)` for the 32 bytes `b[0, 32)`, memoized. */
  verdict(b: Uint8Array, check: (b: Uint8Array) => boolean): boolean {
    if (b.length < 32) return check(b);
    let keys = this.keys;
    let verdicts = this.verdicts;
    if (keys === null || verdicts === null) {
      keys = this.keys = new Int32Array((this.mask + 1) * WORDS);
      verdicts = this.verdicts = new Uint8Array(this.mask + 1);
    }
    const w0 = word(b, 0);
    const w1 = word(b, 4);
    const w2 = word(b, 8);
    const w3 = word(b, 12);
    const w4 = word(b, 16);
    const w5 = word(b, 20);
    const w6 = word(b, 24);
    const w7 = word(b, 28);
    let h = Math.imul(w0 ^ Math.imul(w1, 0x85ebca6b) ^ Math.imul(w2, 0xc2b2ae35) ^ Math.imul(w3, 0x27d4eb2f), 0x9e3779b1);
    h ^= Math.imul(w4 ^ Math.imul(w5, 0x165667b1) ^ Math.imul(w6, 0x85ebca77) ^ Math.imul(w7, 0xc2b2ae3d), 0x27d4eb2f);
    h ^= h >>> 15;
    let slot = 0;
    for (let i = 0; i < PROBES; i++) {
      slot = (h + i) & this.mask;
      const v = verdicts[slot]!;
      if (v === 0) break;
      const k = slot * WORDS;
      if (
        keys[k] === w0 &&
        keys[k + 1] === w1 &&
        keys[k + 2] === w2 &&
        keys[k + 3] === w3 &&
        keys[k + 4] === w4 &&
        keys[k + 5] === w5 &&
        keys[k + 6] === w6 &&
        keys[k + 7] === w7
      )
        return v === 2;
    }
    const ok = check(b);
    if (verdicts[slot] === 0) {
      if (this.used >= this.limit) {
        this.clear();
        slot = h & this.mask;
      }
      this.used++;
    }
    const k = slot * WORDS;
    keys[k] = w0;
    keys[k + 1] = w1;
    keys[k + 2] = w2;
    keys[k + 3] = w3;
    keys[k + 4] = w4;
    keys[k + 5] = w5;
    keys[k + 6] = w6;
    keys[k + 7] = w7;
    verdicts[slot] = ok ? 2 : 1;
    return ok;
  }

  /** Forgets every verdict (its memory is kept). */
  clear(): void {
    this.verdicts?.fill(0);
    this.used = 0;
  }
}

function word(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24);
}
