/**
 * TxToJSON's `vout` (zcashd v6.12.2 src/rpc/rawtransaction.cpp): each output's value, index and
 * scriptPubKey with its solved type and addresses, and the spent index's members
 * (-insightexplorer) where it has them. Byte output writes P2PKH and P2SH outputs from fixed
 * fragments, runs of them in WebAssembly (./output-wasm.ts).
 */
import type { NetworkParams } from '../chain/network.js';
import { addressTable, type AddressTable, encodeTransparentAddress } from '../codec/script/address.js';
import { OP_CHECKSIG, OP_DUP, OP_EQUAL, OP_EQUALVERIFY, OP_HASH160 } from '../codec/script/opcodes.js';
import { solveScript, type DestinationKind, type SolvedScript } from '../codec/script/solver.js';
import type { TxOut } from '../codec/tx/types.js';
import { WireTxOut } from '../codec/tx/transparent.js';
import { JsonFragment } from '../json/fragment.js';
import type { JsonWriter } from '../json/writer.js';
import type { AsmIntoWriter } from './asm-sinks.js';
import { OUTPUT_RUN, outputRunWriter, type OutputRunWriter } from './output-wasm.js';
import { spenderAt, type TxSpentFields } from './spent-fields.js';

export function writeVout(
  w: JsonWriter,
  asm: AsmIntoWriter,
  vout: readonly TxOut[],
  network: NetworkParams,
  inputs: number,
  spent?: TxSpentFields,
): void {
  // Every output's script is classified and its addresses looked up before any output is
  // written, so that a transaction's new addresses are encoded together (their checksums four
  // at a time, crypto/address-checksums.ts); with known addresses too, the two loops are faster
  // than classifying and writing output by output (bench/store-serve.ts's payout lines).
  const n = vout.length;
  const pieces = w.writesBytes;
  /** Each output's script, for those not of a standard shape: the solved script and its addresses. */
  const scripts = new Array<Uint8Array | null>(n);
  /** Byte output's P2PKH and P2SH outputs: their shape and where their script lies; their addresses are in the table. */
  const shapes = new Array<StandardOutputShape | null>(n);
  const scriptBuffers = new Array<Uint8Array | null>(n);
  const scriptStarts = new Array<number>(n);
  const solvedScripts = new Array<SolvedScript | null>(n);
  const addresses = new Array<string[] | null>(n);
  let p2pkh: AddressTable | undefined;
  let p2sh: AddressTable | undefined;
  for (let i = 0; i < n; i++) {
    const output = vout[i]!;
    // A decoded output's script is read in place, with no view made for it, as the inputs' are.
    let buf: Uint8Array;
    let start: number;
    let length: number;
    if (output instanceof WireTxOut) {
      buf = output.buf;
      start = output.scriptPubKeyStart;
      length = output.scriptLength;
    } else {
      buf = output.scriptPubKey;
      start = 0;
      length = buf.length;
    }
    // A spent output's members follow its scriptPubKey, so it is written member by member.
    const shape = pieces && !(spent && spenderAt(spent, inputs, i) >= 0) ? standardShapeAt(buf, start, length) : null;
    shapes[i] = shape;
    if (shape !== null) {
      if (shape.kind === 'p2pkh') (p2pkh ??= addressTable('p2pkh', network)).request(buf, start + shape.pushAt);
      else (p2sh ??= addressTable('p2sh', network)).request(buf, start + shape.pushAt);
      scriptBuffers[i] = buf;
      scriptStarts[i] = start;
      scripts[i] = null;
      solvedScripts[i] = null;
      addresses[i] = null;
      continue;
    }
    const script = start === 0 && length === buf.length ? buf : buf.subarray(start, start + length);
    scripts[i] = script;
    scriptBuffers[i] = null;
    scriptStarts[i] = 0;
    const solved = solveScript(script);
    solvedScripts[i] = solved;
    addresses[i] =
      solved.reqSigs === undefined || !solved.destinations
        ? null
        : solved.destinations.map((d) => encodeTransparentAddress(d.kind, d.hash, network));
  }
  p2pkh?.flush();
  p2sh?.flush();
  const module = pieces ? outputRunWriter() : null;
  w.key('vout').beginArray();
  for (let i = 0; i < n; i++) {
    const value = vout[i]!.value;
    const shape = shapes[i];
    if (shape) {
      if (module !== null && vout[i] instanceof WireTxOut) {
        const run = standardRunEnd(vout, shapes, i);
        if (run - i >= MIN_MODULE_RUN) {
          writeOutputRun(w, module, vout as readonly WireTxOut[], shapes as readonly StandardOutputShape[], i, run, network);
          i = run - 1;
          continue;
        }
      }
      writeStandardOutput(w, shape, value, i, scriptBuffers[i]!, scriptStarts[i]!, shape.kind === 'p2pkh' ? p2pkh! : p2sh!);
      continue;
    }
    const script = scripts[i]!;
    w.beginObject();
    w.key('value').amount(value);
    w.key('valueZat').int(value);
    w.key('valueSat').int(value);
    w.key('n').int(i);
    w.key('scriptPubKey').beginObject();
    w.key('asm');
    asm.write(script, false);
    w.key('hex').hexStr(script);
    const solved = solvedScripts[i]!;
    const encoded = addresses[i];
    if (!encoded) {
      w.key('type').plainStr(solved.type);
    } else {
      w.key('reqSigs').int(solved.reqSigs!);
      w.key('type').plainStr(solved.type);
      w.key('addresses').beginArray();
      for (const a of encoded) w.plainStr(a);
      w.endArray();
    }
    w.endObject();
    const at = spent ? spenderAt(spent, inputs, i) : -1;
    if (at >= 0) {
      const b = spent!.bytes;
      w.key('spentTxId').hexStrReversed(b, at + 1, 32);
      w.key('spentIndex').int((b[at + 33]! | (b[at + 34]! << 8) | (b[at + 35]! << 16) | (b[at + 36]! << 24)) >>> 0);
      w.key('spentHeight').int((b[at + 37]! | (b[at + 38]! << 8) | (b[at + 39]! << 16) | (b[at + 40]! << 24)) >>> 0);
    }
    w.endObject();
  }
  w.endArray();
}

/**
 * The fixed text around a P2PKH or P2SH output's variable parts, for byte output: such outputs
 * are most of a payout-heavy block, and writing them from these fragments rather than member by
 * member makes getblock 2 of a block of pool payouts faster (bench/store-serve.ts's payout lines). Text output writes the same members one by one, and the
 * fuzz and vector tests compare the two.
 */
interface StandardOutputShape {
  kind: DestinationKind;
  /** The script's length, and where its one push, a 20-byte hash, starts. */
  scriptLength: number;
  pushAt: number;
  /** From after `"n":<n>` up to the push's hex in `asm`. */
  beforePush: JsonFragment;
  /** From after the push's hex up to the script's hex. */
  afterPush: JsonFragment;
  /** From after the script's hex up to the address. */
  beforeAddress: JsonFragment;
}

const OUTPUT_START = new JsonFragment('{"value":');
const VALUE_ZAT = new JsonFragment(',"valueZat":');
const VALUE_SAT = new JsonFragment(',"valueSat":');
const OUTPUT_N = new JsonFragment(',"n":');
const OUTPUT_END = new JsonFragment('"]}}');

const PAY_TO_PUBKEY_HASH: StandardOutputShape = {
  kind: 'p2pkh',
  scriptLength: 25,
  pushAt: 3,
  beforePush: new JsonFragment(',"scriptPubKey":{"asm":"OP_DUP OP_HASH160 '),
  afterPush: new JsonFragment(' OP_EQUALVERIFY OP_CHECKSIG","hex":"'),
  beforeAddress: new JsonFragment('","reqSigs":1,"type":"pubkeyhash","addresses":["'),
};

const PAY_TO_SCRIPT_HASH: StandardOutputShape = {
  kind: 'p2sh',
  scriptLength: 23,
  pushAt: 2,
  beforePush: new JsonFragment(',"scriptPubKey":{"asm":"OP_HASH160 '),
  afterPush: new JsonFragment(' OP_EQUAL","hex":"'),
  beforeAddress: new JsonFragment('","reqSigs":1,"type":"scripthash","addresses":["'),
};

/**
 * The script `b[start, start + length)` when solveScript calls it `pubkeyhash` or `scripthash`
 * (isPayToPubkeyHash, isPayToScriptHash): each is exactly one byte pattern, matched by no earlier type.
 */
function standardShapeAt(b: Uint8Array, start: number, length: number): StandardOutputShape | null {
  if (length === 25)
    return b[start] === OP_DUP &&
      b[start + 1] === OP_HASH160 &&
      b[start + 2] === 0x14 &&
      b[start + 23] === OP_EQUALVERIFY &&
      b[start + 24] === OP_CHECKSIG
      ? PAY_TO_PUBKEY_HASH
      : null;
  if (length === 23) return b[start] === OP_HASH160 && b[start + 1] === 0x14 && b[start + 22] === OP_EQUAL ? PAY_TO_SCRIPT_HASH : null;
  return null;
}

function writeStandardOutput(
  w: JsonWriter,
  shape: StandardOutputShape,
  value: number,
  n: number,
  buf: Uint8Array,
  start: number,
  table: AddressTable,
): void {
  const push = start + shape.pushAt;
  // Found again, not remembered from before: another output of the transaction may have evicted it.
  const slot = table.slotOf(buf, push);
  const text = table.textStart(slot);
  w.beginPieces()
    .piece(OUTPUT_START)
    .pieceAmount(value)
    .piece(VALUE_ZAT)
    .pieceInt(value)
    .piece(VALUE_SAT)
    .pieceInt(value)
    .piece(OUTPUT_N)
    .pieceInt(n)
    .piece(shape.beforePush)
    .pieceHex(buf, push, push + 20)
    .piece(shape.afterPush)
    .pieceHex(buf, start, start + shape.scriptLength)
    .piece(shape.beforeAddress)
    .pieceAscii(table.slots, text, text + table.textLength(slot))
    .piece(OUTPUT_END)
    .endPieces();
}

/**
 * The fewest standard outputs in a row that go to the WebAssembly module: for a lone one its
 * copies and call cost more than writeStandardOutput (bench/results/large-replies.md, round 20).
 */
const MIN_MODULE_RUN = 2;

/** Where a decoded output's bytes end (after its script). */
function outputEnd(output: WireTxOut): number {
  return output.scriptPubKeyStart + output.scriptLength;
}

/** The end of the run of decoded standard outputs from `from` whose bytes follow one another in one buffer. */
function standardRunEnd(vout: readonly TxOut[], shapes: readonly (StandardOutputShape | null)[], from: number): number {
  let prev = vout[from] as WireTxOut;
  let i = from + 1;
  for (; i < vout.length && shapes[i] !== null; i++) {
    const next = vout[i];
    if (!(next instanceof WireTxOut) || next.buf !== prev.buf || next.at !== outputEnd(prev)) break;
    prev = next;
  }
  return i;
}

/**
 * The standard outputs `vout[from, to)`, lying one after another, written by the WebAssembly
 * module (./output-wasm.ts), OUTPUT_RUN at a time with their addresses copied in from the
 * tables; an output it leaves (an amount beyond JsonWriter's ordinary ones) is written by
 * writeStandardOutput, and the module goes on after it.
 */
function writeOutputRun(
  w: JsonWriter,
  module: OutputRunWriter,
  vout: readonly WireTxOut[],
  shapes: readonly StandardOutputShape[],
  from: number,
  to: number,
  network: NetworkParams,
): void {
  const buf = vout[from]!.buf;
  let p2pkh: AddressTable | undefined;
  let p2sh: AddressTable | undefined;
  const tableOf = (kind: DestinationKind): AddressTable =>
    kind === 'p2pkh' ? (p2pkh ??= addressTable('p2pkh', network)) : (p2sh ??= addressTable('p2sh', network));
  let i = from;
  while (i < to) {
    const chunkEnd = Math.min(to, i + OUTPUT_RUN);
    const base = vout[i]!.at;
    const end = outputEnd(vout[chunkEnd - 1]!);
    module.load(buf, base, end);
    // Each address is copied as soon as it is found: a later output's lookup may evict it.
    for (let j = i; j < chunkEnd; j++) {
      const shape = shapes[j]!;
      const table = tableOf(shape.kind);
      const slot = table.slotOf(buf, vout[j]!.scriptPubKeyStart + shape.pushAt);
      module.setAddress(j - i, table.slots, table.textStart(slot), table.textLength(slot));
    }
    let j = i;
    while (j < chunkEnd) {
      const written = module.write(vout[j]!.at - base, end - base, chunkEnd - j, j - i, j);
      if (written > 0) {
        w.rawElements(module.output, 0, module.outputLength());
        j += written;
      } else {
        const output = vout[j]!;
        const shape = shapes[j]!;
        writeStandardOutput(w, shape, output.value, j, buf, output.scriptPubKeyStart, tableOf(shape.kind));
        j++;
      }
    }
    i = chunkEnd;
  }
}
