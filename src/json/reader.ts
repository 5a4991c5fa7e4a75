/**
 * UniValue's reader (src/univalue/lib/univalue_read.cpp, rpc-http-json.md §4.5), run over the
 * raw request bytes:
 *
 * - whitespace is only space, \t, \n, \r (so a UTF-8 BOM is an error); nothing but
 *   whitespace may follow the first complete value; top-level scalars are accepted;
 * - numbers follow the JSON grammar and keep their token text (JsonNumber);
 * - objects keep every member in order, duplicates included (lookups take the first);
 * - nesting deeper than 512 containers is an error.
 * - One quirk is kept: a lone `-` at the very end of the input is a complete number token in
 *   UniValue (its "digit must follow" check only runs when another byte follows), so the
 *   body `-` reads as the number text "-". Anywhere else it is an error.
 *
 * Strings go through UniValue's UTF-8 filter: raw bytes are decoded structurally (bad lead
 * or continuation bytes are errors), overlong forms are accepted, `\uXXXX` escapes and even
 * UTF-8-encoded surrogate halves pair up, an unpaired surrogate is an error, and every code
 * point is re-encoded canonically. So `C0 80` reads as U+0000, the same string zcashd holds.
 *
 * Representation choice: a string is a JavaScript string of the decoded code points. The one
 * thing zcashd can hold that a JavaScript string cannot is a code point above U+10FFFF (from
 * lead bytes F4 90.. to F7, which the filter accepts and re-encodes as 4 non-UTF-8 bytes);
 * such a code point reads as U+FFFD. That is the only divergence: zcashd would echo those 4
 * bytes raw, zecrpc echoes EF BF BD.
 */
import { Buffer } from 'node:buffer';
import { defineLazyString, LAZY_STRING_MIN_BYTES, type LazyStringScope } from './lazy-strings.js';
import type { KnownRuns } from './known-strings.js';
import type { HexRuns } from './hex-runs.js';
import { decodesAsHexAhead, isPlainAsciiBytes, readPlainAsciiString } from './plain-strings.js';
import { JsonNumber, JsonObject, type JsonValue } from './value.js';

export class JsonParseError extends Error {
  constructor(
    message: string,
    /** Byte offset in the input where the problem was found, when known. */
    readonly offset?: number,
  ) {
    super(offset === undefined ? message : `${message} at byte ${offset}`);
    this.name = 'JsonParseError';
  }
}

const MAX_DEPTH = 512;

const enum Ch {
  Tab = 0x09,
  LF = 0x0a,
  CR = 0x0d,
  Space = 0x20,
  Quote = 0x22,
  Comma = 0x2c,
  Minus = 0x2d,
  Dot = 0x2e,
  Zero = 0x30,
  Nine = 0x39,
  Colon = 0x3a,
  E = 0x45,
  OpenBracket = 0x5b,
  Backslash = 0x5c,
  CloseBracket = 0x5d,
  e = 0x65,
  OpenBrace = 0x7b,
  CloseBrace = 0x7d,
  Plus = 0x2b,
}

function isDigit(c: number): boolean {
  return c >= Ch.Zero && c <= Ch.Nine;
}

/** Strings up to this many bytes are read byte by byte, longer ones with native scans. */
const SHORT_STRING_BYTES = 128;

/**
 * A request envelope's member names, each with its closing quote: a key whose bytes are one of
 * them is that name, given as this string rather than one made from the body per request.
 */
const ENVELOPE_KEYS: readonly { name: string; bytes: Uint8Array }[] = ['id', 'method', 'params', 'jsonrpc'].map((name) => ({
  name,
  bytes: Buffer.from(`${name}"`, 'latin1'),
}));

/** The texts of the one-digit numbers (ids, verbosity flags), likewise. */
const DIGIT_TEXTS: readonly string[] = Array.from({ length: 10 }, (_, d) => String(d));

export interface ParseOptions {
  /**
   * Leave array elements that are plain ASCII strings of at least LAZY_STRING_MIN_BYTES as
   * ranges of the input (lazy-strings.ts), valid while this scope is open. The value read is
   * the same either way; only when the string is made differs.
   */
  lazyStrings?: LazyStringScope;
  /**
   * Long strings of the input found equal to strings the server holds checked (by
   * parsedSizeEstimate): with lazyStrings, array elements read as the held string itself
   * without being scanned again.
   */
  knownRuns?: KnownRuns;
  /**
   * Long strings of the input found to be hex by parsedSizeEstimate: with lazyStrings, array
   * elements read as the view it decoded without being scanned again.
   */
  hexRuns?: HexRuns;
}

/** Parses a whole JSON text (a JS string is taken as its UTF-8 encoding) into a JsonValue. */
export function parseJson(input: string | Uint8Array, options: ParseOptions = {}): JsonValue {
  const bytes =
    typeof input === 'string'
      ? Buffer.from(input, 'utf8')
      : Buffer.isBuffer(input)
        ? input
        : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  return new Reader(bytes, options.lazyStrings ?? null, options.knownRuns ?? null, options.hexRuns ?? null).readDocument();
}

class Reader {
  private pos = 0;
  private readonly end: number;

  constructor(
    private readonly buf: Buffer,
    private readonly lazyStrings: LazyStringScope | null,
    private readonly knownRuns: KnownRuns | null,
    private readonly hexRuns: HexRuns | null,
  ) {
    this.end = buf.length;
  }

  readDocument(): JsonValue {
    const value = this.readValue(0);
    this.skipWhitespace();
    if (this.pos < this.end) this.fail('unexpected data after the JSON value');
    return value;
  }

  private fail(message: string, at = this.pos): never {
    throw new JsonParseError(message, at);
  }

  private skipWhitespace(): void {
    const { buf, end } = this;
    let p = this.pos;
    while (p < end) {
      const c = buf[p]!;
      if (c !== Ch.Space && c !== Ch.Tab && c !== Ch.LF && c !== Ch.CR) break;
      p++;
    }
    this.pos = p;
  }

  /** `depth` = number of containers already open around this value. */
  private readValue(depth: number): JsonValue {
    this.skipWhitespace();
    if (this.pos >= this.end) this.fail('unexpected end of input, expected a value');
    const c = this.buf[this.pos]!;
    switch (c) {
      case Ch.OpenBrace:
        return this.readObject(depth + 1);
      case Ch.OpenBracket:
        return this.readArray(depth + 1);
      case Ch.Quote:
        return this.readString();
      case 0x6e /* n */:
        return this.readKeyword('null', null);
      case 0x74 /* t */:
        return this.readKeyword('true', true);
      case 0x66 /* f */:
        return this.readKeyword('false', false);
      default:
        if (c === Ch.Minus || isDigit(c)) return this.readNumber();
        return this.fail(`unexpected byte 0x${c.toString(16).padStart(2, '0')}, expected a value`);
    }
  }

  private readKeyword<T extends JsonValue>(word: string, value: T): T {
    const start = this.pos;
    for (let i = 0; i < word.length; i++) {
      if (this.buf[start + i] !== word.charCodeAt(i)) this.fail(`invalid literal (expected "${word}")`, start);
    }
    this.pos = start + word.length;
    return value;
  }

  private readNumber(): JsonNumber {
    const { buf, end } = this;
    const start = this.pos;
    let p = start;
    const firstDigit = buf[p] === Ch.Minus ? p + 1 : p;
    if (buf[firstDigit] === Ch.Zero && firstDigit + 1 < end && isDigit(buf[firstDigit + 1]!)) {
      this.fail('invalid number (leading zero)', start);
    }
    if (buf[p] === Ch.Minus) {
      p++;
      // UniValue only demands a digit after '-' when another byte follows (see header).
      if (p < end && !isDigit(buf[p]!)) this.fail('invalid number (no digit after "-")', start);
    }
    while (p < end && isDigit(buf[p]!)) p++;
    if (p < end && buf[p] === Ch.Dot) {
      p++;
      if (p >= end || !isDigit(buf[p]!)) this.fail('invalid number (no digit after ".")', start);
      while (p < end && isDigit(buf[p]!)) p++;
    }
    if (p < end && (buf[p] === Ch.e || buf[p] === Ch.E)) {
      p++;
      if (p < end && (buf[p] === Ch.Minus || buf[p] === Ch.Plus)) p++;
      if (p >= end || !isDigit(buf[p]!)) this.fail('invalid number (no digit in exponent)', start);
      while (p < end && isDigit(buf[p]!)) p++;
    }
    this.pos = p;
    // A lone `-` is a number too (above): only a digit has a text kept.
    const digit = buf[start]! - Ch.Zero;
    return new JsonNumber(p === start + 1 && digit >= 0 && digit <= 9 ? DIGIT_TEXTS[digit]! : buf.toString('latin1', start, p));
  }

  /** A member name: an envelope's as its constant string, any other as readString reads it. */
  private readKey(): string {
    const { buf } = this;
    const start = this.pos + 1;
    for (const key of ENVELOPE_KEYS) {
      const bytes = key.bytes;
      if (start + bytes.length > this.end) continue;
      let i = 0;
      while (i < bytes.length && buf[start + i] === bytes[i]) i++;
      if (i < bytes.length) continue;
      this.pos = start + bytes.length;
      return key.name;
    }
    return this.readString();
  }

  private readString(): string {
    const { buf, end } = this;
    const start = this.pos + 1; // after the opening quote
    // Short strings (member names, method names, hashes) byte by byte: the loop is done before
    // the native scans below would have begun.
    let p = start;
    const shortEnd = Math.min(end, start + SHORT_STRING_BYTES);
    while (p < shortEnd) {
      const c = buf[p]!;
      if (c === Ch.Quote) {
        this.pos = p + 1;
        return buf.toString('latin1', start, p);
      }
      if (c < 0x20 || c === Ch.Backslash || c >= 0x80) return this.readStringSlow(start, p);
      p++;
    }
    // Longer ones: printable ASCII with no escapes is the string as is. Finding the closing
    // quote with native indexOf and checking the slice natively beats a byte loop for long
    // strings (a raw transaction's hex).
    const q = buf.indexOf(Ch.Quote, p);
    if (q >= 0) {
      const s = readPlainAsciiString(buf, start, q);
      if (s !== null) {
        this.pos = q + 1;
        return s;
      }
    }
    while (p < end) {
      const c = buf[p]!;
      if (c === Ch.Quote) {
        this.pos = p + 1;
        return buf.toString('latin1', start, p);
      }
      if (c < 0x20 || c === Ch.Backslash || c >= 0x80) break;
      p++;
    }
    return this.readStringSlow(start, p);
  }

  /** The UTF-8 filter (univalue_utffilter.h) from `p` on; bytes start..p are plain ASCII. */
  private readStringSlow(start: number, p: number): string {
    const { buf, end } = this;
    const out = new Utf8Filter(buf, start, p);
    for (;;) {
      if (p >= end) this.fail('unterminated string', start - 1);
      const c = buf[p]!;
      if (c < 0x20) this.fail('control character in string', p);
      if (c === Ch.Quote) break;
      if (c === Ch.Backslash) {
        p++;
        if (p >= end) this.fail('unterminated string', start - 1);
        const esc = buf[p]!;
        switch (esc) {
          case Ch.Quote:
          case Ch.Backslash:
          case 0x2f /* / */:
            out.pushByte(esc);
            break;
          case 0x62 /* b */:
            out.pushByte(0x08);
            break;
          case 0x66 /* f */:
            out.pushByte(0x0c);
            break;
          case 0x6e /* n */:
            out.pushByte(0x0a);
            break;
          case 0x72 /* r */:
            out.pushByte(0x0d);
            break;
          case 0x74 /* t */:
            out.pushByte(0x09);
            break;
          case 0x75 /* u */: {
            // UniValue wants 4 hex digits and at least one more byte after them.
            if (p + 5 >= end) this.fail('truncated \\u escape', p - 1);
            let cp = 0;
            for (let i = 1; i <= 4; i++) {
              const h = hexValue(buf[p + i]!);
              if (h < 0) this.fail('invalid \\u escape', p - 1);
              cp = cp * 16 + h;
            }
            out.pushCodePoint(cp);
            p += 4;
            break;
          }
          default:
            this.fail('invalid escape in string', p - 1);
        }
        p++;
      } else {
        out.pushByte(c);
        p++;
      }
    }
    this.pos = p + 1;
    const s = out.finish();
    if (s === undefined) this.fail('invalid UTF-8 or unpaired surrogate in string', start - 1);
    return s;
  }

  private readArray(depth: number): JsonValue[] {
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH}`);
    this.pos++; // [
    const items: JsonValue[] = [];
    this.skipWhitespace();
    if (this.buf[this.pos] === Ch.CloseBracket) {
      this.pos++;
      return items;
    }
    for (;;) {
      if (this.lazyStrings === null || !this.readLazyElement(items, this.lazyStrings)) items.push(this.readValue(depth));
      this.skipWhitespace();
      const c = this.buf[this.pos];
      if (c === Ch.Comma) {
        this.pos++;
      } else if (c === Ch.CloseBracket) {
        this.pos++;
        return items;
      } else {
        this.fail(c === undefined ? 'unexpected end of input in array' : 'expected "," or "]" in array');
      }
    }
  }

  /**
   * A long plain string as the next element of `items`, left as a range of the input; false
   * (nothing read) for any other value, which then takes the ordinary path and its errors.
   */
  private readLazyElement(items: JsonValue[], scope: LazyStringScope): boolean {
    this.skipWhitespace();
    const { buf } = this;
    if (buf[this.pos] !== Ch.Quote) return false;
    const start = this.pos + 1;
    // Equal to a string held checked: the element is that string, and the next quote is known.
    const known = this.knownRuns?.from(start);
    if (known !== undefined && known.length >= LAZY_STRING_MIN_BYTES) {
      items.push(known);
      this.pos = start + known.length + 1;
      return true;
    }
    // Found to be hex by the size estimate: the element is the view it decoded, up to the next quote.
    const hex = this.hexRuns?.from(start);
    if (hex !== undefined) {
      items.push(null);
      defineLazyString(items, items.length - 1, hex, scope);
      this.pos = start + hex.length + 1;
      return true;
    }
    const q = buf.indexOf(Ch.Quote, start);
    if (q - start < LAZY_STRING_MIN_BYTES) return false;
    const body = buf.subarray(start, q);
    // With the estimate's record, a run it did not record is not hex: only the ordinary checks are left.
    const plain = this.hexRuns === null ? decodesAsHexAhead(body) || isPlainAsciiBytes(body) : isPlainAsciiBytes(body);
    if (!plain) return false;
    items.push(null);
    defineLazyString(items, items.length - 1, body, scope);
    this.pos = q + 1;
    return true;
  }

  private readObject(depth: number): JsonObject {
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH}`);
    this.pos++; // {
    const obj = new JsonObject();
    this.skipWhitespace();
    if (this.buf[this.pos] === Ch.CloseBrace) {
      this.pos++;
      return obj;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.pos >= this.end) this.fail('unexpected end of input in object');
      if (this.buf[this.pos] !== Ch.Quote) this.fail('expected a string key in object');
      const key = this.readKey();
      this.skipWhitespace();
      if (this.buf[this.pos] !== Ch.Colon) this.fail('expected ":" after object key');
      this.pos++;
      obj.entries.push([key, this.readValue(depth)]);
      this.skipWhitespace();
      const c = this.buf[this.pos];
      if (c === Ch.Comma) {
        this.pos++;
      } else if (c === Ch.CloseBrace) {
        this.pos++;
        return obj;
      } else {
        this.fail(c === undefined ? 'unexpected end of input in object' : 'expected "," or "}" in object');
      }
    }
  }
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/**
 * UniValue's JSONUTF8StringFilter: decodes bytes and `\u` escapes into code points, pairs
 * surrogate halves, and re-encodes each code point as UTF-8. Mirrors its state machine
 * exactly, including that a plain ASCII byte does not close an open surrogate pair (only
 * the end of the string or another code point does).
 */
class Utf8Filter {
  /**
   * The UTF-8 written so far, `out[0, length)`, grown by doubling: a number per byte (an array
   * of them) took about 27 times a long string's size while it was read.
   */
  private out: Buffer;
  private length = 0;
  private valid = true;
  private codePoint = 0;
  /** Bits still to be filled by continuation bytes (6, 12, 18), 0 between sequences. */
  private state = 0;
  /** An open high surrogate, or 0. */
  private surrogate = 0;

  constructor(buf: Buffer, asciiStart: number, asciiEnd: number) {
    // The ASCII run and a little room: the string's output is never longer than its input, and
    // the run may be nearly all of it.
    this.out = Buffer.allocUnsafe(asciiEnd - asciiStart + 64);
    this.length = buf.copy(this.out, 0, asciiStart, asciiEnd);
  }

  /** Appends one byte of output. */
  private put(b: number): void {
    if (this.length === this.out.length) {
      const grown = Buffer.allocUnsafe(2 * this.out.length);
      this.out.copy(grown, 0, 0, this.length);
      this.out = grown;
    }
    this.out[this.length++] = b;
  }

  pushByte(ch: number): void {
    if (this.state === 0) {
      if (ch < 0x80) this.put(ch);
      else if (ch < 0xc0)
        this.valid = false; // continuation byte without a lead
      else if (ch < 0xe0) {
        this.codePoint = (ch & 0x1f) << 6;
        this.state = 6;
      } else if (ch < 0xf0) {
        this.codePoint = (ch & 0x0f) << 12;
        this.state = 12;
      } else if (ch < 0xf8) {
        this.codePoint = (ch & 0x07) << 18;
        this.state = 18;
      } else this.valid = false;
    } else {
      if ((ch & 0xc0) !== 0x80) this.valid = false;
      this.state -= 6;
      this.codePoint |= (ch & 0x3f) << this.state;
      if (this.state === 0) this.pushCodePoint(this.codePoint);
    }
  }

  pushCodePoint(cp: number): void {
    if (this.state !== 0) this.valid = false; // an escape in the middle of a UTF-8 sequence
    if (cp >= 0xd800 && cp < 0xdc00) {
      if (this.surrogate) this.valid = false;
      else this.surrogate = cp;
    } else if (cp >= 0xdc00 && cp < 0xe000) {
      if (this.surrogate) {
        this.append(0x10000 | ((this.surrogate - 0xd800) << 10) | (cp - 0xdc00));
        this.surrogate = 0;
      } else this.valid = false;
    } else if (this.surrogate) {
      this.valid = false;
    } else {
      this.append(cp);
    }
  }

  /** The decoded string, or undefined when the filter saw invalid input. */
  finish(): string | undefined {
    if (!this.valid || this.state !== 0 || this.surrogate !== 0) return undefined;
    return this.out.toString('utf8', 0, this.length);
  }

  private append(cp: number): void {
    if (cp <= 0x7f) this.put(cp);
    else if (cp <= 0x7ff) {
      this.put(0xc0 | (cp >> 6));
      this.put(0x80 | (cp & 0x3f));
    } else if (cp <= 0xffff) {
      this.put(0xe0 | (cp >> 12));
      this.put(0x80 | ((cp >> 6) & 0x3f));
      this.put(0x80 | (cp & 0x3f));
    } else if (cp <= 0x10ffff) {
      this.put(0xf0 | (cp >> 18));
      this.put(0x80 | ((cp >> 12) & 0x3f));
      this.put(0x80 | ((cp >> 6) & 0x3f));
      this.put(0x80 | (cp & 0x3f));
    } else {
      // beyond Unicode: see the module comment (U+FFFD)
      this.put(0xef);
      this.put(0xbf);
      this.put(0xbd);
    }
  }
}
