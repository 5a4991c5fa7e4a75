/**
 * The calls that get their own work queue: single JSON-RPC requests for methods answered from
 * memory in microseconds (the tip, a height's hash, the connection count). Load balancers and
 * monitors probe with them; in zcashd they wait in the one queue behind every heavy call and
 * are refused with the rest when it is full. Recognised from the raw body without parsing it,
 * since the point is to spend nothing on them: a body longer than a probe, a batch, or any other
 * method goes to the ordinary queue.
 */

const CHEAP_METHODS = new Set(['getblockcount', 'getbestblockhash', 'getblockhash', 'getconnectioncount', 'ping']);
/** Their names' lengths: any other name is told apart without making a string of it. */
const CHEAP_NAME_LENGTHS = new Set([...CHEAP_METHODS].map((m) => m.length));

/** Longer bodies are not probes: they are parsed in the ordinary queue. */
const MAX_CHEAP_BODY = 256;

const METHOD_KEY = Buffer.from('"method"', 'latin1');
const QUOTE = 0x22;
const COLON = 0x3a;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;

/** JavaScript's white space (`\s`, what trimStart removes) among Latin-1 bytes. */
const isSpace = (b: number): boolean => (b >= 0x09 && b <= 0x0d) || b === 0x20 || b === 0xa0;
const isLowercase = (b: number): boolean => b >= 0x61 && b <= 0x7a;

/**
 * Where the name of a `"method"` member starting at `at` ends (after its closing quote), if
 * `"method"`, white space, `:`, white space and a quoted lowercase name follow; else -1.
 */
function memberEnd(body: Buffer, at: number): number {
  let i = at + METHOD_KEY.length;
  while (i < body.length && isSpace(body[i]!)) i++;
  if (body[i] !== COLON) return -1;
  i++;
  while (i < body.length && isSpace(body[i]!)) i++;
  if (body[i] !== QUOTE) return -1;
  const start = ++i;
  while (i < body.length && isLowercase(body[i]!)) i++;
  return i > start && body[i] === QUOTE ? i + 1 : -1;
}

/** Where the first `"method":"name"` member from `from` on ends (after the name's closing quote), or -1. */
function nextMemberEnd(body: Buffer, from: number): number {
  for (let at = body.indexOf(METHOD_KEY, from); at >= 0; at = body.indexOf(METHOD_KEY, at + 1)) {
    const end = memberEnd(body, at);
    if (end >= 0) return end;
  }
  return -1;
}

/** Read from the bytes as they are, without a string per request: a probe costs one lookup. */
export function isCheapCall(body: Buffer): boolean {
  if (body.length === 0 || body.length > MAX_CHEAP_BODY) return false;
  // A batch: `[` after white space.
  let first = 0;
  while (first < body.length && isSpace(body[first]!)) first++;
  if (body[first] === OPEN_BRACKET) return false;
  const end = nextMemberEnd(body, 0);
  if (end < 0) return false;
  const nameStart = body.lastIndexOf(QUOTE, end - 2) + 1;
  if (!CHEAP_NAME_LENGTHS.has(end - 1 - nameStart) || !CHEAP_METHODS.has(body.toString('latin1', nameStart, end - 1))) return false;
  // An escape could spell another "method" member the scan does not see; a second "method"
  // member (or one inside params) is not a plain probe.
  return !body.includes(BACKSLASH) && nextMemberEnd(body, end) < 0;
}
