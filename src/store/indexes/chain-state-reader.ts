/**
 * Reads of the chain state (chain-state-index.ts), beside the data they read: what getblock,
 * z_gettreestate, z_getsubtreesbyindex and sendrawtransaction ask of the store, and what another
 * index may learn from the chain state (the coins an input spends) when it runs without the
 * chain state's connect result (the version-4 replay, direct calls).
 */
import type { ClassicLevel } from 'classic-level';
import type { Block } from '../../codec/block.js';
import { isUnspendable } from '../../codec/script/opcodes.js';
import type { Coin } from '../../state/apply-block.js';
import {
  decodeBlockChainState,
  decodeChainStateTip,
  type BlockChainState,
  type ChainStateTip,
  type PoolHashers,
  type ShieldedPool,
} from '../../state/chain-state.js';
import type { ShieldedPoolId } from '../../state/pools.js';
import type { CoinsView } from '../types.js';
import {
  CHAIN_STATE_UNDO_TAG,
  chainStateKeys,
  chainStateLookups,
  chainStateUndoSpent,
  decodeCoin,
  decodeSubtree,
} from './chain-state-index.js';
import type { ChainBlock, DisconnectedBlock, IndexReadView } from './indexer.js';

/** A Map key for an outpoint. */
function outpointId(txid: Uint8Array, n: number): string {
  return Buffer.from(txid.buffer, txid.byteOffset, 32).toString('latin1') + n;
}

/**
 * What each input of `block` spends, read from the coins view `c` as it stood before the block
 * and from the block's own earlier outputs, as state/apply-block.ts resolves them when the chain
 * state connects the block. `missingState` is thrown when a spend is not found and the view holds
 * no chain state at all (every spend would then look unknown: refuse, not guess).
 */
export function inputCoinsFromCoinsView(
  chainBlock: ChainBlock,
  block: Block,
  view: IndexReadView,
  missingState: () => Error,
): (Coin | null)[][] {
  const { height, txids } = chainBlock;
  const created = new Map<string, Coin>();
  return block.transactions.map((tx, i) => {
    const coins: (Coin | null)[] = [];
    if (!tx.isCoinbase) {
      for (const { prevout } of tx.data.vin) {
        const key = outpointId(prevout.hash, prevout.index);
        const own = created.get(key);
        if (own) {
          created.delete(key);
          coins.push(own);
          continue;
        }
        const stored = view.get(chainStateKeys.coin(prevout.hash, prevout.index));
        if (!stored && !view.get(chainStateKeys.tip())) throw missingState();
        // A store started from a checkpoint lacks the outputs created before its start.
        coins.push(stored ? decodeCoin(stored) : null);
      }
    }
    tx.data.vout.forEach((out, k) => {
      if (!isUnspendable(out.scriptPubKey)) {
        created.set(outpointId(txids[i]!, k), { value: out.value, height, scriptPubKey: out.scriptPubKey, coinbase: tx.isCoinbase });
      }
    });
    return coins;
  });
}

/** What the chain state gives back for a block leaving the chain, from the block's whole undo record; null without its blob. */
export function disconnectedFromUndoRecord(record: ReadonlyMap<number, Uint8Array>): DisconnectedBlock | null {
  const blob = record.get(CHAIN_STATE_UNDO_TAG);
  return blob ? { spent: chainStateUndoSpent(blob) } : null;
}

/** The chain state's reads for a serving store: `read` sees pending writes before LevelDB. */
export class ChainStateReader {
  constructor(
    private readonly read: (key: Buffer) => Buffer | undefined,
    private readonly db: ClassicLevel<Buffer, Buffer>,
    private readonly hashers: PoolHashers,
  ) {}

  blockState(hash: Uint8Array): BlockChainState | null {
    const v = this.read(chainStateKeys.blockState(hash));
    return v ? decodeBlockChainState(v) : null;
  }

  treeStateAt(pool: ShieldedPool, root: Uint8Array): Uint8Array | null {
    const v = this.read(chainStateKeys.anchor(pool, root));
    return v ? new Uint8Array(v) : null;
  }

  coinsView(): CoinsView {
    return {
      ...chainStateLookups(this.read, this.hashers),
      // A prefix read of LevelDB: a serving store writes every block at once (only an importer,
      // which owns the store, holds blocks back in a write group).
      hasUnspentOutputs: async (txid) => {
        const prefix = chainStateKeys.coin(txid, 0).subarray(0, 33);
        return (await this.db.keys({ gt: prefix, lte: chainStateKeys.coin(txid, 0xffffffff), limit: 1 }).all()).length > 0;
      },
    };
  }

  tip(): ChainStateTip | null {
    const v = this.read(chainStateKeys.tip());
    return v ? decodeChainStateTip(v, this.hashers) : null;
  }

  async subtrees(pool: ShieldedPoolId, start: number, limit: number): Promise<{ index: number; root: Uint8Array; endHeight: number }[]> {
    const out: { index: number; root: Uint8Array; endHeight: number }[] = [];
    if (limit <= 0 || start > 0xffffffff) return out;
    const prefix = chainStateKeys.subtreePrefix(pool);
    const end = Buffer.from(prefix);
    end[end.length - 1]! += 1;
    // LevelDB takes the limit as a 32-bit int (2^32 would read as 0); the tree has far fewer subtrees.
    for await (const [key, value] of this.db.iterator({
      gte: chainStateKeys.subtree(pool, start),
      lt: end,
      limit: Math.min(limit, 0x7fffffff),
    })) {
      out.push({ index: key.readUInt32BE(2), ...decodeSubtree(value) });
    }
    return out;
  }
}
