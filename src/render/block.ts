/**
 * zcashd's blockToJSON (src/rpc/blockchain.cpp, v6.12.2) for `getblock` verbosity 1 and 2,
 * and the block-intrinsic subset `zecrpc decode-block` prints from the bytes alone.
 *
 * Member order follows zcashd exactly. The chain-state members (roots, `anchor`,
 * `chainSupply`, `valuePools`, `trees`) come from the store's chain state (state/block-view.ts);
 * a store without chain state omits the members that need it rather than invent them.
 */
import { headerDerivedRoots } from '../chain/commitment-era.js';
import type { NetworkParams } from '../chain/network.js';
import { chainWorkHex, difficultyFromBits } from '../chain/pow.js';
import type { Block, BlockHeader } from '../codec/block.js';
import { blockHeaderHash } from '../codec/block.js';
import { hexInt, toHexReversed } from '../codec/hex.js';
import type { Transaction } from '../codec/tx/transaction.js';
import { treeSizeOf, type BlockStateView } from '../state/block-view.js';
import { SHIELDED_POOL_ENTRIES } from '../state/pools.js';
import type { ValuePoolView } from '../state/value-pools.js';
import { declaredHeight } from '../codec/coinbase-height.js';
import { spentRecordsBytes } from './spent-fields.js';
import { writeTxJson } from './tx.js';
import { renderToBytes } from './scratch-output.js';
import { JsonWriter } from '../json/writer.js';

const ZERO32 = new Uint8Array(32);

/** What a block's JSON needs from the chain around it (hashes in internal order). */
export interface BlockChainContext {
  height: number;
  /** tip − height + 1 on the active chain, −1 elsewhere. */
  confirmations: number;
  chainWork: bigint;
  previousBlockHash: Uint8Array | null;
  /** Only for active-chain blocks below the tip. */
  nextBlockHash: Uint8Array | null;
  /** The block's chain state as zcashd prints it; null when the store keeps none. */
  state?: BlockStateView | null;
  /** `-legacyorchardroot`: print finalorchardroot byte-reversed, as zcashd v4.5.0–v5.2.0 did. */
  legacyOrchardRoot?: boolean;
  /**
   * Verbosity 2 on a node keeping the spent index (-insightexplorer): the records of every
   * transaction, in block order (render/spent-fields.ts).
   */
  spent?: Uint8Array;
}

function writeTxs(
  w: JsonWriter,
  txs: readonly Transaction[],
  verbosity: 1 | 2,
  network: NetworkParams,
  spent: Uint8Array | undefined,
): void {
  w.key('tx').beginArray();
  let at = 0;
  for (const tx of txs) {
    if (verbosity === 2) {
      writeTxJson(w, tx, network, spent ? { spent: { bytes: spent, at } } : undefined);
      at += spentRecordsBytes(tx.data.vin.length, tx.data.vout.length);
    } else w.hexStrReversed(tx.txid);
  }
  w.endArray();
}

function writeHeaderTail(w: JsonWriter, header: BlockHeader, network: NetworkParams): void {
  w.key('time').int(header.time);
  w.key('nonce').hexStrReversed(header.nonce);
  w.key('solution').hexStr(header.solution);
  w.key('bits').str(hexInt(header.bits));
  w.key('difficulty').double(difficultyFromBits(header.bits, network));
}

/**
 * What the verbose forms print of a block besides its chain position: either a decoded block, or
 * (verbosity 1 of a connected block) its header, size and stored txids.
 */
interface VerboseBlock {
  header: BlockHeader;
  hashHex: string;
  size: number;
  writeTxs(w: JsonWriter): void;
  /** ZIP-244 auth data root, needed only when the store keeps no chain state. */
  authDataRoot(): Uint8Array;
}

function decodedVerboseBlock(block: Block, verbosity: 1 | 2, ctx: BlockChainContext, network: NetworkParams): VerboseBlock {
  return {
    header: block.header,
    hashHex: block.hashHex,
    size: block.size,
    writeTxs: (w) => writeTxs(w, block.transactions, verbosity, network, ctx.spent),
    authDataRoot: () => block.computeAuthDataRoot(),
  };
}

/** `getblock <hash> 1|2` for a stored block. */
export function blockToJson(block: Block, verbosity: 1 | 2, ctx: BlockChainContext, network: NetworkParams): string {
  const w = new JsonWriter();
  writeBlockJson(w, decodedVerboseBlock(block, verbosity, ctx, network), ctx, network);
  return w.toString();
}

/**
 * The same as UTF-8 bytes, built without an intermediate string: the fast path for
 * verbosity 2 of large blocks (a 1.4 MB block renders ~8 MB of JSON). With `output`, the text
 * is written into that memory while it fits (the result is then a view of it).
 */
export function blockToJsonBytes(block: Block, verbosity: 1 | 2, ctx: BlockChainContext, network: NetworkParams, output?: Buffer): Buffer {
  const view = decodedVerboseBlock(block, verbosity, ctx, network);
  if (output === undefined) return renderToBytes(Math.max(1 << 16, block.size * 8), (w) => writeBlockJson(w, view, ctx, network));
  const w = new JsonWriter(output);
  writeBlockJson(w, view, ctx, network);
  return w.toBuffer();
}

/** A connected block as the store keeps it: header, size, and txids in block order (internal byte order). */
export interface StoredBlockSummary {
  header: BlockHeader;
  size: number;
  txids: readonly Uint8Array[];
}

/**
 * `getblock <hash> 1` of a connected block from what the store keeps, without reading or
 * decoding the block: the same bytes blockToJson prints, since every member of verbosity 1 is
 * in the header, the txid list or the chain state (`ctx.state`, required).
 */
export function storedBlockToJson(summary: StoredBlockSummary, ctx: BlockChainContext, network: NetworkParams): string {
  if (!ctx.state) throw new Error('internal error: a block rendered from its summary needs its chain state');
  const w = new JsonWriter();
  const block: VerboseBlock = {
    header: summary.header,
    hashHex: toHexReversed(blockHeaderHash(summary.header)),
    size: summary.size,
    writeTxs: (out) => {
      out.key('tx').beginArray();
      for (const txid of summary.txids) out.hexStrReversed(txid);
      out.endArray();
    },
    authDataRoot: () => ctx.state!.authDataRoot,
  };
  writeBlockJson(w, block, ctx, network);
  return w.toString();
}

/** ValuePoolDesc: id (pools only), monitored, then the total and the delta when known. */
function writeValuePool(w: JsonWriter, pool: ValuePoolView, id: string | null): void {
  w.beginObject();
  if (id !== null) w.key('id').plainStr(id);
  w.key('monitored').bool(pool.monitored);
  if (pool.chainValue !== null) {
    w.key('chainValue').amount(pool.chainValue);
    w.key('chainValueZat').int(pool.chainValue);
  }
  if (pool.valueDelta !== null) {
    w.key('valueDelta').amount(pool.valueDelta);
    w.key('valueDeltaZat').int(pool.valueDelta);
  }
  w.endObject();
}

function writeStateMembers(w: JsonWriter, state: BlockStateView): void {
  w.key('anchor').hexStrReversed(state.anchor);
  w.key('chainSupply');
  writeValuePool(w, state.pools.chainSupply, null);
  w.key('valuePools').beginArray();
  for (const pool of state.pools.valuePools) writeValuePool(w, pool, pool.id);
  w.endArray();
  w.key('trees').beginObject();
  for (const { id } of SHIELDED_POOL_ENTRIES) {
    const size = treeSizeOf(state, id);
    if (size !== null) w.key(id).beginObject().key('size').int(size).endObject();
  }
  w.endObject();
}

/** The members both forms of a verbose block open with, hash to blockcommitments. */
function writeBlockIdentity(w: JsonWriter, block: VerboseBlock, ctx: BlockChainContext): void {
  const h = block.header;
  w.key('hash').plainStr(block.hashHex);
  w.key('confirmations').int(ctx.confirmations);
  w.key('size').int(block.size);
  w.key('height').int(ctx.height);
  w.key('version').int(h.version);
  w.key('merkleroot').hexStrReversed(h.merkleRoot);
  w.key('blockcommitments').hexStrReversed(h.commitments);
}

function writeNeighbourLinks(w: JsonWriter, ctx: BlockChainContext): void {
  if (ctx.previousBlockHash) w.key('previousblockhash').hexStrReversed(ctx.previousBlockHash);
  if (ctx.nextBlockHash) w.key('nextblockhash').hexStrReversed(ctx.nextBlockHash);
}

function writeBlockJson(w: JsonWriter, block: VerboseBlock, ctx: BlockChainContext, network: NetworkParams): void {
  const h = block.header;
  const state = ctx.state ?? null;
  w.beginObject();
  if (state) {
    writeBlockIdentity(w, block, ctx);
    w.key('authdataroot').hexStrReversed(state.authDataRoot);
    w.key('finalsaplingroot').hexStrReversed(state.finalSaplingRoot);
    if (state.finalOrchardRoot) {
      // v6.12.2 prints the raw bytes (HexStr); v4.5.0–v5.2.0 printed them reversed.
      w.key('finalorchardroot');
      if (ctx.legacyOrchardRoot) w.hexStrReversed(state.finalOrchardRoot);
      else w.hexStr(state.finalOrchardRoot);
    }
    w.key('chainhistoryroot').hexStrReversed(state.chainHistoryRoot);
    block.writeTxs(w);
    writeHeaderTail(w, h, network);
    w.key('chainwork').plainStr(chainWorkHex(ctx.chainWork));
    writeStateMembers(w, state);
    writeNeighbourLinks(w, ctx);
    w.endObject();
    return;
  }
  const roots = headerDerivedRoots(network, ctx.height, h.commitments);
  writeBlockIdentity(w, block, ctx);
  w.key('authdataroot').hexStrReversed(roots.authDataRoot ? block.authDataRoot() : ZERO32);
  if (roots.finalSaplingRoot) w.key('finalsaplingroot').hexStrReversed(roots.finalSaplingRoot);
  if (roots.chainHistoryRoot) w.key('chainhistoryroot').hexStrReversed(roots.chainHistoryRoot);
  block.writeTxs(w);
  writeHeaderTail(w, h, network);
  w.key('chainwork').plainStr(chainWorkHex(ctx.chainWork));
  writeNeighbourLinks(w, ctx);
  w.endObject();
}

/** `getblockheader <hash> true` (rpc-http-json.md §7.5). */
export function blockHeaderToJson(
  header: BlockHeader,
  ctx: BlockChainContext,
  network: NetworkParams,
  /** From the chain state; null = the store keeps none (then only header-derived roots print). */
  storedFinalSaplingRoot: Uint8Array | null = null,
): string {
  const finalSaplingRoot = storedFinalSaplingRoot ?? headerDerivedRoots(network, ctx.height, header.commitments).finalSaplingRoot;
  const w = new JsonWriter();
  w.beginObject();
  w.key('hash').hexStrReversed(blockHeaderHash(header));
  w.key('confirmations').int(ctx.confirmations);
  w.key('height').int(ctx.height);
  w.key('version').int(header.version);
  w.key('merkleroot').hexStrReversed(header.merkleRoot);
  if (finalSaplingRoot) w.key('finalsaplingroot').hexStrReversed(finalSaplingRoot);
  writeHeaderTail(w, header, network);
  w.key('chainwork').plainStr(chainWorkHex(ctx.chainWork));
  writeNeighbourLinks(w, ctx);
  w.endObject();
  return w.toString();
}

/**
 * What `zecrpc decode-block` prints: the getblock verbosity-2 members that depend on the block
 * bytes alone, in zcashd's order. The era (which roots the header carries, whether
 * authdataroot applies) comes from the coinbase's declared height.
 */
export function decodedBlockToJson(block: Block, network: NetworkParams): string {
  const h = block.header;
  const height = declaredHeight(block);
  const roots = height === null ? null : headerDerivedRoots(network, height, h.commitments);
  const w = new JsonWriter();
  w.beginObject();
  w.key('hash').plainStr(block.hashHex);
  w.key('size').int(block.size);
  w.key('version').int(h.version);
  w.key('merkleroot').hexStrReversed(h.merkleRoot);
  w.key('blockcommitments').hexStrReversed(h.commitments);
  if (roots) w.key('authdataroot').hexStrReversed(roots.authDataRoot ? block.computeAuthDataRoot() : ZERO32);
  if (roots?.finalSaplingRoot) w.key('finalsaplingroot').hexStrReversed(roots.finalSaplingRoot);
  writeTxs(w, block.transactions, 2, network, undefined);
  writeHeaderTail(w, h, network);
  w.endObject();
  return w.toString();
}
