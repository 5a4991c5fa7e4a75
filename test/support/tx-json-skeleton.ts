/**
 * A transaction's JSON with its byte-copied members replaced by where they come from: `hex` and
 * every Orchard and Ironwood hex member become `tx[start:end]`, the byte range the independent
 * layout reader (v6-layout.ts) gives for that member, after checking that the printed hex is
 * exactly those bytes. Everything else (member names and order, numbers, booleans, txids,
 * scripts) stays as printed, so a skeleton fixes the whole reply but the bulk of its bytes.
 */
import { shieldedLayout } from './v6-layout.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export function txJsonSkeleton(json: Json, bytes: Uint8Array): Json {
  const layout = shieldedLayout(bytes);
  const unused = new Set(layout.ranges.keys());
  const walk = (v: Json, path: string): Json => {
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}[${i}]`));
    if (v !== null && typeof v === 'object') {
      const out: { [k: string]: Json } = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x, path === '' ? k : `${path}.${k}`);
      return out;
    }
    if (typeof v !== 'string') return v;
    const range: readonly [number, number] | undefined = path === 'hex' ? [0, bytes.length] : layout.ranges.get(path);
    if (range === undefined) return v;
    const expected = Buffer.from(bytes.subarray(range[0], range[1])).toString('hex');
    if (v !== expected)
      throw new Error(`${path}: printed ${v.slice(0, 16)}…, the bytes at [${range[0]}, ${range[1]}) are ${expected.slice(0, 16)}…`);
    unused.delete(path);
    return `tx[${range[0]}:${range[1]}]`;
  };
  const out = walk(json, '');
  if (unused.size > 0) throw new Error(`fields of the transaction the JSON does not print: ${[...unused].join(', ')}`);
  return out;
}
