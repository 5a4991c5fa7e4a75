/**
 * The JSON value model of zecrpc's UniValue-compatible reader: numbers keep their exact
 * token text (so `1.50` echoes as `1.50`), objects keep every member in order with
 * first-wins lookup (UniValue keeps duplicate keys; `find` returns the first).
 */

export class JsonNumber {
  constructor(readonly text: string) {}
}

export class JsonObject {
  readonly entries: Array<[string, JsonValue]> = [];

  /** The first member named `key` (UniValue semantics), or undefined. */
  get(key: string): JsonValue | undefined {
    for (const [k, v] of this.entries) if (k === key) return v;
    return undefined;
  }

  has(key: string): boolean {
    return this.entries.some(([k]) => k === key);
  }
}

export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | JsonObject;

/** UniValue type names as zcashd's RPCTypeCheck prints them. */
export function jsonTypeName(v: JsonValue): 'null' | 'bool' | 'string' | 'number' | 'array' | 'object' {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (v instanceof JsonNumber) return 'number';
  if (Array.isArray(v)) return 'array';
  return 'object';
}
