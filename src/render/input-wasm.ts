/**
 * A run of a transaction's plain transparent inputs written as JSON in WebAssembly
 * (assembly/tx-inputs.ts): an input-heavy transaction spent most of its byte-output rendering
 * on its inputs, one JavaScript call per hash, number, push and fragment, where the module
 * writes a whole run per call, byte for byte what writeWireInput writes.
 *
 * The module is instantiated on first use, with fixed areas for the inputs' bytes and the JSON
 * (its memory never grows after that); longer runs go in chunks. Without the built module
 * `inputRunWriter()` is null and every input is written in JavaScript, with the same output.
 */
import { Buffer } from 'node:buffer';
import { instantiateWasm, requireWasmFunctions } from '../wasm-module.js';

interface InputExports {
  memory: WebAssembly.Memory;
  inputPointer(): number;
  outputLength(): number;
  writeInputs(src: number, length: number, count: number, dst: number, capacity: number): number;
  /** Absent from a module built from an older source: the `hex` member is then encoded elsewhere. */
  encodeHex?(src: number, length: number, dst: number): void;
}

const INPUT_FUNCTIONS = ['inputPointer', 'outputLength', 'writeInputs'] as const;

const PAGE = 65536;
/** The inputs' bytes copied in at a time; an input longer than this is written in JavaScript. */
export const INPUT_AREA = 256 << 10;
/**
 * The JSON written per call. The module counts an input's at most 176 + 6 bytes per script byte
 * (+ 32 of slack), so an input whose script exceeds about 87 KB is written in JavaScript.
 */
const OUTPUT_AREA = 512 << 10;

/**
 * Reply slots: memory after the module's areas lent to transaction replies (rpc/methods/
 * reply-memory.ts), so that the module writes a run of inputs straight into the reply being
 * written there instead of into its output area, from which the JSON was copied into the reply
 * (bench/results/large-replies.md, round 21). Added to the memory once, on the first lend, and
 * never grown after: a reply is sent from a view of this memory, which growing would detach.
 */
export const REPLY_SLOT_BYTES = 1024 * 1024;
/** Slots at most: their memory stays the module's (8 MB), whatever the replies' number. */
export const REPLY_SLOTS = 8;

/** The module's memory and where its two areas lie. */
export interface InputRunWriter {
  /**
   * Copies `bytes[start, end)` (whole inputs, one after another, at most INPUT_AREA bytes) into
   * the input area, or finds them there in the transaction encodeHexAt copied, while it is held.
   */
  load(bytes: Uint8Array, start: number, end: number): void;
  /**
   * Writes up to `count` inputs, the first at `offset` of the loaded bytes, as JSON joined by
   * commas; returns how many it wrote (0: the host writes the input at `offset`), their JSON
   * being `output[0, outputLength())`.
   */
  write(offset: number, loaded: number, count: number): number;
  outputLength(): number;
  /** The output area (valid until the next call). */
  readonly output: Uint8Array;
  /** The module's memory (a reply slot's `buffer`). */
  readonly memory: ArrayBuffer;
  /**
   * As write, with the JSON written at `dst` of the module's memory (a reply slot's range, at
   * most `capacity` bytes) rather than in its output area.
   */
  writeAt(offset: number, loaded: number, count: number, dst: number, capacity: number): number;
  /**
   * HexStr of `bytes` (at most INPUT_AREA) copied into the input area, written at `dst` of the
   * module's memory (a reply slot's range with room for 2 × length + 32 bytes); false, having
   * written nothing, when too long or the module cannot. The input area is overwritten, and
   * holds `bytes` for load() until releaseHeld().
   */
  encodeHexAt(bytes: Uint8Array, dst: number): boolean;
  /**
   * Forgets the bytes encodeHexAt left in the input area: the caller's memory may change after
   * its rendering (memory reused for the next request's transaction), so load() copies again.
   */
  releaseHeld(): void;
  /** A free reply slot of REPLY_SLOT_BYTES, null when all are lent; give it back with returnSlot. */
  lendSlot(): Buffer | null;
  returnSlot(slot: Buffer): void;
}

let writer: InputRunWriter | null | undefined;
/** Whether runs of inputs go to the module (tests turn it off to compare both paths). */
let enabled = true;

/** Turns the module's use on (the default) or off; off, every input is written in JavaScript. */
export function setInputWasmEnabled(on: boolean): void {
  enabled = on;
}

/** Gives back a reply slot of the module's (InputRunWriter.lendSlot); false, doing nothing, for any other buffer. */
export function returnReplySlot(buffer: Buffer): boolean {
  if (!writer || buffer.buffer !== writer.memory) return false;
  writer.returnSlot(buffer);
  return true;
}

/** InputRunWriter.releaseHeld of the module's writer, if it was made. */
export function releaseHeldTransaction(): void {
  writer?.releaseHeld();
}

/**
 * The module's writer, or null when inputs are written in JavaScript. Any run goes to the
 * module, a single input too: its copy and call cost less than writing the input's pieces
 * one by one (bench/results/large-replies.md, round 19).
 */
export function inputRunWriter(): InputRunWriter | null {
  if (!enabled) return null;
  if (writer === undefined) writer = load();
  return writer;
}

function load(): InputRunWriter | null {
  if (typeof WebAssembly === 'undefined') return null;
  try {
    const x = requireWasmFunctions('tx-inputs', instantiateWasm('tx-inputs'), INPUT_FUNCTIONS) as unknown as InputExports;
    const input = x.inputPointer();
    const outputAt = input + INPUT_AREA;
    const need = outputAt + OUTPUT_AREA;
    const m = x.memory;
    if (need > m.buffer.byteLength) m.grow(Math.ceil((need - m.buffer.byteLength) / PAGE));
    // The memory's buffer, kept here: asking the Memory for it is a native call, made per reply.
    let memory = m.buffer;
    let mem = new Uint8Array(memory);
    let output = mem.subarray(outputAt, need);
    /** Free slots; null until the first lend adds them to the memory. */
    let free: Buffer[] | null = null;
    let slotsRefused = false;
    const slotsAt = (need + PAGE - 1) & ~(PAGE - 1);
    // The transaction encodeHexAt copied to the input area, held until releaseHeld(): its inputs
    // are then not copied again (a large transaction's inputs are nearly all of its bytes).
    let held: ArrayBufferLike | null = null;
    let heldFrom = 0;
    let heldTo = 0;
    /** Where the loaded run begins in the module's memory. */
    let runAt = input;
    return {
      load(bytes, start, end) {
        if (end - start > INPUT_AREA) throw new RangeError(`tx-inputs: ${end - start} bytes of inputs exceed the ${INPUT_AREA}-byte area`);
        const from = bytes.byteOffset + start;
        if (bytes.buffer === held && from >= heldFrom && bytes.byteOffset + end <= heldTo) {
          runAt = input + (from - heldFrom);
          return;
        }
        held = null;
        mem.set(bytes.subarray(start, end), input);
        runAt = input;
      },
      write(offset, loaded, count) {
        return x.writeInputs(runAt + offset, loaded - offset, count, outputAt, OUTPUT_AREA);
      },
      writeAt(offset, loaded, count, dst, capacity) {
        return x.writeInputs(runAt + offset, loaded - offset, count, dst, capacity);
      },
      encodeHexAt(bytes, dst) {
        held = null;
        if (x.encodeHex === undefined || bytes.length > INPUT_AREA) return false;
        mem.set(bytes, input);
        x.encodeHex(input, bytes.length, dst);
        held = bytes.buffer;
        heldFrom = bytes.byteOffset;
        heldTo = bytes.byteOffset + bytes.length;
        return true;
      },
      releaseHeld() {
        held = null;
      },
      outputLength: () => x.outputLength(),
      get output() {
        return output;
      },
      get memory() {
        return memory;
      },
      lendSlot() {
        if (slotsRefused) return null;
        if (free === null) {
          const end = slotsAt + REPLY_SLOTS * REPLY_SLOT_BYTES;
          try {
            if (end > m.buffer.byteLength) m.grow(Math.ceil((end - m.buffer.byteLength) / PAGE));
          } catch {
            // No memory for the slots (the engine refused to grow it): replies take memory of their own, and no later one asks again.
            slotsRefused = true;
            return null;
          }
          memory = m.buffer;
          mem = new Uint8Array(memory);
          output = mem.subarray(outputAt, need);
          free = [];
          for (let i = REPLY_SLOTS - 1; i >= 0; i--) free.push(Buffer.from(memory, slotsAt + i * REPLY_SLOT_BYTES, REPLY_SLOT_BYTES));
        }
        return free.pop() ?? null;
      },
      returnSlot(slot) {
        if (free === null || slot.buffer !== memory || free.includes(slot)) throw new Error('tx-inputs: not a lent reply slot');
        free.push(slot);
      },
    };
  } catch {
    return null;
  }
}
