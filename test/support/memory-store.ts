// A test fixture of the ChainStoreReader interface held in memory, built from real vector
// blocks: the 21 consecutive mainnet blocks 0..20 (lightwalletd/mainnet_genesis) form the best
// chain, and side-chain blocks can be added with their real height and chain work. The best
// chain is connected through the real state transition (state/apply-block.ts), so chain-state
// reads answer as the LevelDB store's do; side blocks are never connected.
import { readFileSync } from 'node:fs';
import { MAINNET, type NetworkParams } from '../../src/chain/network.js';
import { blockWork } from '../../src/chain/pow.js';
import { decodeBlock } from '../../src/codec/block.js';
import { STORED_BLOCK_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { hexToBytes } from '../../src/codec/hex.js';
import { toHex } from '../../src/codec/hex.js';
import { applyBlock, type Coin } from '../../src/state/apply-block.js';
import type { BlockChainState, ChainStateTip, ShieldedPool } from '../../src/state/chain-state.js';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import type { BlockIndexEntry, ChainStoreReader, ChainTip, TxLocation } from '../../src/store/types.js';
import { readHexVector, vectorPath } from './vectors.js';

const key = (h: Uint8Array): string => Buffer.from(h).toString('hex');

export interface SideBlock {
  bytes: Uint8Array;
  height: number;
  chainWork: bigint;
  /** Store only the header (haveData false). */
  headerOnly?: boolean;
}

export class MemoryChainStore implements ChainStoreReader {
  readonly network: NetworkParams;
  private readonly index = new Map<string, BlockIndexEntry>();
  private readonly data = new Map<string, Uint8Array>();
  private readonly byHeight: Uint8Array[] = [];
  private readonly txs = new Map<string, TxLocation>();
  private readonly txidLists = new Map<string, Uint8Array[]>();
  /** nChainTx of best-chain blocks (side blocks here have no parents, so theirs is unknown). */
  private readonly chainTxs = new Map<string, number>();
  private readonly states = new Map<string, BlockChainState>();
  private readonly anchors = new Map<string, Uint8Array>();
  private stateTip: ChainStateTip | null = null;
  /** Height `bestHeaderHeight` reports; defaults to the tip. */
  headersHeight: number | null = null;

  constructor(network: NetworkParams, bestChain: readonly Uint8Array[], side: readonly SideBlock[] = []) {
    this.network = network;
    let work = 0n;
    let chainTx = 0;
    const coins = new Map<string, Coin>();
    bestChain.forEach((bytes, height) => {
      const block = decodeBlock(bytes);
      work += blockWork(block.header.bits);
      chainTx += block.transactions.length;
      this.chainTxs.set(key(block.hash), chainTx);
      const applied = applyBlock({
        network,
        hashers: defaultPoolHashers(),
        block,
        height,
        parent: this.stateTip,
        coin: (o) => coins.get(`${toHex(o.hash)}:${o.index}`) ?? null,
      });
      for (const s of applied.spent) coins.delete(`${toHex(s.outpoint.hash)}:${s.outpoint.index}`);
      for (const c of applied.created) coins.set(`${toHex(c.outpoint.hash)}:${c.outpoint.index}`, c.coin);
      for (const r of applied.newRoots) this.anchors.set(`${r.pool}:${key(r.root)}`, applied.tip.trees[r.pool].toTreeStateBytes('padded'));
      this.states.set(key(block.hash), applied.record);
      this.stateTip = applied.tip;
      this.add(bytes, height, work, true, false);
      this.byHeight.push(block.hash);
      block.transactions.forEach((tx, index) => this.txs.set(key(tx.txid), { blockHash: block.hash, height, index }));
    });
    for (const s of side) this.add(s.bytes, s.height, s.chainWork, false, s.headerOnly ?? false);
  }

  private add(bytes: Uint8Array, height: number, chainWork: bigint, onBestChain: boolean, headerOnly: boolean): void {
    // As a store reads what it holds: side blocks may be from today's chain (v6 transactions).
    const block = decodeBlock(bytes, STORED_BLOCK_ACCEPTANCE);
    this.index.set(key(block.hash), {
      hash: block.hash,
      height,
      prevHash: block.header.prevHash,
      header: block.header.bytes,
      chainWork,
      size: headerOnly ? 0 : block.size,
      txCount: block.transactions.length,
      haveData: !headerOnly,
      onBestChain,
    });
    if (!headerOnly) this.data.set(key(block.hash), bytes);
  }

  async tip(): Promise<ChainTip | null> {
    const height = this.byHeight.length - 1;
    return height < 0 ? null : { hash: this.byHeight[height]!, height };
  }

  /** The tip is the one the store was made with: it never changes. */
  tipChanges(): number {
    return 0;
  }

  async hashAtHeight(height: number): Promise<Uint8Array | null> {
    return this.byHeight[height] ?? null;
  }

  async blockIndex(hash: Uint8Array): Promise<BlockIndexEntry | null> {
    return this.index.get(key(hash)) ?? null;
  }

  async blockBytes(hash: Uint8Array): Promise<Uint8Array | null> {
    return this.data.get(key(hash)) ?? null;
  }

  async blockTxids(hash: Uint8Array): Promise<Uint8Array[] | null> {
    const k = key(hash);
    const bytes = this.data.get(k);
    if (!bytes) return null;
    // Listed once per block, as the LevelDB store keeps its list from the block's acceptance on.
    let txids = this.txidLists.get(k);
    if (!txids) this.txidLists.set(k, (txids = decodeBlock(bytes, STORED_BLOCK_ACCEPTANCE).transactions.map((t) => t.txid)));
    return txids.map((t) => t.slice());
  }

  async txLocation(txid: Uint8Array): Promise<TxLocation | null> {
    return this.txs.get(key(txid)) ?? null;
  }

  async chainTx(hash: Uint8Array): Promise<number | null> {
    return this.chainTxs.get(key(hash)) ?? null;
  }

  async blockState(hash: Uint8Array): Promise<BlockChainState | null> {
    return this.states.get(key(hash)) ?? null;
  }

  async treeStateAt(pool: ShieldedPool, root: Uint8Array): Promise<Uint8Array | null> {
    return this.anchors.get(`${pool}:${key(root)}`) ?? null;
  }

  async chainStateTip(): Promise<ChainStateTip | null> {
    return this.stateTip;
  }

  /** Mainnet 0..20 completes no 2^16-leaf subtree. */
  async subtrees(): Promise<{ index: number; root: Uint8Array; endHeight: number }[]> {
    return [];
  }

  async bestHeaderHeight(): Promise<number> {
    return this.headersHeight ?? this.byHeight.length - 1;
  }

  async sizeOnDisk(): Promise<number> {
    let total = 0;
    for (const b of this.data.values()) total += b.length;
    return total;
  }
}

/** Mainnet blocks 0..20 as raw bytes (line n = height n). */
export function mainnetGenesisRun(): Uint8Array[] {
  return readFileSync(vectorPath('lightwalletd', 'mainnet_genesis'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .map((l) => hexToBytes(l));
}

/** A block of lightwalletd's index of its vectors: where it is, its height, hash, time and txids. */
export interface IndexedBlock {
  where: string;
  height: number;
  hash: string;
  time: number;
  txids: string[];
}

/** The index's entries for mainnet blocks 0..20 (mainnetGenesisRun), by height. */
export function mainnetGenesisIndex(): IndexedBlock[] {
  return (JSON.parse(readFileSync(vectorPath('lightwalletd', 'index.json'), 'utf8')) as { blocks: IndexedBlock[] }).blocks
    .filter((b) => b.where.startsWith('mainnet_genesis'))
    .sort((a, b) => a.height - b.height);
}

/** A zcashd-2019 golden block with the chain work its captured getblock output reports. */
export function zcashd2019Side(height: number): SideBlock & { golden: Record<string, unknown> } {
  const golden = JSON.parse(readFileSync(vectorPath('zcashd-2019', `${height}.getblock.json`), 'utf8')) as Record<string, unknown>;
  return {
    bytes: readHexVector('zcashd-2019', `${height}.hex`),
    height,
    chainWork: BigInt('0x' + String(golden.chainwork)),
    golden,
  };
}

/** Mainnet 0..20 as the best chain, zcashd-2019 block 24202 as a side-chain block. */
export function fixtureStore(): MemoryChainStore {
  return new MemoryChainStore(MAINNET, mainnetGenesisRun(), [zcashd2019Side(24202)]);
}
