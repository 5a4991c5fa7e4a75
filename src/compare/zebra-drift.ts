/**
 * zebrad's known ways of answering differently from zcashd (seen in zebra-rpc's own snapshot
 * tests): amounts as f64 (`0.0005`, `0.0` where zcashd prints `0.00050000`), other numbers
 * re-formatted (`"difficulty": 1.0`), members zcashd prints that zebrad leaves out (`chainwork`,
 * `valuePools`, transaction `txid`/`size`/…), members only zebrad prints (`trees`, empty
 * `addresses` arrays), members in another order, a JSON-RPC 2.0 envelope (`"jsonrpc":"2.0"`, no
 * `"error":null`), HTTP 200 for errors and its own error texts.
 *
 * With a zebrad reference these are reported in their own category — what changes for clients
 * migrating from zebrad to a zcashd-exact server — and not as zecrpc errors. A different value
 * (another hash, another amount) is never a drift.
 *
 * On today's chain (NU6.2, NU6.3 and the Ironwood pool; the captured Zebra 6.2.3 replies in
 * ../shared/test-vectors/nu6.3/zebra-rpc and zebra-rpc's TransactionObject) zebrad also lists every
 * pool in `valuePools` before it exists (unmonitored, zero), leaves out trees of size 0, upgrades'
 * `info`, a v6 transaction's `ironwood` object when it has no Ironwood actions and the
 * `enableCrossAddress` flag, and prints placeholders for `chainwork` and `commitments` (0): each
 * has its own category, recognised only in that exact form.
 */
import { JsonObject, JsonNumber, type JsonValue } from '../json/value.js';
import type { JsonDifference } from './json-diff.js';

export type DriftCategory =
  | 'amount-as-f64'
  | 'number-format'
  | 'member-missing-in-zebrad'
  | 'member-only-in-zebrad'
  | 'member-order'
  | 'json-rpc-envelope'
  | 'http-status'
  | 'error-text'
  | 'pool-not-yet-active'
  | 'empty-tree-omitted'
  | 'upgrade-info'
  | 'empty-ironwood-omitted'
  | 'cross-address-flag'
  | 'placeholder';

export const DRIFT_DESCRIPTIONS: Readonly<Record<DriftCategory, string>> = {
  'amount-as-f64': 'amounts printed as f64 (zcashd prints exactly 8 decimals)',
  'number-format': 'other numbers written differently with the same value',
  'member-missing-in-zebrad': 'members zcashd prints that zebrad leaves out',
  'member-only-in-zebrad': 'members only zebrad prints',
  'member-order': 'members in a different order',
  'json-rpc-envelope': 'JSON-RPC envelope (jsonrpc 2.0 member, error/result omitted, member order)',
  'http-status': 'HTTP status of error replies',
  'error-text': 'error codes or messages of requests both reject',
  'pool-not-yet-active': 'valuePools entries for pools not yet active (unmonitored, zero) that zebrad lists',
  'empty-tree-omitted': 'trees of size 0 that zebrad leaves out (trees.ironwood before its first note)',
  'upgrade-info': "upgrades' info member, which zebrad never prints (NU6.2 and NU6.3 included)",
  'empty-ironwood-omitted': "a v6 transaction's empty ironwood object, which zebrad leaves out",
  'cross-address-flag': 'the enableCrossAddress flag of v6 Orchard and Ironwood components, which zebrad does not print',
  placeholder: 'members zebrad fills with 0 (chainwork, commitments)',
};

/** zcashd's amount format (`%d.%08d`, ValueFromAmount). */
const ZCASHD_AMOUNT = /^-?\d+\.\d{8}$/;

function isTopLevel(path: string): boolean {
  return !path.includes('.') && !path.includes('[');
}

/**
 * The drift a difference between a zebrad reference and a zcashd-exact target is, or null when
 * it is a real difference. `bothErrors`: both replies carry a non-null `error`.
 */
export function classifyZebraDrift(d: JsonDifference, bothErrors: boolean, replies?: ComparedReplies): DriftCategory | null {
  if (d.path === '(HTTP status)') return bothErrors ? 'http-status' : null;
  const today = classifyTodaysChain(d, replies);
  if (today) return today;
  if (isTopLevel(d.path) && d.path !== 'result' && d.path !== 'error') return 'json-rpc-envelope';
  if (d.path === '' && d.kind === 'member-order') return 'json-rpc-envelope';
  // zebrad omits `"error":null` on success and `"result":null` on failure.
  if ((d.path === 'error' || d.path === 'result') && d.kind === 'missing-in-reference' && (d.target === 'null' || d.target === undefined)) {
    return 'json-rpc-envelope';
  }
  if (bothErrors && (d.path === 'error.message' || d.path === 'error.code')) return 'error-text';
  switch (d.kind) {
    case 'number-format':
      return d.target !== undefined && ZCASHD_AMOUNT.test(d.target) ? 'amount-as-f64' : 'number-format';
    case 'missing-in-reference':
      return 'member-missing-in-zebrad';
    case 'missing-in-target':
      return 'member-only-in-zebrad';
    case 'member-order':
      return 'member-order';
    default:
      return null;
  }
}

/** Both parsed replies, for the differences whose class depends on more than the differing text. */
export interface ComparedReplies {
  reference: JsonValue;
  target: JsonValue;
}

/** zecrpc's compact text of an Orchard-shaped object without actions. */
const EMPTY_ORCHARD_SHAPED = /^\{"actions":\[\],"valueBalance":0\.00000000,"valueBalanceZat":0\}$/;

function classifyTodaysChain(d: JsonDifference, replies: ComparedReplies | undefined): DriftCategory | null {
  const path = genericPath(d.path);
  if (d.kind === 'missing-in-reference') {
    if (/^result\.upgrades(\.[0-9a-f]{8}|\["[0-9a-f]{8}"\])\.info$/.test(d.path)) return 'upgrade-info';
    if (/^result\.trees\.[a-z]+$/.test(d.path) && d.target === '{"size":0}') return 'empty-tree-omitted';
    if (/^result(\.tx\[\*\])?\.ironwood$/.test(path) && d.target !== undefined && EMPTY_ORCHARD_SHAPED.test(d.target)) {
      return 'empty-ironwood-omitted';
    }
    if (/^result(\.tx\[\*\])?\.(orchard|ironwood)\.flags\.enableCrossAddress$/.test(path)) return 'cross-address-flag';
  }
  if (d.path === 'result.chainwork' && d.kind === 'type' && d.reference === '0') return 'placeholder';
  if (d.kind === 'value' && sameDoubleAtZcashdPrecision(d.reference, d.target)) return 'number-format';
  if (d.path === 'result.commitments' && d.kind === 'value' && d.reference === '0') return 'placeholder';
  if (d.path === 'result.valuePools' && d.kind === 'array-length' && replies && onlyInactivePoolsAdded(replies))
    return 'pool-not-yet-active';
  return null;
}

/**
 * A double zebrad prints with the shortest round-trip digits (serde's f64) and zcashd with 16
 * significant digits (UniValue's `%.16g`): the target's text is the reference's value at that precision.
 */
function sameDoubleAtZcashdPrecision(reference: string | undefined, target: string | undefined): boolean {
  if (reference === undefined || target === undefined) return false;
  const number = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
  if (!number.test(reference) || !number.test(target)) return false;
  const value = Number(reference);
  return Number.isFinite(value) && Number(value.toPrecision(16)) === Number(target) && !Number.isInteger(value);
}

/** The pool ids of a reply's `result.valuePools`, with whether each is unmonitored and zero. */
function valuePoolsOf(reply: JsonValue): { id: string; inactive: boolean }[] | null {
  const pools = reply instanceof JsonObject ? (reply.get('result') as JsonValue | undefined) : undefined;
  const list = pools instanceof JsonObject ? pools.get('valuePools') : undefined;
  if (!Array.isArray(list)) return null;
  const out: { id: string; inactive: boolean }[] = [];
  for (const p of list) {
    if (!(p instanceof JsonObject) || typeof p.get('id') !== 'string') return null;
    const zat = p.get('chainValueZat');
    out.push({ id: p.get('id') as string, inactive: p.get('monitored') === false && zat instanceof JsonNumber && zat.text === '0' });
  }
  return out;
}

/** zebrad's list is the target's, in the same order, plus pools that are unmonitored and zero. */
function onlyInactivePoolsAdded({ reference, target }: ComparedReplies): boolean {
  const ref = valuePoolsOf(reference);
  const tgt = valuePoolsOf(target);
  if (!ref || !tgt || ref.length <= tgt.length) return false;
  const kept = ref.filter((p) => tgt.some((t) => t.id === p.id));
  return kept.map((p) => p.id).join() === tgt.map((p) => p.id).join() && ref.every((p) => kept.includes(p) || p.inactive);
}

/** `result.tx[3].vout[0].value` → `result.tx[*].vout[*].value`, to group drifts by place. */
export function genericPath(path: string): string {
  return path.replace(/\[\d+\]/g, '[*]');
}
