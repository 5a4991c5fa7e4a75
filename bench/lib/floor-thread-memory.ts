/**
 * The memory the render floor's event loop and its render threads share (floor-thread.ts,
 * floor-thread-worker.ts): job slots, each an input slot for a request's body and an output slot
 * for its reply, and per thread a queue of slot indices. A job is handed over and handed back
 * with Atomics alone, no message and no copy beyond the body's into its slot: the cheapest
 * hand-off a thread design can have, so what a floor on a thread reaches bounds them all.
 *
 * Control words (Int32): per slot its state, the plan index, the body's length and the reply's
 * (or an error text's) length; per thread the queue's head (taken by the thread), its tail
 * (added by the event loop) and a ring of `slots` slot indices.
 */

/** A slot's states. QUEUED → DONE or FAILED is the thread's step; every other the event loop's. */
export const FREE = 0;
export const QUEUED = 1;
export const DONE = 2;
export const FAILED = 3;

const SLOT_WORDS = 4;
const [STATE, PLAN, BODY_LENGTH, REPLY_LENGTH] = [0, 1, 2, 3];
const HEAD = 0;
const TAIL = 1;

export interface FloorThreadLayout {
  slots: number;
  threads: number;
  /** Each input slot's size: the largest body a thread is handed. */
  inputBytes: number;
  /** Each output slot's size: the largest reply a thread writes. */
  outputBytes: number;
}

/** The shared buffers: made by the event loop, passed to each thread once at its start. */
export interface FloorThreadBuffers {
  control: SharedArrayBuffer;
  input: SharedArrayBuffer;
  output: SharedArrayBuffer;
}

/** Atomics.waitAsync (Node 20, not in the ES2022 library the project compiles against). */
type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
) => { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

export class FloorThreadMemory {
  readonly control: Int32Array;

  constructor(
    readonly layout: FloorThreadLayout,
    readonly buffers: FloorThreadBuffers = {
      control: new SharedArrayBuffer(4 * (layout.slots * SLOT_WORDS + layout.threads * (2 + layout.slots))),
      input: new SharedArrayBuffer(layout.slots * layout.inputBytes),
      output: new SharedArrayBuffer(layout.slots * layout.outputBytes),
    },
  ) {
    this.control = new Int32Array(buffers.control);
  }

  private queue(thread: number): number {
    return this.layout.slots * SLOT_WORDS + thread * (2 + this.layout.slots);
  }

  // The event loop's side.

  /** Copies `body` into `slot`'s input and queues the job (build plan `plan`) for `thread`. */
  post(slot: number, thread: number, plan: number, body: Uint8Array): void {
    const { slots, inputBytes } = this.layout;
    if (body.length > inputBytes) throw new Error(`a ${body.length}-byte body does not fit a ${inputBytes}-byte input slot`);
    new Uint8Array(this.buffers.input, slot * inputBytes, body.length).set(body);
    const s = slot * SLOT_WORDS;
    this.control[s + PLAN] = plan;
    this.control[s + BODY_LENGTH] = body.length;
    Atomics.store(this.control, s + STATE, QUEUED);
    const q = this.queue(thread);
    const tail = this.control[q + TAIL]!;
    this.control[q + 2 + (tail % slots)] = slot;
    Atomics.store(this.control, q + TAIL, tail + 1);
    Atomics.notify(this.control, q + TAIL, 1);
  }

  /** Jobs queued for `thread` and not yet finished by it. */
  outstanding(thread: number): number {
    const q = this.queue(thread);
    return this.control[q + TAIL]! - Atomics.load(this.control, q + HEAD);
  }

  /** Resolves once `slot`'s job is finished, with its state (DONE or FAILED). */
  async finished(slot: number): Promise<number> {
    const at = slot * SLOT_WORDS + STATE;
    const wait = waitAsync(this.control, at, QUEUED);
    if (wait.async) await wait.value;
    return Atomics.load(this.control, at);
  }

  /** The finished job's reply (DONE) or error text (FAILED), a view of its output slot. */
  result(slot: number): Buffer {
    return Buffer.from(this.buffers.output, slot * this.layout.outputBytes, this.control[slot * SLOT_WORDS + REPLY_LENGTH]);
  }

  free(slot: number): void {
    Atomics.store(this.control, slot * SLOT_WORDS + STATE, FREE);
  }

  // A thread's side.

  /** Blocks `thread` until a job is queued for it; the job's slot, plan and body (a view of its input slot). */
  nextJob(thread: number): { slot: number; plan: number; body: Buffer } {
    const q = this.queue(thread);
    const head = this.control[q + HEAD]!;
    while (Atomics.load(this.control, q + TAIL) === head) Atomics.wait(this.control, q + TAIL, head);
    const slot = this.control[q + 2 + (head % this.layout.slots)]!;
    const s = slot * SLOT_WORDS;
    const body = Buffer.from(this.buffers.input, slot * this.layout.inputBytes, this.control[s + BODY_LENGTH]);
    return { slot, plan: this.control[s + PLAN]!, body };
  }

  /** `slot`'s output slot, `length` bytes of it, for the reply. */
  output(slot: number, length: number): Buffer {
    if (length > this.layout.outputBytes)
      throw new Error(`a ${length}-byte reply does not fit a ${this.layout.outputBytes}-byte output slot`);
    return Buffer.from(this.buffers.output, slot * this.layout.outputBytes, length);
  }

  /** Ends `thread`'s current job: its result's length and state, the event loop woken, the queue moved on. */
  finish(thread: number, slot: number, state: typeof DONE | typeof FAILED, length: number): void {
    const s = slot * SLOT_WORDS;
    this.control[s + REPLY_LENGTH] = length;
    Atomics.store(this.control, s + STATE, state);
    Atomics.notify(this.control, s + STATE);
    const q = this.queue(thread);
    Atomics.store(this.control, q + HEAD, this.control[q + HEAD]! + 1);
  }
}
