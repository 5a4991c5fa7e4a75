/**
 * One request body's long strings that the size estimate (reader.ts parsedSizeEstimate) found to
 * be hex by decoding them (hex-wasm.ts wasmHexDecodeAhead), carried to the reader (parseJson) in
 * body order. Such a string needs none of the reader's checks (hex holds no quote, backslash,
 * control byte or non-ASCII byte) nor another search for its closing quote, and its view, the
 * one decoded, is what the reader leaves in the parameter's slot: the decoder, handed that view,
 * takes the bytes already decoded. A raw transaction's hex is the body's bulk, and each of those
 * checks was another pass over it.
 *
 * Most bodies hold one such string, kept in fields; only a body with several makes a list.
 */
import type { Buffer } from 'node:buffer';

export class HexRuns {
  /** The first run's start in the body (-1: none yet) and view. */
  private firstStart = -1;
  private firstText: Buffer | null = null;
  /** The runs after the first: start, view, start, view, … */
  private later: (number | Buffer)[] | null = null;
  /** The first run a reader may still ask for, counting the first as 0 (it asks in body order). */
  private next = 0;

  /** Records that body[start, start + text.length) is hex, `text` its view; called in body order. */
  record(start: number, text: Buffer): void {
    if (this.firstStart < 0) {
      this.firstStart = start;
      this.firstText = text;
    } else (this.later ??= []).push(start, text);
  }

  private get count(): number {
    return this.firstStart < 0 ? 0 : 1 + (this.later === null ? 0 : this.later.length / 2);
  }

  private startAt(i: number): number {
    return i === 0 ? this.firstStart : (this.later![2 * (i - 1)] as number);
  }

  /**
   * The view of the hex run recorded from `start` (its closing quote is at `start` + its length),
   * or undefined when none starts there. `start`s asked must not decrease.
   */
  from(start: number): Buffer | undefined {
    const count = this.count;
    while (this.next < count && this.startAt(this.next) < start) this.next++;
    if (this.next === count || this.startAt(this.next) !== start) return undefined;
    return this.next === 0 ? this.firstText! : (this.later![2 * this.next - 1] as Buffer);
  }
}
