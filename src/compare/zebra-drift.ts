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
 */
import type { JsonDifference } from './json-diff.js';

export type DriftCategory =
  | 'amount-as-f64'
  | 'number-format'
  | 'member-missing-in-zebrad'
  | 'member-only-in-zebrad'
  | 'member-order'
  | 'json-rpc-envelope'
  | 'http-status'
  | 'error-text';

export const DRIFT_DESCRIPTIONS: Readonly<Record<DriftCategory, string>> = {
  'amount-as-f64': 'amounts printed as f64 (zcashd prints exactly 8 decimals)',
  'number-format': 'other numbers written differently with the same value',
  'member-missing-in-zebrad': 'members zcashd prints that zebrad leaves out',
  'member-only-in-zebrad': 'members only zebrad prints',
  'member-order': 'members in a different order',
  'json-rpc-envelope': 'JSON-RPC envelope (jsonrpc 2.0 member, error/result omitted, member order)',
  'http-status': 'HTTP status of error replies',
  'error-text': 'error codes or messages of requests both reject',
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
export function classifyZebraDrift(d: JsonDifference, bothErrors: boolean): DriftCategory | null {
  if (d.path === '(HTTP status)') return bothErrors ? 'http-status' : null;
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

/** `result.tx[3].vout[0].value` → `result.tx[*].vout[*].value`, to group drifts by place. */
export function genericPath(path: string): string {
  return path.replace(/\[\d+\]/g, '[*]');
}
