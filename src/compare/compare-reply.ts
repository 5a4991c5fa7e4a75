/**
 * One request's two replies: identical bytes (and status), or where and how they differ — the
 * first differing byte, every structural difference by JSON path, and, against zebrad, which of
 * those are zebrad's known drifts.
 */
import { JsonObject } from '../json/value.js';
import { locateFirstDifference, type FirstDifference } from './first-difference.js';
import { diffJson, tryParseJson, type JsonDifference } from './json-diff.js';
import type { Reply } from './endpoint.js';
import { classifyZebraDrift, type DriftCategory } from './zebra-drift.js';

export type ReferenceKind = 'zcashd' | 'zebrad' | 'zecrpc' | 'unknown';

export interface ClassifiedDifference extends JsonDifference {
  /** Set when the difference is a known zebrad drift. */
  drift?: DriftCategory;
}

export interface ReplyComparison {
  identical: boolean;
  /** Every difference is a zebrad drift (only with a zebrad reference). */
  onlyDrift: boolean;
  status: { reference: number; target: number };
  first: FirstDifference | null;
  differences: ClassifiedDifference[];
}

function hasError(v: unknown): boolean {
  if (!(v instanceof JsonObject)) return false;
  const e = v.get('error');
  return e !== undefined && e !== null;
}

export function compareReplies(reference: Reply, target: Reply, kind: ReferenceKind, maxDifferences: number): ReplyComparison {
  const status = { reference: reference.status, target: target.status };
  const first = locateFirstDifference(reference.body, target.body);
  if (!first && status.reference === status.target) return { identical: true, onlyDrift: false, status, first: null, differences: [] };

  const differences: ClassifiedDifference[] = [];
  if (status.reference !== status.target) {
    differences.push({
      kind: 'value',
      path: '(HTTP status)',
      key: null,
      reference: String(status.reference),
      target: String(status.target),
    });
  }
  const ref = first ? tryParseJson(reference.body) : undefined;
  const tgt = first ? tryParseJson(target.body) : undefined;
  if (first) {
    if (ref === undefined || tgt === undefined) {
      differences.push({
        kind: 'type',
        path: '(body)',
        key: null,
        reference: ref === undefined ? `not JSON (${reference.body.length} bytes)` : 'JSON',
        target: tgt === undefined ? `not JSON (${target.body.length} bytes)` : 'JSON',
      });
    } else {
      differences.push(...diffJson(ref, tgt, { limit: maxDifferences }));
      // Same JSON tokens in the same order, different bytes: whitespace or string escaping.
      if (differences.every((d) => d.path === '(HTTP status)')) {
        differences.push({
          kind: 'value',
          path: '(formatting)',
          key: null,
          reference: first.referenceExcerpt,
          target: first.targetExcerpt,
        });
      }
    }
  }
  let onlyDrift = false;
  if (kind === 'zebrad') {
    const bothErrors = hasError(ref) && hasError(tgt);
    for (const d of differences) {
      const drift = classifyZebraDrift(d, bothErrors, ref !== undefined && tgt !== undefined ? { reference: ref, target: tgt } : undefined);
      if (drift) d.drift = drift;
    }
    onlyDrift = differences.every((d) => d.drift !== undefined);
  }
  return { identical: false, onlyDrift, status, first, differences };
}
