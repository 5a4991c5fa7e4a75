/**
 * Request line and headers, parsed the way libevent 2.1.12 does for zcashd (rpc-http-json.md
 * §1.2 step 0a): lines end at LF with an optional CR before it, and the request line plus every
 * header line, counted without their line ends, may total at most 8192 bytes. Header lookups
 * are case-insensitive and the first occurrence wins (evhttp_find_header).
 */

/** libevent's max_headers_size as zcashd sets it. */
export const MAX_HEADERS_SIZE = 8192;

export interface RequestHead {
  /** The method token exactly as sent (case-sensitive: `post` is not `POST`). */
  method: string;
  /** The raw request-target. */
  target: string;
  /** 0 for HTTP/1.0, 1 for HTTP/1.1. */
  minor: 0 | 1;
  /** Header fields in arrival order, names as sent. */
  headers: [string, string][];
}

export type HeadParse = { state: 'more' } | { state: 'error'; status: 400 } | { state: 'done'; head: RequestHead; consumed: number };

/** First value of a header, by case-insensitive name. */
export function headerValue(head: RequestHead, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of head.headers) if (k.toLowerCase() === lower) return v;
  return undefined;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * libevent's evhttp_parse_request_line: trailing spaces dropped, the method before the first
 * space, the version after the last, the target all between (spaces included).
 */
function parseRequestLine(raw: string): Omit<RequestHead, 'headers'> | null {
  const line = raw.replace(/ +$/, '');
  if (line.length < 'GET / HTTP/1.0'.length) return null;
  const first = line.indexOf(' ');
  const last = line.lastIndexOf(' ');
  if (first < 0 || last === first) return null;
  const method = line.slice(0, first);
  const target = line.slice(first + 1, last);
  const version = line.slice(last + 1);
  if (!TOKEN.test(method) || target === '') return null;
  const v = /^HTTP\/(\d+)\.(\d+)$/.exec(version);
  if (!v || Number(v[1]) !== 1) return null;
  return { method, target, minor: Number(v[2]) === 0 ? 0 : 1 };
}

/**
 * Parses a request head from the start of `buf`. Returns 'more' while the head is incomplete
 * and still within the size limit.
 */
export function parseRequestHead(buf: Buffer): HeadParse {
  let pos = 0;
  let counted = 0;
  let first: Omit<RequestHead, 'headers'> | null = null;
  const headers: [string, string][] = [];
  for (;;) {
    const lf = buf.indexOf(10, pos);
    if (lf < 0) {
      // An unfinished line still counts against the limit (evhttp_parse_headers_).
      return counted + (buf.length - pos) > MAX_HEADERS_SIZE ? { state: 'error', status: 400 } : { state: 'more' };
    }
    const end = lf > pos && buf[lf - 1] === 13 ? lf - 1 : lf;
    counted += end - pos;
    if (counted > MAX_HEADERS_SIZE) return { state: 'error', status: 400 };
    // libevent works on C strings: a line ends at its first NUL.
    const raw = buf.toString('latin1', pos, end);
    const nul = raw.indexOf('\0');
    const line = nul < 0 ? raw : raw.slice(0, nul);
    pos = lf + 1;
    if (first === null) {
      // libevent 2.1.12 skips nothing before the request line: an empty line is a bad request.
      first = parseRequestLine(line);
      if (!first) return { state: 'error', status: 400 };
      continue;
    }
    if (line === '') return { state: 'done', head: { ...first, headers }, consumed: pos };
    if (line.charCodeAt(0) === 32 || line.charCodeAt(0) === 9) {
      // A continuation line folds into the previous header's value (evhttp_append_to_last_header).
      const last = headers[headers.length - 1];
      if (!last) return { state: 'error', status: 400 };
      last[1] = `${last[1]} ${trimTrailingLws(line.replace(/^[ \t]+/, ''))}`;
      continue;
    }
    // evhttp_parse_headers_: the name up to the first colon (an empty one too), the value after
    // it without its leading spaces (tabs stay) or trailing spaces and tabs; evhttp_add_header
    // then refuses a CR or LF in the name, and one in the value not followed by a space or tab.
    const colon = line.indexOf(':');
    if (colon < 0) return { state: 'error', status: 400 };
    const name = line.slice(0, colon);
    const value = trimTrailingLws(line.slice(colon + 1).replace(/^ +/, ''));
    if (name.includes('\r') || !validHeaderValue(value)) return { state: 'error', status: 400 };
    headers.push([name, value]);
  }
}

/** evutil_rtrim_lws_: trailing spaces and tabs. */
function trimTrailingLws(s: string): string {
  return s.replace(/[ \t]+$/, '');
}

/** evhttp_header_is_valid_value: every run of CR/LF is followed by a space or tab. */
function validHeaderValue(value: string): boolean {
  return !/[\r\n]+(?![ \t])/.test(value);
}
