/**
 * Methods whose results are always pure ASCII text (TxToJSON: hex, asm, base58, fixed words).
 * For those the dispatcher encodes a text result as latin1, which for ASCII is its UTF-8 and
 * is ~3x cheaper than the UTF-8 encoder (decoderawtransaction returns ~40 KB per request).
 * Kept outside the RpcMethod interface so a method only opts in where that holds.
 */
import type { RpcMethod } from './method.js';

const asciiMethods = new WeakSet<RpcMethod>();

/** Declares that every text result of `m` is ASCII; returns `m`. */
export function withAsciiResults<M extends RpcMethod>(m: M): M {
  asciiMethods.add(m);
  return m;
}

export function hasAsciiResults(m: RpcMethod): boolean {
  return asciiMethods.has(m);
}
