/**
 * Turning stored block bytes into getblock's result: verify (decode, merkle root), then render
 * as hex (verbosity 0) or zcashd's blockToJSON (1, 2). The getblock method asks a
 * `BlockRenderer` for this; the server backs it with worker threads (render-pool.ts) so large
 * blocks are decoded and rendered off the event loop, while `inlineBlockRenderer` does the same
 * work on the calling thread (library use, tests, and small blocks where a thread round trip
 * would cost more than the work).
 */
import { toHexReversed } from '../../codec/hex.js';
import { JsonWriter } from '../../json/writer.js';
import type { NetworkParams } from '../../chain/network.js';
import { blockToJson, blockToJsonBytes, type BlockChainContext } from '../../render/block.js';
import { BlockReadError, decodeVerifiedBlock } from '../../store/verify.js';
import { RPC, RpcError, type BlockRenderer, type RawJson } from '../method.js';

export type { BlockRenderer, BlockRenderRequest } from '../method.js';

/**
 * The rendering itself, shared by both renderers. Returns the reason instead of throwing when
 * the block is unsound, so a worker can send it back as data.
 */
export function renderVerifiedBlock(
  bytes: Uint8Array,
  verbosity: 0 | 1 | 2,
  context: BlockChainContext | null,
  network: NetworkParams,
  /** Memory to write a byte result into while it fits (a render thread's reply slab). */
  output?: Buffer,
): RawJson | { problem: string } {
  const block = decodeVerifiedBlock(bytes);
  if (typeof block === 'string') return { problem: block };
  // The stored bytes are exactly what zcashd re-serializes from the block it read.
  if (verbosity === 0) return new JsonWriter(output ?? 2 * bytes.length + 2).hexStr(bytes).toBuffer();
  if (!context) throw new Error('internal error: getblock verbosity 1/2 needs the chain context');
  // Verbosity 2 of a big block is megabytes of JSON: render it straight into bytes.
  return verbosity === 2 ? blockToJsonBytes(block, 2, context, network, output) : blockToJson(block, 1, context, network);
}

export function unreadableBlock(hash: Uint8Array, problem: string): BlockReadError {
  return new BlockReadError(`block ${toHexReversed(hash)}`, problem);
}

export const inlineBlockRenderer: BlockRenderer = {
  async render(req) {
    const out = renderVerifiedBlock(req.bytes, req.verbosity, req.context, req.network);
    if (typeof out === 'object' && !Buffer.isBuffer(out)) throw unreadableBlock(req.hash, out.problem);
    return out;
  },
};

/**
 * zcashd's answer when ReadBlockFromDisk fails: -32603 "Can't read block from disk" (getblock).
 * The BlockReadError stays attached as the cause, so the server can log where and why.
 */
export function asReadBlockFailure(e: unknown): unknown {
  return e instanceof BlockReadError ? new RpcError(RPC.INTERNAL_ERROR, "Can't read block from disk", { cause: e }) : e;
}
