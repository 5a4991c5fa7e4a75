/**
 * zcashd's JSON string escaping (rpc-http-json.md §4.2): UniValue escapes controls, `"`, `\` and
 * DEL, and leaves `/` and non-ASCII alone.
 */
import { Buffer } from 'node:buffer';

// UniValue escapes controls, `"`, `\` and DEL; `/` and non-ASCII are left alone. The test is
// "only safe characters" (anchored), which V8 runs faster than searching for a bad one.
const NO_ESCAPE_NEEDED = /^[ !#-[\]-~\u0080-\uffff]*$/;
/** Printable ASCII other than `"` and `\`: such a string is its own JSON text, byte for byte. */
const ASCII_NO_ESCAPE = /^[ !#-[\]-~]*$/;

const ESCAPES: string[] = [];
for (let c = 0; c < 0x20; c++) ESCAPES[c] = '\\u' + c.toString(16).padStart(4, '0');
ESCAPES[0x08] = '\\b';
ESCAPES[0x09] = '\\t';
ESCAPES[0x0a] = '\\n';
ESCAPES[0x0c] = '\\f';
ESCAPES[0x0d] = '\\r';
ESCAPES[0x22] = '\\"';
ESCAPES[0x5c] = '\\\\';
ESCAPES[0x7f] = '\\u007f';

/** Printable ASCII other than `"` and `\`: the string is its own JSON text, byte for byte. */
export function isPlainAscii(s: string): boolean {
  // Short strings: a plain loop beats the regex's fixed call cost.
  if (s.length > 16) return ASCII_NO_ESCAPE.test(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/** A string as a quoted, zcashd-escaped JSON string token (§4.2). */
export function quoteJsonString(s: string): string {
  // Short strings: a plain loop beats the regex's fixed call cost.
  if (s.length <= 16) {
    let i = 0;
    for (; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x7f) break;
    }
    if (i === s.length) return '"' + s + '"';
  } else if (NO_ESCAPE_NEEDED.test(s)) return '"' + s + '"';
  let out = '"';
  let runStart = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x7f) {
      if (i > runStart) out += s.slice(runStart, i);
      out += ESCAPES[c]!;
      runStart = i + 1;
    }
  }
  if (runStart < s.length) out += s.slice(runStart);
  return out + '"';
}

// Keys are nearly always the same few dozen literals (TxToJSON, blockToJSON), so their quoted
// form is memoized, as text and as bytes; the bounds (count and key length) keep keys echoed
// from requests from growing it or pinning large strings.
export interface QuotedKey {
  text: string;
  bytes: Uint8Array;
}
const KEY_CACHE = new Map<string, QuotedKey>();
const KEY_CACHE_LIMIT = 4096;
const KEY_CACHE_MAX_KEY = 64;
// eslint-disable-next-line no-control-regex -- the range is all of ASCII, control characters included
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * `"k":` as text and as bytes, memoized; null for a key not kept (not ASCII — so a kept key never
 * brings other characters into byte output —, longer than KEY_CACHE_MAX_KEY, or the memo full).
 */
export function quotedKey(k: string): QuotedKey | null {
  let quoted = KEY_CACHE.get(k);
  if (quoted === undefined) {
    if (NON_ASCII.test(k) || k.length > KEY_CACHE_MAX_KEY || KEY_CACHE.size >= KEY_CACHE_LIMIT) return null;
    const text = quoteJsonString(k) + ':';
    quoted = { text, bytes: Buffer.from(text, 'latin1') };
    KEY_CACHE.set(k, quoted);
  }
  return quoted;
}
