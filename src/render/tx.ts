/**
 * zcashd's TxToJSON (src/rpc/rawtransaction.cpp, v6.12.2): the transaction object of
 * `decoderawtransaction`, `getblock` verbosity 2 and `getrawtransaction` verbose, member for
 * member, in zcashd's order and byte order.
 */
import type { NetworkParams } from '../chain/network.js';
import { writeScriptAsm, type ScriptAsmSink } from '../codec/script/asm.js';
import { addressTable, type AddressTable, encodeTransparentAddress } from '../codec/script/address.js';
import { OP_CHECKSIG, OP_DUP, OP_EQUAL, OP_EQUALVERIFY, OP_HASH160 } from '../codec/script/opcodes.js';
import { destinationKindOf, solveScript, type DestinationKind, type SolvedScript } from '../codec/script/solver.js';
import { int32LE } from '../codec/bytes.js';
import { hexInt } from '../codec/hex.js';
import type { Transaction } from '../codec/tx/transaction.js';
import type { JoinSplit, OrchardBundle, SaplingBundle, TxIn, TxOut } from '../codec/tx/types.js';
import { isCoinbase, WireTxIn, WireTxOut } from '../codec/tx/transparent.js';
import { JsonFragment } from '../json/fragment.js';
import { JsonWriter } from '../json/writer.js';
import { INPUT_AREA, inputRunWriter, type InputRunWriter } from './input-wasm.js';
import { OUTPUT_RUN, outputRunWriter, type OutputRunWriter } from './output-wasm.js';
import { renderToBytes } from './scratch-output.js';
import { spenderAt, spentInputAt, spentValue, type TxSpentFields } from './spent-fields.js';

/**
 * Puts a script's asm straight into the writer's open string; its pushes lie in the bytes of
 * the transaction, whose hex the writer has already written, so they are copies of that output.
 */
class AsmIntoWriter implements ScriptAsmSink {
  constructor(private readonly w: JsonWriter) {}

  text(s: string): void {
    this.w.stringText(s);
  }

  hex(script: Uint8Array, from: number, to: number): void {
    this.w.stringHex(script, from, to);
  }

  /** The `asm` member's value, of `script[start, end)`. */
  write(script: Uint8Array, attemptSighashDecode: boolean, start = 0, end = script.length): void {
    this.w.openString();
    writeScriptAsm(script, attemptSighashDecode, this, start, end);
    this.w.closeString();
  }
}

/** Puts a script's asm into the writer's open pieces: an input written from fragments. */
class AsmIntoPieces implements ScriptAsmSink {
  constructor(private readonly w: JsonWriter) {}

  text(s: string): void {
    this.w.pieceText(s);
  }

  hex(script: Uint8Array, from: number, to: number): void {
    this.w.pieceHex(script, from, to);
  }
}

/** Members getrawtransaction adds around TxToJSON (rpc-http-json.md §7.7). */
export interface TxJsonExtras {
  /** getrawtransaction adds `hex` first; TxToJSON's later `hex` then replaces it in place. */
  leadingHex?: boolean;
  /** Printed first, only when the caller passed a non-zero block hash. */
  inActiveChain?: boolean;
  /**
   * The containing block. The `notIndexed` form is a block that is known but not on the active
   * chain (zcashd then prints `height` -1 and `confirmations` 0).
   */
  block?: { hash: Uint8Array; height: number; confirmations: number; time: number } | { hash: Uint8Array; notIndexed: true };
  /**
   * The spent index's records, when the node keeps it (-insightexplorer): zcashd then adds an
   * input's `value`, `valueSat` and `address`, and an output's `spentTxId`, `spentIndex` and
   * `spentHeight`, where the index has an entry.
   */
  spent?: TxSpentFields;
}

function writeVin(
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
      const written = module.write(vin[i]!.at - base, end - base, chunkEnd - i);
      if (written > 0) {
        w.rawElements(module.output, 0, module.outputLength());
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

function writeVout(
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

function writeJoinSplits(w: JsonWriter, joinSplits: readonly JoinSplit[]): void {
  w.key('vjoinsplit').beginArray();
  for (const js of joinSplits) {
    w.beginObject();
    w.key('vpub_old').amount(js.vpubOld);
    w.key('vpub_oldZat').int(js.vpubOld);
    w.key('vpub_new').amount(js.vpubNew);
    w.key('vpub_newZat').int(js.vpubNew);
    w.key('anchor').hexStrReversed(js.anchor);
    w.key('nullifiers').beginArray().hexStrReversed(js.nullifiers[0]).hexStrReversed(js.nullifiers[1]).endArray();
    w.key('commitments').beginArray().hexStrReversed(js.commitments[0]).hexStrReversed(js.commitments[1]).endArray();
    w.key('onetimePubKey').hexStrReversed(js.ephemeralKey);
    w.key('randomSeed').hexStrReversed(js.randomSeed);
    w.key('macs').beginArray().hexStrReversed(js.macs[0]).hexStrReversed(js.macs[1]).endArray();
    w.key('proof').hexStr(js.proof);
    w.key('ciphertexts').beginArray().hexStr(js.ciphertexts[0]).hexStr(js.ciphertexts[1]).endArray();
    w.endObject();
  }
  w.endArray();
}

function writeSapling(w: JsonWriter, s: SaplingBundle | null): void {
  const valueBalance = s?.valueBalance ?? 0;
  w.key('valueBalance').amount(valueBalance);
  w.key('valueBalanceZat').int(valueBalance);
  w.key('vShieldedSpend').beginArray();
  for (const sp of s?.spends ?? []) {
    w.beginObject();
    w.key('cv').hexStrReversed(sp.cv);
    w.key('anchor').hexStrReversed(sp.anchor);
    w.key('nullifier').hexStrReversed(sp.nullifier);
    w.key('rk').hexStrReversed(sp.rk);
    w.key('proof').hexStr(sp.zkproof);
    w.key('spendAuthSig').hexStr(sp.spendAuthSig);
    w.endObject();
  }
  w.endArray();
  w.key('vShieldedOutput').beginArray();
  for (const o of s?.outputs ?? []) {
    w.beginObject();
    w.key('cv').hexStrReversed(o.cv);
    w.key('cmu').hexStrReversed(o.cmu);
    w.key('ephemeralKey').hexStrReversed(o.ephemeralKey);
    w.key('encCiphertext').hexStr(o.encCiphertext);
    w.key('outCiphertext').hexStr(o.outCiphertext);
    w.key('proof').hexStr(o.zkproof);
    w.endObject();
  }
  w.endArray();
  if (s && s.bindingSig) w.key('bindingSig').hexStr(s.bindingSig);
}

/**
 * The flags bits TxToJSON names: v5's two, and from v6 (ZIP 229) enableCrossAddress as well, in
 * bit order. A v5 bundle never prints the third: its bit is reserved there.
 */
const V5_ORCHARD_FLAGS = ['enableSpends', 'enableOutputs'] as const;
const V6_ORCHARD_FLAGS = ['enableSpends', 'enableOutputs', 'enableCrossAddress'] as const;

/**
 * An Orchard-protocol component (v5's and v6's `orchard`, v6's `ironwood`): zcashd's Orchard
 * object, member for member. Every field is printed raw (HexStr), unlike Sapling and Sprout.
 */
function writeOrchardShaped(w: JsonWriter, member: 'orchard' | 'ironwood', o: OrchardBundle | null, flagNames: readonly string[]): void {
  w.key(member).beginObject();
  w.key('actions').beginArray();
  for (const a of o?.actions ?? []) {
    w.beginObject();
    w.key('cv').hexStr(a.cv);
    w.key('nullifier').hexStr(a.nullifier);
    w.key('rk').hexStr(a.rk);
    w.key('cmx').hexStr(a.cmx);
    w.key('ephemeralKey').hexStr(a.ephemeralKey);
    w.key('encCiphertext').hexStr(a.encCiphertext);
    w.key('outCiphertext').hexStr(a.outCiphertext);
    w.key('spendAuthSig').hexStr(a.spendAuthSig);
    w.endObject();
  }
  w.endArray();
  const valueBalance = o?.valueBalance ?? 0;
  w.key('valueBalance').amount(valueBalance);
  w.key('valueBalanceZat').int(valueBalance);
  if (o) {
    w.key('flags').beginObject();
    for (let bit = 0; bit < flagNames.length; bit++) w.key(flagNames[bit]!).bool((o.flags & (1 << bit)) !== 0);
    w.endObject();
    w.key('anchor').hexStr(o.anchor);
    w.key('proof').hexStr(o.proof);
    w.key('bindingSig').hexStr(o.bindingSig);
  }
  w.endObject();
}

/**
 * Appends the TxToJSON object for `tx` to `w`. A v6 transaction (ZIP 229), which no zcashd
 * release prints, extends v5's object: its Orchard flags name enableCrossAddress, and an
 * `ironwood` object shaped as `orchard` follows it (docs/compatibility.md, v6 transactions).
 */
export function writeTxJson(w: JsonWriter, tx: Transaction, network: NetworkParams, extras: TxJsonExtras = {}): void {
  writeTxJsonWithHex(w, tx, network, extras, undefined);
}

/**
 * writeTxJson with `hexText`, when given, copied as the `hex` member instead of `tx.bytes`
 * encoded again: it must be HexStr(tx.bytes) character for character, as the decoder vouches
 * for decoderawtransaction's lowercase parameter (decodeTransactionHexBytesKeepingText). Kept
 * out of the library's TxJsonExtras, so no caller's unchecked text can stand for the bytes.
 */
function writeTxJsonWithHex(
  w: JsonWriter,
  tx: Transaction,
  network: NetworkParams,
  extras: TxJsonExtras,
  hexText: Uint8Array | undefined,
): void {
  const d = tx.data;
  const asm = new AsmIntoWriter(w);
  // The scripts repeat the transaction's bytes as hex once or twice more (hex and asm).
  w.reserve(4 * tx.size + 512);
  w.beginObject();
  if (extras.inActiveChain !== undefined) w.key('in_active_chain').bool(extras.inActiveChain);
  // Written first, so that the hex of every field after it is a copy of this output.
  if (extras.leadingHex) w.key('hex').sharedHexStr(tx.bytes, hexText);
  w.key('txid').hexStrReversed(tx.txid);
  w.key('authdigest').hexStrReversed(tx.authDigest);
  w.key('size').int(tx.size);
  w.key('overwintered').bool(d.overwintered);
  w.key('version').int(d.version);
  if (d.overwintered) w.key('versiongroupid').plainStr(hexInt(d.versionGroupId));
  w.key('locktime').int(d.lockTime);
  if (d.overwintered) w.key('expiryheight').int(d.expiryHeight);
  if (!extras.leadingHex) w.key('hex').sharedHexStr(tx.bytes, hexText);
  writeVin(w, asm, d.vin, isCoinbase(d.vin), network, extras.spent);
  writeVout(w, asm, d.vout, network, d.vin.length, extras.spent);
  writeJoinSplits(w, d.joinSplits);
  if (tx.carries.sapling) writeSapling(w, d.sapling);
  if (tx.carries.ironwood) {
    writeOrchardShaped(w, 'orchard', d.orchard, V6_ORCHARD_FLAGS);
    writeOrchardShaped(w, 'ironwood', d.ironwood ?? null, V6_ORCHARD_FLAGS);
  } else if (tx.carries.orchard) {
    writeOrchardShaped(w, 'orchard', d.orchard, V5_ORCHARD_FLAGS);
  }
  if (d.joinSplits.length > 0 && d.joinSplitPubKey && d.joinSplitSig) {
    // zcashd copies joinSplitPubKey into a uint256, so it prints reversed; the signature is raw.
    w.key('joinSplitPubKey').hexStrReversed(d.joinSplitPubKey);
    w.key('joinSplitSig').hexStr(d.joinSplitSig);
  }
  const b = extras.block;
  if (b) {
    w.key('blockhash').hexStrReversed(b.hash);
    if ('notIndexed' in b) {
      w.key('height').int(-1);
      w.key('confirmations').int(0);
    } else {
      w.key('height').int(b.height);
      w.key('confirmations').int(b.confirmations);
      w.key('time').int(b.time);
      w.key('blocktime').int(b.time);
    }
  }
  w.endObject();
}

/** The compact TxToJSON text of `tx` (decoderawtransaction's result, for library use). */
export function txToJson(tx: Transaction, network: NetworkParams): string {
  const w = new JsonWriter();
  writeTxJson(w, tx, network);
  return w.toString();
}

/**
 * The same as UTF-8 bytes (TxToJSON is pure ASCII: hex, asm, base58 and fixed words): what a
 * reply sends, written as bytes from the start (see JsonWriter). `hexText` as for
 * writeTxJsonWithHex.
 */
export function txToJsonBytes(tx: Transaction, network: NetworkParams, extras: TxJsonExtras = {}, hexText?: Uint8Array): Buffer {
  return renderToBytes(txJsonSizeEstimate(tx), (w) => writeTxJsonWithHex(w, tx, network, extras, hexText));
}

/** Bytes txToJsonBytes expects a transaction's text to take, at most for nearly every transaction. */
export function txJsonSizeEstimate(tx: Transaction): number {
  return 4 * tx.size + 512;
}

/**
 * txToJsonBytes written into `output` from its start: the result is a view of it while the text
 * fits (memory of its own otherwise), so it is valid only as long as `output` is not reused.
 */
export function txToJsonBytesInto(
  output: Buffer,
  tx: Transaction,
  network: NetworkParams,
  extras: TxJsonExtras = {},
  hexText?: Uint8Array,
): Buffer {
  const w = new JsonWriter(output);
  writeTxJsonWithHex(w, tx, network, extras, hexText);
  return w.toBuffer();
}
