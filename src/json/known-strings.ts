/**
 * Long strings a request repeats byte for byte that the server already holds, checked: the hex a
 * decoderawtransaction cache keeps was decoded once, so every byte of it is a hex digit. A request
 * body whose string equals one of them needs none of the reader's checks of that string (ASCII,
 * no backslash, no control byte) nor the size estimate's (no `{`, `[`, `,` or `:`): each is a
 * scan of every byte, and a raw transaction's hex is hundreds of kilobytes, repeated whenever a
 * client asks again. Whether the string is one of them costs one comparison, and a string that is
 * not takes the ordinary path, with its errors.
 *
 * The estimate (size-estimate.ts parsedSizeEstimate) finds the matches, the reader (parseJson) reads
 * them: a request's KnownRuns carries them from one to the other, in body order. The reader puts
 * the held string itself in the parameter's slot, a plain element: it is the source's own, never
 * a view of the body, so nothing of it ends with the request (lazy-strings.ts), and the element
 * costs neither a copy nor the accessor a byte range needs (which turns the array's elements
 * into a dictionary). The source can tell its own string from another cheaply (decode-cache.ts).
 */
import { RunsInBodyOrder } from './body-runs.js';

/** Where long plain strings are held: a reply cache's keys. */
export interface PlainStringSource {
  /**
   * The string held whose bytes equal `bytes`, or undefined: a string of the source's own, the
   * same one each time. Every string a source answers with is plain: printable ASCII without
   * `"` or `\`.
   */
  plainStringEqualTo(bytes: Uint8Array): string | undefined;
  /**
   * The string held (as plainStringEqualTo answers) whose bytes are `bytes` from `start` to the
   * next `"`, among strings of at least `minLength` bytes; undefined when there is none, or when
   * the source holds too many lengths to try each. It tries the lengths it holds, so that a
   * caller need not search the whole run for its closing quote before comparing it.
   */
  plainStringFrom?(bytes: Uint8Array, start: number, minLength: number): string | undefined;
}

/**
 * Runs a body may try by its sources' lengths (matchFrom) and miss before it stops trying: each
 * try may cost a source a comparison or two, and a body can hold a quote at every byte (a body of
 * quotes would make a comparison at every one). A request's envelope misses about fifteen times
 * before its hex, so batches of a few hex keep the shortcut; past the limit the estimate searches
 * for each run's end as it does for any string, and the run is still found by `match`.
 */
const MAX_MISSED_TRIES = 128;

/**
 * One request body's runs between two quotes found equal to a held string, in body order. A run
 * is its start and the held string: the string is plain ASCII equal to the run's bytes, so its
 * length is the run's.
 */
export class KnownRuns {
  private readonly runs = new RunsInBodyOrder<string>();
  private missedTries = 0;

  constructor(private readonly sources: readonly PlainStringSource[]) {}

  /**
   * Whether body[start, end) equals a held string (recorded if so). Called in body order; the
   * bytes are compared once here, and the reader trusts the record.
   */
  match(body: Uint8Array, start: number, end: number): boolean {
    const run = body.subarray(start, end);
    for (const source of this.sources) {
      const held = source.plainStringEqualTo(run);
      if (held === undefined) continue;
      this.record(start, held);
      return true;
    }
    return false;
  }

  /**
   * Where the run from `start` to the next quote ends (that quote's index), recorded, when a
   * source finds it equal to a held string of at least `minLength` bytes from the lengths it
   * holds; -1 otherwise (the run may still be one: `match` after finding its end says), and
   * always -1 once the body has missed MAX_MISSED_TRIES times.
   */
  matchFrom(body: Uint8Array, start: number, minLength: number): number {
    if (this.missedTries >= MAX_MISSED_TRIES) return -1;
    for (const source of this.sources) {
      const held = source.plainStringFrom?.(body, start, minLength);
      if (held === undefined) continue;
      this.record(start, held);
      return start + held.length;
    }
    this.missedTries++;
    return -1;
  }

  private record(start: number, held: string): void {
    this.runs.record(start, held);
  }

  /**
   * The held string equal to the body's bytes from `start` up to the next quote (which is at
   * `start` + its length), when a run recorded starts there; undefined otherwise. `start`s asked
   * must not decrease.
   */
  from(start: number): string | undefined {
    return this.runs.from(start);
  }
}
