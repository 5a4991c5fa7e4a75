/** BIP34: the block height a coinbase declares at the start of its scriptSig. */
import type { Block } from './block.js';

/**
 * The height a block's coinbase declares (BIP34 style: OP_0, OP_1..OP_16, or a minimal
 * little-endian push), 0 for a block with a null parent (genesis), or null if unreadable.
 */
export function declaredHeight(block: Block): number | null {
  if (block.header.prevHash.every((b) => b === 0)) return 0;
  const cb = block.transactions[0];
  if (!cb || !cb.isCoinbase) return null;
  const s = cb.data.vin[0]!.scriptSig;
  const op = s[0];
  if (op === undefined) return null;
  if (op === 0x00) return 0;
  if (op >= 0x51 && op <= 0x60) return op - 0x50;
  if (op >= 1 && op <= 5 && s.length >= 1 + op) {
    let v = 0;
    for (let i = op; i >= 1; i--) v = v * 256 + s[i]!;
    const negative = (s[op]! & 0x80) !== 0;
    return negative ? null : v;
  }
  return null;
}
