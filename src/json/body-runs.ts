/**
 * Values the size estimate (size-estimate.ts) found for runs of one request body, each kept with
 * the run's start, recorded in body order and asked for by the reader in body order: a run
 * equal to a string a cache holds (known-strings.ts), a run that decodes as hex (hex-runs.ts).
 * Most bodies hold one such run, kept in fields; only a body with several makes a list.
 */
export class RunsInBodyOrder<T> {
  /** The first run's start (-1: none yet) and value. */
  private firstStart = -1;
  private firstValue: T | undefined;
  /** The runs after the first: start, value, start, value, … */
  private later: (number | T)[] | null = null;
  /** The first run the reader may still ask for, counting the first as 0 (it asks in body order). */
  private next = 0;

  /** Records the run from `start` with its value; called in body order. */
  record(start: number, value: T): void {
    if (this.firstStart < 0) {
      this.firstStart = start;
      this.firstValue = value;
    } else (this.later ??= []).push(start, value);
  }

  private get count(): number {
    return this.firstStart < 0 ? 0 : 1 + (this.later === null ? 0 : this.later.length / 2);
  }

  private startAt(i: number): number {
    return i === 0 ? this.firstStart : (this.later![2 * (i - 1)] as number);
  }

  /** The value of the run recorded from `start`, or undefined when none starts there. `start`s asked must not decrease. */
  from(start: number): T | undefined {
    const count = this.count;
    while (this.next < count && this.startAt(this.next) < start) this.next++;
    if (this.next === count || this.startAt(this.next) !== start) return undefined;
    return this.next === 0 ? this.firstValue : (this.later![2 * this.next - 1] as T);
  }
}
