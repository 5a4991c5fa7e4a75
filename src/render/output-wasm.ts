/**
 * A run of a transaction's P2PKH and P2SH outputs written as JSON in WebAssembly
 * (assembly/tx-outputs.ts): a payout transaction spent about half of its byte-output rendering
 * writing such outputs, one JavaScript call per amount, number, hex and fragment, where the
 * module writes a whole run per call, byte for byte what writeStandardOutput writes. The
 * addresses stay in their tables (codec/script/address.ts); each one's text is copied in.
 *
 * The module is instantiated on first use, with fixed areas for the outputs' bytes, their
 * addresses and the JSON (its memory never grows after that); longer runs go in chunks. Without
 * the built module `outputRunWriter()` is null and every output is written in JavaScript, with
 * the same output.
 */
import { instantiateWasm, requireWasmFunctions } from '../wasm-module.js';

interface OutputExports {
  memory: WebAssembly.Memory;
  bytesPointer(): number;
  outputLength(): number;
  writeOutputs(src: number, length: number, count: number, records: number, n: number, dst: number, capacity: number): number;
}

const OUTPUT_FUNCTIONS = ['bytesPointer', 'outputLength', 'writeOutputs'] as const;

const PAGE = 65536;
/** Outputs loaded at a time (a P2PKH output is 34 bytes, a P2SH one 32). */
export const OUTPUT_RUN = 4096;
/** The outputs' bytes copied in at a time. */
export const OUTPUTS_AREA = OUTPUT_RUN * 34;
/** An output's address record: its length, then its text (at most 36 characters). */
const RECORD_BYTES = 40;
const RECORDS_AREA = OUTPUT_RUN * RECORD_BYTES;
/** The JSON written per call: the module stops when less than an output's bound (448 bytes) is left. */
const JSON_AREA = 512 << 10;
/** Room after the records for the module's 16-byte reads past the last one. */
const SLACK = 64;

/** The module's memory and where its areas lie. */
export interface OutputRunWriter {
  /** Copies `bytes[start, end)` (whole outputs, one after another, at most OUTPUTS_AREA bytes) into the outputs' area. */
  load(bytes: Uint8Array, start: number, end: number): void;
  /**
   * Copies the address text `slots[start, start + length)` (a table's slot) as the address of
   * the `k`-th loaded output (k < OUTPUT_RUN).
   */
  setAddress(k: number, slots: Uint8Array, start: number, length: number): void;
  /**
   * Writes up to `count` outputs, the first at `offset` of the loaded bytes, the `k`-th loaded
   * and the transaction's `n`-th, as JSON joined by commas; returns how many it wrote (0: the
   * host writes the output at `offset`), their JSON being `output[0, outputLength())`.
   */
  write(offset: number, loaded: number, count: number, k: number, n: number): number;
  outputLength(): number;
  /** The JSON area (valid until the next call). */
  readonly output: Uint8Array;
}

let writer: OutputRunWriter | null | undefined;
/** Whether runs of outputs go to the module (tests turn it off to compare both paths). */
let enabled = true;

/** Turns the module's use on (the default) or off; off, every output is written in JavaScript. */
export function setOutputWasmEnabled(on: boolean): void {
  enabled = on;
}

/** The module's writer, or null when outputs are written in JavaScript. */
export function outputRunWriter(): OutputRunWriter | null {
  if (!enabled) return null;
  if (writer === undefined) writer = load();
  return writer;
}

function load(): OutputRunWriter | null {
  if (typeof WebAssembly === 'undefined') return null;
  try {
    const x = requireWasmFunctions('tx-outputs', instantiateWasm('tx-outputs'), OUTPUT_FUNCTIONS) as unknown as OutputExports;
    const bytesAt = x.bytesPointer();
    const recordsAt = bytesAt + OUTPUTS_AREA;
    const jsonAt = recordsAt + RECORDS_AREA + SLACK;
    const need = jsonAt + JSON_AREA;
    const m = x.memory;
    if (need > m.buffer.byteLength) m.grow(Math.ceil((need - m.buffer.byteLength) / PAGE));
    const mem = new Uint8Array(m.buffer);
    const memWords = new Uint32Array(m.buffer);
    // The address tables' slots as words, for a copy of 10 words in place of up to 37 bytes; the
    // last two tables' views are kept, since a run may alternate P2PKH and P2SH outputs.
    let wordsOf: Uint8Array | null = null;
    let words: Uint32Array | null = null;
    let otherOf: Uint8Array | null = null;
    let other: Uint32Array | null = null;
    return {
      load(bytes, start, end) {
        if (end - start > OUTPUTS_AREA)
          throw new RangeError(`tx-outputs: ${end - start} bytes of outputs exceed the ${OUTPUTS_AREA}-byte area`);
        mem.set(bytes.subarray(start, end), bytesAt);
      },
      setAddress(k, slots, start, length) {
        if (k < 0 || k >= OUTPUT_RUN) throw new RangeError(`tx-outputs: address ${k} is beyond the ${OUTPUT_RUN} records`);
        const r = recordsAt + k * RECORD_BYTES;
        if (slots !== wordsOf) {
          const previousOf = wordsOf;
          const previous = words;
          if (slots === otherOf) words = other;
          else words = slots.byteOffset % 4 === 0 ? new Uint32Array(slots.buffer, slots.byteOffset, slots.length >>> 2) : null;
          wordsOf = slots;
          otherOf = previousOf;
          other = previous;
        }
        // A text longer than a record holds is left to JavaScript (the module refuses its length).
        if (length > RECORD_BYTES - 1) {
          mem[r] = length;
          return;
        }
        const from = slots.byteOffset + start - 1;
        if (words !== null && (from & 3) === 0 && start - 1 + RECORD_BYTES <= slots.length) {
          const w = (from - slots.byteOffset) >>> 2;
          const d = r >>> 2;
          for (let i = 0; i < RECORD_BYTES / 4; i++) memWords[d + i] = words[w + i]!;
        } else for (let i = 0; i < length; i++) mem[r + 1 + i] = slots[start + i]!;
        mem[r] = length;
      },
      write(offset, loaded, count, k, n) {
        if (offset < 0 || loaded > OUTPUTS_AREA || k < 0 || count > OUTPUT_RUN - k) {
          throw new RangeError(`tx-outputs: outputs [${k}, ${k + count}) at ${offset} of ${loaded} bytes exceed its areas`);
        }
        return x.writeOutputs(bytesAt + offset, loaded - offset, count, recordsAt + k * RECORD_BYTES, n, jsonAt, JSON_AREA);
      },
      outputLength: () => x.outputLength(),
      output: mem.subarray(jsonAt, need),
    };
  } catch {
    return null;
  }
}
