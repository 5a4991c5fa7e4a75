/**
 * What the block read methods need from the chain store beyond one block: the tip, a block's
 * position relative to the active chain (confirmations, next block) and its stored bytes,
 * with zcashd's error for each way a lookup can fail.
 */
import type { BlockChainContext } from '../../../render/block.js';
import type { BlockIndexEntry, ChainStoreReader, ChainTip } from '../../../store/types.js';
import { RPC, RpcError } from '../../method.js';

/**
 * The active tip. zcashd always has at least the genesis block once RPC is out of warmup;
 * an empty zecrpc store has none, so tip-dependent methods refuse with a plain -1 (zcashd
 * would dereference a null tip here).
 */
export async function requireTip(store: ChainStoreReader): Promise<ChainTip> {
  const tip = await store.tip();
  if (!tip) throw new RpcError(RPC.MISC_ERROR, 'No blocks in the chain store');
  return tip;
}

/** Tip height, or −1 for an empty store (CChain::Height() of an empty chain). */
export async function tipHeight(store: ChainStoreReader): Promise<number> {
  return (await store.tip())?.height ?? -1;
}

/**
 * Confirmations and neighbours as blockToJSON / blockheaderToJSON compute them:
 * confirmations = tip − height + 1 only on the active chain (else −1); `nextblockhash` only
 * for active-chain blocks below the tip; `previousblockhash` for every block but genesis.
 */
export async function chainContext(store: ChainStoreReader, entry: BlockIndexEntry, tip: ChainTip | null): Promise<BlockChainContext> {
  const onActive = entry.onBestChain && tip !== null && entry.height <= tip.height;
  const next = onActive && entry.height < tip.height ? await store.hashAtHeight(entry.height + 1) : null;
  return {
    height: entry.height,
    confirmations: onActive ? tip.height - entry.height + 1 : -1,
    chainWork: entry.chainWork,
    previousBlockHash: entry.height > 0 ? entry.prevHash : null,
    nextBlockHash: next,
  };
}

/** Index entry for `hash`, or -5 "Block not found" (getblock, getblockheader). */
export async function requireBlockIndex(store: ChainStoreReader, hash: Uint8Array): Promise<BlockIndexEntry> {
  const entry = await store.blockIndex(hash);
  if (!entry) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Block not found');
  return entry;
}

/**
 * The block's bytes for getblock. zecrpc never prunes, so a block known only by its header is
 * zcashd's ReadBlockFromDisk failure: -32603 "Can't read block from disk".
 */
export async function requireBlockBytes(store: ChainStoreReader, entry: BlockIndexEntry): Promise<Uint8Array> {
  const bytes = entry.haveData ? await store.blockBytes(entry.hash) : null;
  if (!bytes) throw new RpcError(RPC.INTERNAL_ERROR, "Can't read block from disk");
  return bytes;
}

/** A JSON string token for text that needs no escaping (hex). */
export function jsonHexString(hex: string): string {
  return `"${hex}"`;
}

/** The active-chain block at an already range-checked height (zcashd's chainActive[h]). */
export async function activeHashAt(store: ChainStoreReader, height: number): Promise<Uint8Array> {
  const hash = await store.hashAtHeight(height);
  // Only reachable if the tip moved back between reading it and this lookup.
  if (!hash) throw new RpcError(RPC.INVALID_PARAMETER, 'Block height out of range');
  return hash;
}
