/**
 * Structural difference between two JSON replies, on zecrpc's own JSON model (number tokens kept
 * as text, members kept in order), so `0.00050000` vs `0.0005` and reordered members are seen —
 * a JSON.parse-based diff would call both identical while the bytes differ.
 */
import { parseJson } from '../json/reader.js';
import { JsonNumber, JsonObject, jsonTypeName, type JsonValue } from '../json/value.js';
import { JsonWriter } from '../json/writer.js';

export type JsonDiffKind =
  /** Different scalar values (or different strings). */
  | 'value'
  /** Two numbers with the same value written differently (`1` vs `1.0`, `0.00050000` vs `0.0005`). */
  | 'number-format'
  /** Different JSON types at the same place. */
  | 'type'
  /** A member the target prints and the reference does not. */
  | 'missing-in-reference'
  /** A member the reference prints and the target does not. */
  | 'missing-in-target'
  /** The same members in a different order. */
  | 'member-order'
  /** Arrays of different lengths (elements up to the shorter length are compared too). */
  | 'array-length';

export interface JsonDifference {
  kind: JsonDiffKind;
  /** `result.tx[0].vout[1].value`; members with unusual names are written `["name"]`. */
  path: string;
  /** The member name or array index the difference is at (null at the top). */
  key: string | number | null;
  /** Compact JSON text of each side's value (undefined when that side has no value there). */
  reference?: string;
  target?: string;
}

/** Compact JSON text of a value as zecrpc's writer prints it. */
export function jsonText(v: JsonValue): string {
  return new JsonWriter().value(v).toString();
}

function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const name = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  if (name.startsWith('[')) return `${parent}${name}`;
  return parent === '' ? name : `${parent}.${name}`;
}

/** Whether two number tokens denote the same decimal value (exactly, not via doubles). */
function sameNumber(a: string, b: string): boolean {
  if (a === b) return true;
  return normalizeNumber(a) === normalizeNumber(b);
}

/** Canonical decimal form (sign, digits without leading/trailing zeros, exponent) of a token. */
function normalizeNumber(token: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(token);
  if (!m) return token;
  const digits = (m[2]! + (m[3] ?? '')).replace(/^0+/, '');
  let exponent = Number(m[4] ?? 0) + m[2]!.length;
  const trimmedLeft = (m[2]! + (m[3] ?? '')).length - digits.length;
  exponent -= trimmedLeft;
  const significant = digits.replace(/0+$/, '');
  if (significant === '') return '0';
  return `${m[1]}0.${significant}e${exponent}`;
}

export interface DiffOptions {
  /** Stop after this many differences (a wholly different block would list thousands). */
  limit?: number;
}

/** Every difference between two parsed JSON values, in document order (up to `limit`). */
export function diffJson(reference: JsonValue, target: JsonValue, opts: DiffOptions = {}): JsonDifference[] {
  const out: JsonDifference[] = [];
  const limit = opts.limit ?? 50;
  walk(reference, target, '', null, out, limit);
  return out;
}

function walk(a: JsonValue, b: JsonValue, path: string, key: string | number | null, out: JsonDifference[], limit: number): void {
  if (out.length >= limit) return;
  const ta = jsonTypeName(a);
  const tb = jsonTypeName(b);
  if (ta !== tb) {
    out.push({ kind: 'type', path, key, reference: jsonText(a), target: jsonText(b) });
    return;
  }
  if (a instanceof JsonNumber && b instanceof JsonNumber) {
    if (a.text !== b.text)
      out.push({ kind: sameNumber(a.text, b.text) ? 'number-format' : 'value', path, key, reference: a.text, target: b.text });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) {
      out.push({ kind: 'array-length', path, key, reference: `${a.length} elements`, target: `${b.length} elements` });
    }
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n && out.length < limit; i++) walk(a[i]!, b[i]!, childPath(path, i), i, out, limit);
    return;
  }
  if (a instanceof JsonObject && b instanceof JsonObject) {
    const namesA = a.entries.map(([k]) => k);
    const namesB = b.entries.map(([k]) => k);
    const inA = new Set(namesA);
    const inB = new Set(namesB);
    for (const [k, v] of a.entries) {
      if (out.length >= limit) return;
      if (!inB.has(k)) out.push({ kind: 'missing-in-target', path: childPath(path, k), key: k, reference: jsonText(v) });
    }
    for (const [k, v] of b.entries) {
      if (out.length >= limit) return;
      if (!inA.has(k)) out.push({ kind: 'missing-in-reference', path: childPath(path, k), key: k, target: jsonText(v) });
    }
    const commonA = namesA.filter((k) => inB.has(k));
    const commonB = namesB.filter((k) => inA.has(k));
    if (commonA.join('\u0000') !== commonB.join('\u0000') && out.length < limit) {
      out.push({ kind: 'member-order', path, key, reference: commonA.join(','), target: commonB.join(',') });
    }
    for (const [k, v] of a.entries) {
      if (out.length >= limit) return;
      const w = b.get(k);
      if (w !== undefined) walk(v, w, childPath(path, k), k, out, limit);
    }
    return;
  }
  if (a !== b) out.push({ kind: 'value', path, key, reference: jsonText(a), target: jsonText(b) });
}

/** Parses a reply body; undefined when it is not JSON (an HTML error page, an empty 401 body). */
export function tryParseJson(body: Uint8Array): JsonValue | undefined {
  try {
    return parseJson(body);
  } catch {
    return undefined;
  }
}
