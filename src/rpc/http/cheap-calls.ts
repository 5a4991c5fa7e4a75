/**
 * The calls that get their own work queue: single JSON-RPC requests for methods answered from
 * memory in microseconds (the tip, a height's hash, the connection count). Load balancers and
 * monitors probe with them; in zcashd they wait in the one queue behind every heavy call and
 * are refused with the rest when it is full. Recognised from the raw body without parsing it,
 * since the point is to spend nothing on them: a body longer than a probe, a batch, or any other
 * method goes to the ordinary queue.
 */

const CHEAP_METHODS = new Set(['getblockcount', 'getbestblockhash', 'getblockhash', 'getconnectioncount', 'ping']);

/** Longer bodies are not probes: they are parsed in the ordinary queue. */
const MAX_CHEAP_BODY = 256;

/** Every "method" member, one after another (exec from lastIndex 0 each call). */
const METHOD = /"method"\s*:\s*"([a-z]+)"/g;

/** A batch: `[` after JavaScript's white space (what trimStart removes from Latin-1 text). */
const BATCH = /^[\t\n\v\f\r \u00a0]*\[/;

export function isCheapCall(body: Buffer): boolean {
  if (body.length === 0 || body.length > MAX_CHEAP_BODY) return false;
  const text = body.toString('latin1');
  // An escape could spell another "method" member the pattern does not see.
  if (BATCH.test(text) || text.includes('\\')) return false;
  METHOD.lastIndex = 0;
  const first = METHOD.exec(text);
  // A second "method" member (or one inside params) is not a plain probe.
  if (first === null || METHOD.exec(text) !== null) return false;
  return CHEAP_METHODS.has(first[1]!);
}
