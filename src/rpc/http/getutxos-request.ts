/**
 * What `/rest/getutxos` asks for, parsed as zcashd v6.12.2's `rest_getutxos` (src/rest.cpp)
 * parses it: outpoints `txid-n` in the path (after an optional `checkmempool`), or for `.bin` and
 * `.hex` a POSTed body, with zcashd's checks in zcashd's order and its error texts.
 *
 * zcashd deserialises the body after writing it into a stream as a `std::string`, so the stream
 * starts with the body's CompactSize length: the `checkmempool` flag it reads first is that
 * length's first byte (never zero for a non-empty body), and the outpoint vector is read from
 * the rest of the length's bytes followed by the body. Clients that send BIP 64's
 * `bool ‖ vector<COutPoint>` get what zcashd gives them, which this reproduces byte for byte.
 */

/** MAX_GETUTXOS_OUTPOINTS. */
export const MAX_GETUTXOS_OUTPOINTS = 15;

/** zcashd's MAX_SIZE, the largest CompactSize ReadCompactSize accepts. */
const MAX_COMPACT_SIZE = 0x02000000;

/** A COutPoint: the txid in internal byte order and the output index as uint32. */
export interface OutPoint {
  txid: Uint8Array;
  n: number;
}

export type GetUtxosFormat = 'bin' | 'hex' | 'json';

export interface GetUtxosRequest {
  format: GetUtxosFormat;
  checkMempool: boolean;
  outpoints: OutPoint[];
}

/** RESTERR(status, message). */
export interface GetUtxosRefusal {
  status: number;
  message: string;
}

const FORMATS_AVAILABLE = 'output format not found (available: .bin, .hex, .json)';
const EMPTY_REQUEST: GetUtxosRefusal = { status: 500, message: 'Error: empty request' };
const PARSE_ERROR: GetUtxosRefusal = { status: 500, message: 'Parse error' };

/** C's isspace in the "C" locale. */
const isCSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : -1;
}

/** IsHex: non-empty, even length, hex digits only. */
function isHexText(s: string): boolean {
  if (s.length === 0 || s.length % 2 !== 0) return false;
  for (let i = 0; i < s.length; i++) if (hexDigit(s.charCodeAt(i)) < 0) return false;
  return true;
}

/** uint256::SetHex on text that passed IsHex: its last 64 digits, left-padded, as internal-order bytes. */
function txidFromHex(s: string): Uint8Array {
  const out = new Uint8Array(32);
  for (let pos = s.length - 1, byte = 0; pos > 0 && byte < 32; pos -= 2, byte++) {
    out[byte] = hexDigit(s.charCodeAt(pos)) | (hexDigit(s.charCodeAt(pos - 1)) << 4);
  }
  return out;
}

/** ParseInt32 (strtol with no padding, nothing after the digits, within int32). */
function parseInt32(s: string): number | null {
  if (!/^[+-]?[0-9]+$/.test(s)) return null;
  const n = Number(s);
  return n >= -0x80000000 && n <= 0x7fffffff ? n : null;
}

/** ParseHex: pairs of hex digits, each pair after any white space, up to the first that is not one. */
function parseHexLenient(body: Uint8Array): Uint8Array {
  // At most a byte per two characters, in one allocation the body's size bounds.
  const out = new Uint8Array(body.length >>> 1);
  let n = 0;
  let i = 0;
  for (;;) {
    while (i < body.length && isCSpace(body[i]!)) i++;
    const hi = i < body.length ? hexDigit(body[i]!) : -1;
    const lo = i + 1 < body.length ? hexDigit(body[i + 1]!) : -1;
    if (hi < 0 || lo < 0) return out.subarray(0, n);
    out[n++] = (hi << 4) | lo;
    i += 2;
  }
}

/** The CompactSize encoding of `n` (at most MAX_BODY_SIZE here). */
function compactSize(n: number): Uint8Array {
  if (n < 253) return Uint8Array.of(n);
  if (n <= 0xffff) return Uint8Array.of(253, n & 0xff, n >>> 8);
  return Uint8Array.of(254, n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24);
}

/**
 * `oss << body; oss >> fCheckMemPool; oss >> vOutPoints;`, reading without copying the body:
 * the stream is the length's bytes, then the body. Null where zcashd's stream throws.
 */
function deserialiseBody(body: Uint8Array): { checkMempool: boolean; outpoints: OutPoint[]; count: number } | null {
  const prefix = compactSize(body.length);
  const size = prefix.length + body.length;
  const at = (i: number): number => (i < prefix.length ? prefix[i]! : body[i - prefix.length]!);
  const slice = (from: number, length: number): Uint8Array => {
    const out = new Uint8Array(length);
    for (let k = 0; k < length; k++) out[k] = at(from + k);
    return out;
  };
  const uintLE = (from: number, bytes: number): number => {
    let v = 0;
    for (let k = bytes - 1; k >= 0; k--) v = v * 256 + at(from + k);
    return v;
  };
  const checkMempool = at(0) !== 0;
  let pos = 1;
  // ReadCompactSize, with its canonical-form and MAX_SIZE checks.
  if (pos >= size) return null;
  const first = at(pos++);
  let count: number;
  if (first < 253) count = first;
  else {
    const width = first === 253 ? 2 : first === 254 ? 4 : 8;
    if (pos + width > size) return null;
    count = uintLE(pos, width);
    pos += width;
    if (count < (width === 2 ? 253 : width === 4 ? 0x10000 : 0x100000000)) return null;
  }
  if (count > MAX_COMPACT_SIZE || pos + 36 * count > size) return null;
  // Past the limit the request is refused by its count alone: none of its outpoints is kept.
  const outpoints: OutPoint[] = [];
  for (let k = 0; count <= MAX_GETUTXOS_OUTPOINTS && k < count; k++, pos += 36) {
    outpoints.push({ txid: slice(pos, 32), n: uintLE(pos + 32, 4) });
  }
  return { checkMempool, outpoints, count };
}

/**
 * Parses `uriPart` (the target after `/rest/getutxos`, query included) and the request body.
 * A refusal carries zcashd's status and text.
 */
export function parseGetUtxosRequest(uriPart: string, body: Uint8Array): GetUtxosRequest | GetUtxosRefusal {
  const params = uriPart.split('.');
  const f = params[1];
  const format: GetUtxosFormat | null = f === 'bin' || f === 'hex' || f === 'json' ? f : null;
  const path = params[0]!;
  const uriParts = path.length > 1 ? path.slice(1).split('/') : [];
  if (body.length === 0 && uriParts.length === 0) return EMPTY_REQUEST;

  let inputParsed = false;
  let checkMempool = false;
  let outpoints: OutPoint[] = [];
  let tried = 0;
  if (uriParts.length > 0) {
    checkMempool = uriParts[0] === 'checkmempool';
    for (let i = checkMempool ? 1 : 0; i < uriParts.length; i++) {
      const part = uriParts[i]!;
      // find("-") is npos without a dash, and npos + 1 is 0: the output is then the whole part.
      const dash = part.indexOf('-');
      const txidText = dash < 0 ? part : part.slice(0, dash);
      const n = parseInt32(part.slice(dash + 1));
      if (n === null || !isHexText(txidText)) return PARSE_ERROR;
      outpoints.push({ txid: txidFromHex(txidText), n: n >>> 0 });
    }
    if (outpoints.length === 0) return EMPTY_REQUEST;
    inputParsed = true;
    tried = outpoints.length;
  }

  if (format === 'bin' || format === 'hex') {
    const raw = format === 'hex' ? parseHexLenient(body) : body;
    if (raw.length > 0) {
      if (inputParsed) return { status: 500, message: 'Combination of URI scheme inputs and raw post data is not allowed' };
      const read = deserialiseBody(raw);
      if (read === null) return PARSE_ERROR;
      ({ checkMempool, outpoints, count: tried } = read);
    }
  } else if (format === 'json') {
    if (!inputParsed) return EMPTY_REQUEST;
  } else {
    return { status: 404, message: FORMATS_AVAILABLE };
  }

  if (tried > MAX_GETUTXOS_OUTPOINTS) {
    return { status: 500, message: `Error: max outpoints exceeded (max: ${MAX_GETUTXOS_OUTPOINTS}, tried: ${tried})` };
  }
  return { format, checkMempool, outpoints };
}

export const isRefusal = (r: GetUtxosRequest | GetUtxosRefusal): r is GetUtxosRefusal => 'status' in r;
