/**
 * A block's undo record (`U` ‖ hash): the undo blobs its indexers returned when it was
 * connected, each tagged with the indexer's undo tag. Format: repeated
 * tag(u8) ‖ length(u32 LE) ‖ bytes. Written in the connect batch, read and deleted in the
 * disconnect batch.
 */

/**
 * zcashd's MAX_REORG_LENGTH (COINBASE_MATURITY − 1): it shuts down rather than disconnect more
 * blocks. Connecting a block deletes the undo record 100 blocks below it (and the migrations'
 * replays write none deeper), so undo data stays bounded at mainnet scale; a switch that would
 * need a deleted record is refused (`reorg-failed`), the store staying on its chain.
 */
export const MAX_REORG_DEPTH = 99;

export function encodeUndoRecord(entries: ReadonlyMap<number, Uint8Array>): Buffer {
  let size = 0;
  for (const blob of entries.values()) size += 5 + blob.length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  // In tag order, so the same blobs give the same bytes however they were gathered (connect, or a migration's replay).
  for (const [tag, blob] of [...entries].sort((x, y) => x[0] - y[0])) {
    out[at] = tag;
    out.writeUInt32LE(blob.length, at + 1);
    out.set(blob, at + 5);
    at += 5 + blob.length;
  }
  return out;
}

export function decodeUndoRecord(v: Uint8Array): Map<number, Uint8Array> {
  const b = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  const out = new Map<number, Uint8Array>();
  let at = 0;
  while (at < b.length) {
    if (at + 5 > b.length) throw new Error(`corrupt undo record (truncated entry header at byte ${at})`);
    const tag = b[at]!;
    const length = b.readUInt32LE(at + 1);
    if (at + 5 + length > b.length) throw new Error(`corrupt undo record (entry ${tag} runs past the end)`);
    out.set(tag, new Uint8Array(b.subarray(at + 5, at + 5 + length)));
    at += 5 + length;
  }
  return out;
}
