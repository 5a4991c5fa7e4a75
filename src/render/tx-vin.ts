/**
 * TxToJSON's `vin` (zcashd v6.12.2 src/rpc/rawtransaction.cpp): coinbase and ordinary inputs,
 * with the spent index's members (-insightexplorer) where it has them. Byte output writes runs of
 * plain inputs in WebAssembly (./input-wasm.ts) and other plain inputs from fixed fragments.
 */
import type { NetworkParams } from '../chain/network.js';
import { writeScriptAsm } from '../codec/script/asm.js';
import { addressTable } from '../codec/script/address.js';
import { destinationKindOf } from '../codec/script/solver.js';
import { int32LE } from '../codec/bytes.js';
import type { TxIn } from '../codec/tx/types.js';
import { WireTxIn } from '../codec/tx/transparent.js';
import { JsonFragment } from '../json/fragment.js';
import type { JsonWriter } from '../json/writer.js';
import { AsmIntoPieces, type AsmIntoWriter } from './asm-sinks.js';
import { INPUT_AREA, inputRunWriter, type InputRunWriter } from './input-wasm.js';
import { spentInputAt, spentValue, type TxSpentFields } from './spent-fields.js';

export function writeVin(
  w: JsonWriter,
  asm: AsmIntoWriter,
  vin: readonly TxIn[],
  coinbase: boolean,
  network: NetworkParams,
  spent?: TxSpentFields,
): void {
  w.key('vin').beginArray();
  const pieces = !coinbase && w.writesBytes ? new AsmIntoPieces(w) : null;
  const module = pieces !== null ? inputRunWriter() : null;
  for (let i = 0; i < vin.length; i++) {
    const input = vin[i]!;
    if (pieces !== null && isPlainInput(vin, i, spent)) {
      if (module === null) writeWireInput(w, pieces, input as WireTxIn);
      else {
        const run = plainRunEnd(vin, i, spent);
        writeInputRun(w, pieces, module, vin as readonly WireTxIn[], i, run);
        i = run - 1;
      }
      continue;
    }
    w.beginObject();
    if (coinbase) {
      w.key('coinbase').hexStr(input.scriptSig);
      w.key('sequence').int(input.sequence);
      w.endObject();
      continue;
    }
    // A decoded input is read in place, with no view made for its prevout or script: getblock
    // of a large block renders thousands of inputs, and the views were a measurable share of its time.
    let script: Uint8Array;
    let start: number;
    let end: number;
    if (input instanceof WireTxIn) {
      w.key('txid').hexStrReversed(input.buf, input.at, 32);
      w.key('vout').int(input.prevoutIndex);
      script = input.buf;
      start = input.scriptSigStart;
      end = start + input.scriptLength;
    } else {
      w.key('txid').hexStrReversed(input.prevout.hash);
      w.key('vout').int(input.prevout.index);
      script = input.scriptSig;
      start = 0;
      end = script.length;
    }
    w.key('scriptSig').beginObject();
    w.key('asm');
    asm.write(script, true, start, end);
    w.key('hex').hexStr(script, start, end);
    w.endObject();
    const at = spent ? spentInputAt(spent, i) : -1;
    if (at >= 0) writeSpentInput(w, spent!.bytes, at, network);
    w.key('sequence').int(input.sequence);
    w.endObject();
  }
  w.endArray();
}

/** A decoded input without spent-index members (those have them between its scriptSig and sequence). */
function isPlainInput(vin: readonly TxIn[], i: number, spent: TxSpentFields | undefined): boolean {
  return vin[i] instanceof WireTxIn && !(spent && spentInputAt(spent, i) >= 0);
}

/** Where a decoded input's bytes end (after its sequence). */
function inputEnd(input: WireTxIn): number {
  return input.scriptSigStart + input.scriptLength + 4;
}

/** The end of the run of plain inputs from `from` whose bytes follow one another in one buffer. */
function plainRunEnd(vin: readonly TxIn[], from: number, spent: TxSpentFields | undefined): number {
  let prev = vin[from] as WireTxIn;
  let i = from + 1;
  for (; i < vin.length && isPlainInput(vin, i, spent); i++) {
    const next = vin[i] as WireTxIn;
    if (next.buf !== prev.buf || next.at !== inputEnd(prev)) break;
    prev = next;
  }
  return i;
}

/**
 * The plain inputs `vin[from, to)`, lying one after another, written by the WebAssembly module
 * (./input-wasm.ts) as many at a time as its areas hold; an input it leaves (a non-push opcode
 * in its script, or one too long for its areas) is written by writeWireInput, and the module
 * goes on after it.
 */
function writeInputRun(
  w: JsonWriter,
  pieces: AsmIntoPieces,
  module: InputRunWriter,
  vin: readonly WireTxIn[],
  from: number,
  to: number,
): void {
  let i = from;
  while (i < to) {
    const base = vin[i]!.at;
    let chunkEnd = i;
    let end = base;
    for (; chunkEnd < to; chunkEnd++) {
      const e = inputEnd(vin[chunkEnd]!);
      if (e - base > INPUT_AREA) break;
      end = e;
    }
    if (chunkEnd === i) {
      writeWireInput(w, pieces, vin[i]!);
      i++;
      continue;
    }
    module.load(vin[i]!.buf, base, end);
    while (i < chunkEnd) {
      const place = w.elementsPlace(0);
      // A reply rendered in one of the module's reply slots: the inputs are written into it in place.
      const inPlace = place.output.buffer === module.memory;
      const written = inPlace
        ? module.writeAt(vin[i]!.at - base, end - base, chunkEnd - i, place.output.byteOffset + place.at, place.output.length - place.at)
        : module.write(vin[i]!.at - base, end - base, chunkEnd - i);
      if (written > 0) {
        if (inPlace) w.elementsWritten(module.outputLength());
        else w.rawElements(module.output, 0, module.outputLength());
        i += written;
      } else {
        writeWireInput(w, pieces, vin[i]!);
        i++;
      }
    }
  }
}

const INPUT_START = new JsonFragment('{"txid":"');
const INPUT_VOUT = new JsonFragment('","vout":');
const INPUT_ASM = new JsonFragment(',"scriptSig":{"asm":"');
const INPUT_HEX = new JsonFragment('","hex":"');
const INPUT_SEQUENCE = new JsonFragment('"},"sequence":');
const INPUT_END = new JsonFragment('}');
/** The text after an input's scriptSig hex when its sequence is 0xffffffff (final), as nearly every input's is. */
const INPUT_FINAL_SEQUENCE_END = new JsonFragment('"},"sequence":4294967295}');

/**
 * A decoded input of byte output, written from fixed fragments around its variable parts, as
 * writeStandardOutput writes an output: a transaction of hundreds of inputs spent a large share
 * of its rendering on the member-by-member writer's keys and state. Text output writes the same
 * members one by one, and the vector tests compare the two.
 */
function writeWireInput(w: JsonWriter, asm: AsmIntoPieces, input: WireTxIn): void {
  const buf = input.buf;
  const start = input.scriptSigStart;
  const end = start + input.scriptLength;
  w.beginPieces().piece(INPUT_START).pieceHexReversed(buf, input.at, 32).piece(INPUT_VOUT).pieceInt(input.prevoutIndex).piece(INPUT_ASM);
  writeScriptAsm(buf, true, asm, start, end);
  w.piece(INPUT_HEX).pieceHex(buf, start, end);
  // The sequence follows the script.
  const sequence = int32LE(buf, end);
  if (sequence === -1) w.piece(INPUT_FINAL_SEQUENCE_END);
  else
    w.piece(INPUT_SEQUENCE)
      .pieceInt(sequence >>> 0)
      .piece(INPUT_END);
  w.endPieces();
}

/** An input's spent-index members; DestFromAddressHash gives an address to P2PKH and P2SH only. */
function writeSpentInput(w: JsonWriter, bytes: Uint8Array, at: number, network: NetworkParams): void {
  const value = spentValue(bytes, at);
  w.key('value').amount(value);
  w.key('valueSat').int(value);
  const kind = destinationKindOf(bytes[at + 9]!);
  if (kind === null) return;
  const table = addressTable(kind, network);
  w.key('address').plainStr(table.textOf(table.slotOf(bytes, at + 10)));
}
