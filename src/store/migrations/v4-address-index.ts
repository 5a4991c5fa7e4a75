/**
 * Version 4: the insight explorer indexes (indexes/address-index.ts) for the blocks a version-3
 * store already holds, built by replaying its active chain (replay.ts).
 *
 * The live index learns what an input spends from the chain state's coins view `c`, which holds
 * the state before the block being connected. During this replay `c` already holds the state at
 * the tip (version 3 built it), where every output spent since is gone. So the replay keeps the
 * outputs it will see spent later as scratch records beside its resume position (`X` ‖ 4 ‖
 * outpoint), written in the same chunk batches as the index, and shows them to the address
 * index in place of `c`. An output still unspent at the tip is never spent during the replay, so
 * it is never copied; every other spendable output is spent before the replay ends, so the
 * scratch space is empty when the migration completes.
 */
import type { Block } from '../../codec/block.js';
import { isUnspendable } from '../../codec/script/opcodes.js';
import type { BatchOp } from '../block-data.js';
import { AddressIndex } from '../indexes/address-index.js';
import { chainStateKeys, encodeCoin } from '../indexes/chain-state-index.js';
import type { ChainBlock, Indexer, IndexerConnect, IndexReadView } from '../indexes/indexer.js';
import { keys } from '../layout.js';
import { replayMigration } from './replay.js';

export const ADDRESS_INDEX_VERSION = 4;

const COIN_PREFIX = chainStateKeys.coin(new Uint8Array(32), 0)[0]!;
const COIN_KEY_LENGTH = 37;

const scratchKey = (txid: Uint8Array, n: number): Buffer => keys.migrationScratch(ADDRESS_INDEX_VERSION, txid, n);

/** `c` as it stood before the block: coin keys resolve from the replay's scratch records. */
function historicCoins(view: IndexReadView): IndexReadView {
  return {
    get(key) {
      if (key.length !== COIN_KEY_LENGTH || key[0] !== COIN_PREFIX) return view.get(key);
      return view.get(scratchKey(key.subarray(1, 33), key.readUInt32LE(33)));
    },
  };
}

/** The scratch writes of one block: its spends leave, its outputs spent after it (not in `c` at the tip) enter. */
function scratchOps(block: Block, height: number, txids: readonly Uint8Array[], view: IndexReadView): BatchOp[] {
  if (height === 0) return [];
  const ops: BatchOp[] = [];
  const created = new Map<string, { txid: Uint8Array; n: number; value: number; script: Uint8Array; coinbase: boolean }>();
  block.transactions.forEach((tx, t) => {
    const txid = txids[t]!;
    if (!tx.isCoinbase) {
      for (const { prevout } of tx.data.vin) {
        const id = Buffer.from(prevout.hash).toString('hex') + prevout.index;
        if (!created.delete(id)) ops.push({ type: 'del', key: scratchKey(prevout.hash, prevout.index) });
      }
    }
    tx.data.vout.forEach((out, n) => {
      if (isUnspendable(out.scriptPubKey)) return;
      created.set(Buffer.from(txid).toString('hex') + n, {
        txid,
        n,
        value: out.value,
        script: out.scriptPubKey,
        coinbase: t === 0 && tx.isCoinbase,
      });
    });
  });
  for (const c of created.values()) {
    if (view.get(chainStateKeys.coin(c.txid, c.n))) continue;
    ops.push({
      type: 'put',
      key: scratchKey(c.txid, c.n),
      value: encodeCoin({ value: c.value, height, coinbase: c.coinbase, scriptPubKey: c.script }),
    });
  }
  return ops;
}

/** The address index as the replay runs it: connects only, against the coins of its own past. */
class AddressIndexReplay implements Indexer {
  private readonly index = new AddressIndex();
  readonly name = this.index.name;
  readonly undoTag = this.index.undoTag;

  async connect(chainBlock: ChainBlock, view: IndexReadView): Promise<IndexerConnect> {
    const result = await this.index.connect(chainBlock, historicCoins(view));
    const ops = scratchOps(await chainBlock.block(), chainBlock.height, chainBlock.txids, view);
    return { ...result, ops: [...result.ops, ...ops] };
  }

  disconnect(): never {
    throw new Error('the address-index migration only replays the active chain forwards');
  }
}

export const addressIndexMigration = replayMigration({
  version: ADDRESS_INDEX_VERSION,
  description: 'build the address, spent and timestamp indexes (insight explorer) for the active chain',
  label: 'address index',
  indexer: () => new AddressIndexReplay(),
  buildsAddressIndex: true,
});
