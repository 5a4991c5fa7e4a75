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
import { instantiateWasm, requireWasmFunctions } from '../wasm-module.js';

interface InputExports {
  memory: WebAssembly.Memory;
  inputPointer(): number;
  outputLength(): number;
  writeInputs(src: number, length: number, count: number, dst: number, capacity: number): number;
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

/** The module's memory and where its two areas lie. */
export interface InputRunWriter {
  /** Copies `bytes[start, end)` (whole inputs, one after another, at most INPUT_AREA bytes) into the input area. */
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
}

let writer: InputRunWriter | null | undefined;
/** Whether runs of inputs go to the module (tests turn it off to compare both paths). */
let enabled = true;

/** Turns the module's use on (the default) or off; off, every input is written in JavaScript. */
export function setInputWasmEnabled(on: boolean): void {
  enabled = on;
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
    const mem = new Uint8Array(m.buffer);
    return {
      load(bytes, start, end) {
        if (end - start > INPUT_AREA) throw new RangeError(`tx-inputs: ${end - start} bytes of inputs exceed the ${INPUT_AREA}-byte area`);
        mem.set(bytes.subarray(start, end), input);
      },
      write(offset, loaded, count) {
        return x.writeInputs(input + offset, loaded - offset, count, outputAt, OUTPUT_AREA);
      },
      outputLength: () => x.outputLength(),
      output: mem.subarray(outputAt, need),
    };
  } catch {
    return null;
  }
}
