/**
 * A streaming builder of UniValue's compact JSON text (rpc-http-json.md §4.1–§4.4, §4.8):
 * no whitespace, members in the order written, zcashd's byte-wise string escaping, number
 * tokens written as given. It is the hot path of TxToJSON and getblock, and has two outputs
 * for the two sizes of document it builds:
 *
 * - text (the default): one string appended to (V8 ropes make `+=` cheap). For documents up
 *   to tens of kilobytes nothing is faster: copying short strings into a buffer costs more
 *   per call than a concatenation.
 * - bytes (`new JsonWriter(capacity | memory)`): UTF-8 written straight into one Buffer. For
 *   megabytes of JSON (getblock verbosity 2 of a 2 MB block is ~11 MB, almost all hex): a rope
 *   that size spent most of its time being flattened and collected, while here hex is
 *   encoded from the source bytes into the output, and hex of a field lying inside bytes
 *   whose hex was already written (a transaction's `hex`, then its scripts, proofs and
 *   ciphertexts) is a native copy of that output.
 *
 * Strings are JavaScript (UTF-16) strings and come out as UTF-8, so a non-ASCII character is
 * its raw UTF-8 bytes, exactly as zcashd copies bytes >= 0x80 through. (A lone surrogate
 * cannot be represented in UTF-8 and becomes U+FFFD; the reader never produces one.)
 */
import { Buffer } from 'node:buffer';
import { toHexAt, toHexReversedAt } from '../hex-text.js';
import { JsonNumber, type JsonValue } from './value.js';
import { formatAmount, formatDouble, formatInteger } from './number-format.js';
import { isPlainAscii, quotedKey, quoteJsonString } from './string-quote.js';

export { quoteJsonString } from './string-quote.js';
export { formatInteger } from './number-format.js';
import type { JsonFragment } from './fragment.js';
import { wasmHexInto } from './hex-wasm.js';

/** Any character outside ASCII (such text is written through the UTF-8 encoder). */
// eslint-disable-next-line no-control-regex -- the range is all of ASCII, control characters included
const NON_ASCII = /[^\x00-\x7f]/;

const HEX_DIGITS = '0123456789abcdef';
/** The two hex characters of a byte, as the little-endian uint16 that stores them in order. */
const HEX_OF_BYTE = new Uint16Array(256);
for (let b = 0; b < 256; b++) HEX_OF_BYTE[b] = HEX_DIGITS.charCodeAt(b >> 4) | (HEX_DIGITS.charCodeAt(b & 15) << 8);
/**
 * The four hex characters of two bytes (index: first byte | second byte << 8), as the
 * little-endian uint32 that stores them in order. 256 KB, but one table lookup and one store
 * per two bytes, faster than Node's native hex encoder plus the copy of its string into the
 * buffer.
 */
const HEX_OF_PAIR = new Uint32Array(65536);
for (let v = 0; v < 65536; v++) HEX_OF_PAIR[v] = HEX_OF_BYTE[v & 255]! | (HEX_OF_BYTE[v >> 8]! << 16);

/** The two decimal digits of 0..99, as the little-endian uint16 that stores them in order. */
const DIGIT_PAIRS = new Uint16Array(100);
for (let v = 0; v < 100; v++) DIGIT_PAIRS[v] = (0x30 + Math.floor(v / 10)) | ((0x30 + (v % 10)) << 8);

/** An amount whose digits byte output writes itself: a whole number of zatoshis below 2^52 in magnitude. */
function isOrdinaryAmount(zat: number | bigint): zat is number {
  return typeof zat === 'number' && Math.abs(zat) < 2 ** 52 && zat === Math.floor(zat);
}

/** From this many bytes, hex is encoded in WebAssembly (./hex-wasm.ts); its call and copies cost ≈ 60 ns. */
const MIN_WASM_HEX_BYTES = 128;

/** Below this many bytes, hex is encoded again rather than copied (a copy call costs ~15 ns). */
const MIN_COPIED_HEX_BYTES = 24;
/** Below this many bytes, a hex slice of the shared hex text is not worth it (V8 copies slices under 13 characters). */
const MIN_SLICED_HEX_BYTES = 7;
/** Below this many characters, a JS loop beats a native string write's call cost (~40 ns). */
const MIN_NATIVE_WRITE_CHARS = 48;

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const BACKSLASH = 0x5c;
/** Keys up to this length are copied character by character (see `plainKeyBytes`). */
const KEY_INLINE_MAX = 32;
const ZAT_PER_ZEC = 100_000_000;

// Writer states. The state of each enclosing container is kept on a stack while a child is open.
const TOP_EMPTY = 0; // nothing written yet
const TOP_DONE = 1; // the one top-level value is complete
const IN_ARRAY = 2;
const OBJ_WANT_KEY = 3; // inside an object, before a key (or before `}`)
const OBJ_WANT_VALUE = 4; // inside an object, right after a key
const IN_STRING = 5; // between openString() and closeString()
const IN_PIECES = 6; // between beginPieces() and endPieces()

/**
 * Buffer's native string writers (`buf.write(s, at, 'latin1')` without the encoding dispatch).
 * Node has had them on every Buffer for many releases; typings omit them.
 */
interface NativeWriteBuffer extends Buffer {
  latin1Write(s: string, offset: number): number;
  utf8Write(s: string, offset: number): number;
}

function allocate(bytes: number): NativeWriteBuffer {
  return Buffer.allocUnsafe(bytes) as NativeWriteBuffer;
}

export class JsonWriter {
  /** Text output. */
  private out = '';
  /** Byte output (null in text mode), its DataView and the length written. */
  private buf: NativeWriteBuffer | null = null;
  private view: DataView | null = null;
  private pos = 0;
  /** Whether all byte output is ASCII (then its text is its latin1 decoding, a plain copy). */
  private ascii = true;
  /** Whether the current container already holds an element (the next one needs a comma). */
  private needComma = false;
  private state = TOP_EMPTY;
  private readonly stack: number[] = [];
  /** The bytes whose hex `sharedHexStr` wrote last, and where that hex is (output offset, or text). */
  private sharedBuffer: ArrayBufferLike | null = null;
  private sharedStart = 0;
  private sharedLength = 0;
  private sharedOutput = 0;
  private sharedText = '';

  /**
   * Without an argument the writer builds text. With `byteOutput` it writes bytes: the
   * expected size of the document, or memory to write it into from its start. Either way a
   * byte writer moves to a larger buffer when the text outgrows it; reused memory saves a
   * large document the page faults of fresh memory.
   */
  constructor(byteOutput?: number | Buffer) {
    if (byteOutput === undefined) return;
    let buf = typeof byteOutput === 'number' ? allocate(Math.max(16, byteOutput)) : (byteOutput as NativeWriteBuffer);
    if (buf.length === 0) buf = allocate(16);
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.length);
  }

  /** Makes room for `bytes` more bytes of byte output now, saving the step-by-step growth of a large document. */
  reserve(bytes: number): this {
    if (this.buf !== null) this.ensure(bytes);
    return this;
  }

  beginObject(): this {
    this.openValue(0x7b, '{');
    this.stack.push(this.state);
    this.state = OBJ_WANT_KEY;
    this.needComma = false;
    return this;
  }

  endObject(): this {
    if (this.state !== OBJ_WANT_KEY) {
      throw new Error(
        this.state === OBJ_WANT_VALUE
          ? 'JsonWriter: endObject() right after a key with no value'
          : 'JsonWriter: endObject() without a matching beginObject()',
      );
    }
    this.closeWith(0x7d, '}');
    return this;
  }

  beginArray(): this {
    this.openValue(0x5b, '[');
    this.stack.push(this.state);
    this.state = IN_ARRAY;
    this.needComma = false;
    return this;
  }

  endArray(): this {
    if (this.state !== IN_ARRAY) throw new Error('JsonWriter: endArray() without a matching beginArray()');
    this.closeWith(0x5d, ']');
    return this;
  }

  /** The next member's key; keys are escaped like strings. */
  key(k: string): this {
    if (this.state !== OBJ_WANT_KEY) {
      throw new Error(`JsonWriter: key ${JSON.stringify(k)} written outside an object or right after another key`);
    }
    this.state = OBJ_WANT_VALUE;
    if (this.buf !== null && k.length <= KEY_INLINE_MAX && this.plainKeyBytes(k)) return this;
    const quoted = quotedKey(k);
    if (quoted === null) {
      this.putText((this.needComma ? ',' : '') + quoteJsonString(k) + ':');
      return this;
    }
    const buf = this.buf;
    if (buf === null) {
      this.out += this.needComma ? ',' + quoted.text : quoted.text;
      return this;
    }
    const bytes = quoted.bytes;
    const n = bytes.length;
    this.ensure(n + 1);
    const out = this.buf!;
    let p = this.pos;
    if (this.needComma) out[p++] = COMMA;
    // Keys are short: a loop beats TypedArray.set's call cost.
    for (let i = 0; i < n; i++) out[p++] = bytes[i]!;
    this.pos = p;
    return this;
  }

  /**
   * Writes `,"k":` (comma as needed) straight from the key's characters when none needs
   * escaping, checking them as they are copied; returns false otherwise, with the output
   * unchanged (bytes past the write position may have been overwritten, the buffer grown).
   * Cheaper than the cache lookup: getblock verbosity 2 of a 2 MB block writes six per input.
   */
  private plainKeyBytes(k: string): boolean {
    const n = k.length;
    this.ensure(n + 4);
    const out = this.buf!;
    let p = this.pos;
    if (this.needComma) out[p++] = COMMA;
    out[p++] = QUOTE;
    for (let i = 0; i < n; i++) {
      const c = k.charCodeAt(i);
      if (c < 0x20 || c >= 0x7f || c === QUOTE || c === BACKSLASH) return false;
      out[p++] = c;
    }
    out[p++] = QUOTE;
    out[p++] = COLON;
    this.pos = p;
    return true;
  }

  str(s: string): this {
    const comma = this.comma();
    if (isPlainAscii(s)) this.quoted(comma, s);
    else this.putText(comma ? ',' + quoteJsonString(s) : quoteJsonString(s));
    return this;
  }

  /**
   * An ASCII string the caller knows needs no escaping (base58, fixed ASCII words). Skips the
   * escape scan; must be ASCII, since byte output copies it as latin1.
   */
  plainStr(s: string): this {
    this.quoted(this.comma(), s);
    return this;
  }

  /** `HexStr(bytes[start, end))` as a string value: the bytes in order, lowercase hex. */
  hexStr(bytes: Uint8Array, start = 0, end = bytes.length): this {
    const sep = this.comma() ? ',' : '';
    if (this.buf === null) {
      this.out += sep + '"' + this.hexText(bytes, start, end) + '"';
      return this;
    }
    this.ensure(2 * (end - start) + 3);
    if (sep) this.buf[this.pos++] = COMMA;
    this.buf[this.pos++] = QUOTE;
    this.hexBytes(bytes, start, end);
    this.buf[this.pos++] = QUOTE;
    return this;
  }

  /**
   * `HexStr(bytes)`, after which the hex of any view into these bytes (hexStr, stringHex) is
   * taken from this output instead of encoded again: a transaction's `hex`, then its fields.
   * `text`, when given, is that hex already written out (lowercase), copied instead of encoded.
   */
  sharedHexStr(bytes: Uint8Array, text?: Uint8Array): this {
    const sep = this.comma() ? ',' : '';
    this.sharedBuffer = bytes.buffer;
    this.sharedStart = bytes.byteOffset;
    this.sharedLength = bytes.length;
    if (this.buf === null) {
      this.sharedText = toHexAt(bytes, 0, bytes.length);
      this.out += sep + '"' + this.sharedText + '"';
      return this;
    }
    this.ensure(2 * bytes.length + 3);
    if (sep) this.buf[this.pos++] = COMMA;
    this.buf[this.pos++] = QUOTE;
    this.sharedOutput = this.pos;
    if (text !== undefined && text.length === 2 * bytes.length) {
      this.buf.set(text, this.pos);
      this.pos += text.length;
    } else this.encodeHex(bytes, 0, bytes.length);
    this.buf[this.pos++] = QUOTE;
    return this;
  }

  /**
   * sharedHexStr(bytes), its hex written by `encode` into this output at `at` when it can
   * (exactly 2 × bytes.length characters, and at most 32 bytes past them, which what follows
   * overwrites; true), as a module whose memory holds the output writes it in place; else
   * encoded here.
   */
  sharedHexStrEncodedBy(bytes: Uint8Array, encode: (bytes: Uint8Array, output: Buffer, at: number) => boolean): this {
    if (this.buf === null) return this.sharedHexStr(bytes);
    const sep = this.comma() ? ',' : '';
    this.sharedBuffer = bytes.buffer;
    this.sharedStart = bytes.byteOffset;
    this.sharedLength = bytes.length;
    this.ensure(2 * bytes.length + 35);
    if (sep) this.buf[this.pos++] = COMMA;
    this.buf[this.pos++] = QUOTE;
    this.sharedOutput = this.pos;
    if (encode(bytes, this.buf, this.pos)) this.pos += 2 * bytes.length;
    else this.encodeHex(bytes, 0, bytes.length);
    this.buf[this.pos++] = QUOTE;
    return this;
  }

  /** `uint256::GetHex` of `bytes[start, start + n)`: the bytes reversed, lowercase hex. */
  hexStrReversed(bytes: Uint8Array, start = 0, n = bytes.length - start): this {
    const sep = this.comma() ? ',' : '';
    if (this.buf === null) {
      this.out += sep + '"' + toHexReversedAt(bytes, start, n) + '"';
      return this;
    }
    this.ensure(2 * n + 3);
    const view = this.view!;
    let p = this.pos;
    if (sep) this.buf[p++] = COMMA;
    this.buf[p++] = QUOTE;
    p = putHexReversed(view, p, bytes, start, n);
    this.buf[p++] = QUOTE;
    this.pos = p;
    return this;
  }

  /**
   * Opens a string value written in pieces (stringText, stringHex) up to closeString(): text
   * such as a script's `asm`, made of hex pushes and opcode names, without building it first.
   */
  openString(): this {
    this.openValue(QUOTE, '"');
    this.stack.push(this.state);
    this.state = IN_STRING;
    return this;
  }

  /** A piece of an open string: ASCII that needs no escaping. */
  stringText(s: string): this {
    if (this.state !== IN_STRING) throw new Error('JsonWriter: stringText() outside openString()');
    this.put(s);
    return this;
  }

  /** A piece of an open string: `HexStr(bytes[start, end))`. */
  stringHex(bytes: Uint8Array, start: number, end: number): this {
    if (this.state !== IN_STRING) throw new Error('JsonWriter: stringHex() outside openString()');
    if (this.buf === null) this.out += this.hexText(bytes, start, end);
    else {
      this.ensure(2 * (end - start));
      this.hexBytes(bytes, start, end);
    }
    return this;
  }

  closeString(): this {
    if (this.state !== IN_STRING) throw new Error('JsonWriter: closeString() without openString()');
    if (this.buf === null) this.out += '"';
    else this.byte(QUOTE);
    this.state = this.stack.pop()!;
    return this;
  }

  /** An integer as plain decimal; values beyond ±2^53 (e.g. uint64) must be bigints. */
  int(n: number | bigint): this {
    if (this.buf !== null && typeof n === 'number' && n >= 0 && n <= 0xffffffff && n === Math.floor(n)) {
      if (this.comma()) this.byte(COMMA);
      this.digits(n);
    } else this.token(formatInteger(n));
    return this;
  }

  bool(b: boolean): this {
    this.token(b ? 'true' : 'false');
    return this;
  }

  null(): this {
    this.token('null');
    return this;
  }

  /** `ValueFromAmount`: a zatoshi amount as the number token `[-]int.8digits`. */
  amount(zat: number | bigint): this {
    // Byte output writes the digits of ordinary amounts itself (every value of a block is one).
    if (this.buf !== null && isOrdinaryAmount(zat)) {
      if (this.comma()) this.byte(COMMA);
      this.amountDigits(zat);
    } else this.token(formatAmount(zat));
    return this;
  }

  /** `[-]whole.8digits` of an ordinary amount (isOrdinaryAmount) into byte output. */
  private amountDigits(zat: number): void {
    const abs = Math.abs(zat);
    const whole = Math.floor(abs / ZAT_PER_ZEC);
    if (zat < 0) this.byte(0x2d);
    this.digits(whole);
    this.ensure(9);
    const buf = this.buf!;
    buf[this.pos++] = 0x2e;
    let frac = abs - whole * ZAT_PER_ZEC;
    for (let p = this.pos + 7; p >= this.pos; p--) {
      const q = Math.floor(frac / 10);
      buf[p] = 0x30 + (frac - 10 * q);
      frac = q;
    }
    this.pos += 8;
  }

  /** Whether this writer writes bytes (the pieces below are for byte output only). */
  get writesBytes(): boolean {
    return this.buf !== null;
  }

  /**
   * Byte output only: opens one value that the caller writes as pieces (fixed ASCII fragments,
   * numbers, hex, plain ASCII text) up to endPieces(). The separator is written as for any
   * value; the pieces are not checked, so together they must be one valid JSON value. For
   * fixed-shape values on hot paths (a standard transparent output of getblock verbosity 2),
   * whose text-output rendering writes the same value member by member.
   */
  beginPieces(): this {
    if (this.buf === null) throw new Error('JsonWriter: beginPieces() needs byte output');
    if (this.comma()) this.byte(COMMA);
    this.stack.push(this.state);
    this.state = IN_PIECES;
    return this;
  }

  /** A fixed fragment of JSON text. */
  piece(fragment: JsonFragment): this {
    this.checkPieces();
    // Whole words, so up to 3 bytes past the fragment are written too (and then overwritten by
    // what follows, or left past the end of the text).
    this.ensure(fragment.length + 3);
    const view = this.view!;
    const words = fragment.words;
    let p = this.pos;
    for (let i = 0; i < words.length; i++, p += 4) view.setUint32(p, words[i]!, true);
    this.pos += fragment.length;
    return this;
  }

  /** An integer's token, as int() writes it. */
  pieceInt(n: number): this {
    this.checkPieces();
    if (n >= 0 && n <= 0xffffffff && n === Math.floor(n)) this.digits(n);
    else this.put(formatInteger(n));
    return this;
  }

  /** An amount's token, as amount() writes it. */
  pieceAmount(zat: number): this {
    this.checkPieces();
    if (isOrdinaryAmount(zat)) this.amountDigits(zat);
    else this.put(formatAmount(zat));
    return this;
  }

  /** The hex of bytes[start, end), as hexStr() writes it without its quotes. */
  pieceHex(bytes: Uint8Array, start: number, end: number): this {
    this.checkPieces();
    this.ensure(2 * (end - start));
    this.hexBytes(bytes, start, end);
    return this;
  }

  /** The reversed hex of bytes[start, start + n), as hexStrReversed() writes it without its quotes. */
  pieceHexReversed(bytes: Uint8Array, start: number, n: number): this {
    this.checkPieces();
    this.ensure(2 * n);
    this.pos = putHexReversed(this.view!, this.pos, bytes, start, n);
    return this;
  }

  /** ASCII needing no escaping, as a string (an opcode's name, a number): as stringText() writes it. */
  pieceText(s: string): this {
    this.checkPieces();
    this.put(s);
    return this;
  }

  /** ASCII needing no escaping, as bytes (a base58 address): `text[start, end)`, as plainStr() writes it without its quotes. */
  pieceAscii(text: Uint8Array, start: number, end: number): this {
    this.checkPieces();
    this.ensure(end - start);
    const buf = this.buf!;
    let p = this.pos;
    for (let i = start; i < end; i++) buf[p++] = text[i]!;
    this.pos = p;
    return this;
  }

  /**
   * Byte output only: complete JSON values joined by commas, `bytes[start, end)`, as the next
   * elements of the open array (a run of a transaction's inputs written in WebAssembly). They
   * are not checked, so they must be valid JSON, and ASCII.
   */
  rawElements(bytes: Uint8Array, start: number, end: number): this {
    if (this.buf === null) throw new Error('JsonWriter: rawElements() needs byte output');
    if (this.state !== IN_ARRAY) throw new Error('JsonWriter: rawElements() outside an array');
    if (end <= start) return this;
    const n = end - start;
    this.ensure(n + 1);
    if (this.comma()) this.buf[this.pos++] = COMMA;
    this.buf.set(bytes.subarray(start, end), this.pos);
    this.pos += n;
    return this;
  }

  /**
   * Byte output only, in an open array: makes room for `room` bytes of elements and returns the
   * output and the offset at which the next elements go (after a comma when one is due), for a
   * writer that writes into that memory itself (a run of inputs written in WebAssembly straight
   * into the reply: rawElements without its copy). `elementsWritten(n)` then takes the `n` bytes
   * written there; the output is valid until the writer's next call.
   */
  elementsPlace(room: number): { output: Buffer; at: number } {
    if (this.buf === null) throw new Error('JsonWriter: elementsPlace() needs byte output');
    if (this.state !== IN_ARRAY) throw new Error('JsonWriter: elementsPlace() outside an array');
    this.ensure(room + 1);
    return { output: this.buf, at: this.needComma ? this.pos + 1 : this.pos };
  }

  /** The `n` bytes of complete elements written at elementsPlace()'s offset (as rawElements, unchecked). */
  elementsWritten(n: number): this {
    if (this.buf === null || this.state !== IN_ARRAY) throw new Error('JsonWriter: elementsWritten() outside an array of byte output');
    if (n <= 0) return this;
    if (this.comma()) this.buf[this.pos++] = COMMA;
    if (this.pos + n > this.buf.length) throw new RangeError('JsonWriter: elementsWritten() past the output');
    this.pos += n;
    return this;
  }

  endPieces(): this {
    this.checkPieces();
    this.state = this.stack.pop()!;
    this.needComma = true;
    return this;
  }

  private checkPieces(): void {
    if (this.state !== IN_PIECES) throw new Error('JsonWriter: a piece written outside beginPieces() … endPieces()');
  }

  /**
   * A double as `%.16g`. NaN/Infinity write an empty token (invalid JSON such as
   * `"difficulty":,`), exactly as zcashd does.
   */
  double(d: number): this {
    this.token(formatDouble(d));
    return this;
  }

  /** An already-serialized compact JSON value, inserted verbatim. */
  raw(jsonText: string): this {
    this.putText(this.comma() ? ',' + jsonText : jsonText);
    return this;
  }

  /** Any JsonValue; a JsonNumber writes its exact token text, object members keep their order and duplicates. */
  value(v: JsonValue): this {
    if (v === null) return this.null();
    if (typeof v === 'string') return this.str(v);
    if (typeof v === 'boolean') return this.bool(v);
    if (v instanceof JsonNumber) return this.raw(v.text);
    if (Array.isArray(v)) {
      this.beginArray();
      for (const item of v) this.value(item);
      return this.endArray();
    }
    this.beginObject();
    for (const [k, item] of v.entries) this.key(k).value(item);
    return this.endObject();
  }

  /** The compact text; every container must be closed. */
  toString(): string {
    this.checkComplete();
    if (this.buf === null) return this.out;
    return this.buf.toString(this.ascii ? 'latin1' : 'utf8', 0, this.pos);
  }

  /**
   * The compact text as UTF-8 bytes; every container must be closed. From byte output, a view
   * of the writer's buffer: write nothing more afterwards.
   */
  toBuffer(): Buffer {
    this.checkComplete();
    if (this.buf === null) return Buffer.from(this.out, NON_ASCII.test(this.out) ? 'utf8' : 'latin1');
    return this.buf.subarray(0, this.pos);
  }

  private checkComplete(): void {
    if (this.stack.length !== 0) throw new Error(`JsonWriter: ${this.stack.length} container(s) still open`);
  }

  /** Hex text of bytes[start, end), a slice of the shared hex when it lies there (O(1) in V8). */
  private hexText(bytes: Uint8Array, start: number, end: number): string {
    if (bytes.buffer === this.sharedBuffer && end - start >= MIN_SLICED_HEX_BYTES) {
      const offset = bytes.byteOffset + start - this.sharedStart;
      if (offset >= 0 && offset + (end - start) <= this.sharedLength) return this.sharedText.slice(2 * offset, 2 * (offset + end - start));
    }
    return toHexAt(bytes, start, end);
  }

  /** Hex bytes of bytes[start, end), copied from the shared hex when it lies there; room ensured by the caller. */
  private hexBytes(bytes: Uint8Array, start: number, end: number): void {
    if (bytes.buffer === this.sharedBuffer && end - start >= MIN_COPIED_HEX_BYTES) {
      const offset = bytes.byteOffset + start - this.sharedStart;
      if (offset >= 0 && offset + (end - start) <= this.sharedLength) {
        const from = this.sharedOutput + 2 * offset;
        this.buf!.copyWithin(this.pos, from, from + 2 * (end - start));
        this.pos += 2 * (end - start);
        return;
      }
    }
    this.encodeHex(bytes, start, end);
  }

  /** Room ensured by the caller. */
  private encodeHex(bytes: Uint8Array, start: number, end: number): void {
    if (end - start >= MIN_WASM_HEX_BYTES && wasmHexInto(bytes, start, end, this.buf!, this.pos)) {
      this.pos += 2 * (end - start);
      return;
    }
    const view = this.view!;
    let p = this.pos;
    let i = start;
    for (; i + 1 < end; i += 2) {
      view.setUint32(p, HEX_OF_PAIR[bytes[i]! | (bytes[i + 1]! << 8)]!, true);
      p += 4;
    }
    if (i < end) {
      view.setUint16(p, HEX_OF_BYTE[bytes[i]!]!, true);
      p += 2;
    }
    this.pos = p;
  }

  /** 0 ≤ n < 2^32, an integer, into byte output. */
  private digits(n: number): void {
    let len = 1;
    for (let bound = 10; n >= bound; bound *= 10) len++;
    this.ensure(len);
    const view = this.view!;
    let p = this.pos + len;
    this.pos = p;
    // Two digits per division: sequence numbers (4294967295) are ten digits, in every input.
    while (n >= 100) {
      const q = Math.floor(n / 100);
      p -= 2;
      view.setUint16(p, DIGIT_PAIRS[n - 100 * q]!, true);
      n = q;
    }
    if (n >= 10) view.setUint16(p - 2, DIGIT_PAIRS[n]!, true);
    else this.buf![p - 1] = 0x30 + n;
  }

  /** ASCII text. */
  private put(s: string): void {
    if (this.buf === null) {
      this.out += s;
      return;
    }
    const n = s.length;
    this.ensure(n);
    if (n >= MIN_NATIVE_WRITE_CHARS) {
      this.pos += this.buf.latin1Write(s, this.pos);
      return;
    }
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) buf[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** Text that may hold any character. */
  private putText(s: string): void {
    // Text output checks for non-ASCII once, in toBuffer().
    if (this.buf === null) {
      this.out += s;
      return;
    }
    if (!NON_ASCII.test(s)) return this.put(s);
    this.ascii = false;
    this.ensure(3 * s.length); // UTF-8 never needs more than 3 bytes per UTF-16 unit
    this.pos += this.buf.utf8Write(s, this.pos);
  }

  private byte(b: number): void {
    this.ensure(1);
    this.buf![this.pos++] = b;
  }

  private ensure(more: number): void {
    const buf = this.buf!;
    const need = this.pos + more;
    if (need <= buf.length) return;
    const grown = allocate(Math.max(2 * buf.length, need));
    buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
    this.view = new DataView(grown.buffer, grown.byteOffset, grown.length);
  }

  /**
   * Checks that a value may be written here, moves to the state after it, and says whether a
   * comma goes before it.
   */
  private comma(): boolean {
    switch (this.state) {
      case IN_ARRAY:
        if (this.needComma) return true;
        this.needComma = true;
        return false;
      case OBJ_WANT_VALUE:
        this.state = OBJ_WANT_KEY;
        this.needComma = true;
        return false;
      case TOP_EMPTY:
        this.state = TOP_DONE;
        return false;
      case OBJ_WANT_KEY:
        throw new Error('JsonWriter: value written in an object without a key');
      case IN_STRING:
        throw new Error('JsonWriter: value written inside an open string');
      case IN_PIECES:
        throw new Error('JsonWriter: value written between beginPieces() and endPieces()');
      default:
        throw new Error('JsonWriter: a second top-level value');
    }
  }

  /** A value's separator (if any) and one structural byte (`{`, `[`, `"`). */
  private openValue(c: number, text: string): void {
    const comma = this.comma();
    if (this.buf === null) {
      this.out += comma ? ',' + text : text;
      return;
    }
    this.ensure(2);
    if (comma) this.buf[this.pos++] = COMMA;
    this.buf[this.pos++] = c;
  }

  /** A value's separator (if any) and `s` quoted, for ASCII needing no escaping. */
  private quoted(comma: boolean, s: string): void {
    if (this.buf === null) {
      this.out += comma ? ',"' + s + '"' : '"' + s + '"';
      return;
    }
    this.ensure(2);
    if (comma) this.buf[this.pos++] = COMMA;
    this.buf[this.pos++] = QUOTE;
    this.put(s);
    this.byte(QUOTE);
  }

  /** A value's separator (if any) and an ASCII token. */
  private token(text: string): void {
    const comma = this.comma();
    if (this.buf === null) this.out += comma ? ',' + text : text;
    else {
      // No concatenation here: reading characters of a concatenated string flattens it first.
      if (comma) this.byte(COMMA);
      this.put(text);
    }
  }

  private closeWith(c: number, text: string): void {
    if (this.buf === null) this.out += text;
    else this.byte(c);
    this.state = this.stack.pop()!;
    // The parent already counted this container as written (separator ran at begin*).
    this.needComma = true;
  }
}

/**
 * The hex of bytes[start, start + n) in reverse byte order (a hash as zcashd prints it) at `p`;
 * returns the position after it. A byte at a time from the 512-byte table: these are short
 * (hashes), written between long runs of other output that push the 256 KB pair table out of
 * the cache.
 */
function putHexReversed(view: DataView, p: number, bytes: Uint8Array, start: number, n: number): number {
  for (let j = start + n - 1; j >= start; j--) {
    view.setUint16(p, HEX_OF_BYTE[bytes[j]!]!, true);
    p += 2;
  }
  return p;
}
