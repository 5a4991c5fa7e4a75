/**
 * The indexers of one store, run as one step of the chain: the core step (the chain state)
 * first, whose result every other indexer receives, then the rest; at a disconnect in reverse,
 * each secondary indexer given what the core gives back. At open it checks what the indexers
 * declare: distinct undo tags, at most one core, a core for those that need one, and key
 * prefixes that no two owners (the chain included) share.
 */
import { MAX_REORG_DEPTH, decodeUndoRecord, encodeUndoRecord } from './undo.js';
import type { BatchOp } from './block-data.js';
import { CHAIN_KEY_PREFIXES, encodeTip, keys } from './layout.js';
import { isCoreIndexer, type ChainBlock, type CoreIndexer, type Indexer, type IndexReadView } from './indexes/indexer.js';

const hexByte = (b: number): string => `0x${b.toString(16).padStart(2, '0')}`;

export class IndexerSet {
  readonly core: CoreIndexer | null;

  constructor(readonly all: readonly Indexer[]) {
    const tags = new Set(all.map((i) => i.undoTag));
    if (tags.size !== all.length) throw new Error('two indexers share an undo tag');
    const cores = all.filter(isCoreIndexer);
    if (cores.length > 1) throw new Error(`a store has one core indexer, not ${cores.map((i) => i.name).join(' and ')}`);
    this.core = cores[0] ?? null;
    const needy = all.find((i) => i.needsCore);
    if (needy && !this.core) {
      throw new Error(`the ${needy.name} indexer needs the chain-state indexer (the core step, its coins view) in the same store`);
    }
    const owners = new Map<number, string>(CHAIN_KEY_PREFIXES.map((p) => [p, 'the chain']));
    for (const indexer of all) {
      for (const prefix of new Set(indexer.keyPrefixes ?? [])) {
        const owner = owners.get(prefix);
        if (owner) throw new Error(`the ${indexer.name} indexer's key prefix ${hexByte(prefix)} is already ${owner}'s`);
        owners.set(prefix, `the ${indexer.name} indexer`);
      }
    }
  }

  /** The batch that makes `block` the new tip: its height entry, every indexer's data, its undo record. */
  async connectOps(block: ChainBlock, view: IndexReadView): Promise<BatchOp[]> {
    const ops: BatchOp[] = [{ type: 'put', key: keys.height(block.height), value: Buffer.from(block.hash) }];
    const undo = new Map<number, Uint8Array>();
    // Undo data deeper than any allowed reorganization is never read again.
    if (block.height > MAX_REORG_DEPTH) {
      const old = view.get(keys.height(block.height - MAX_REORG_DEPTH - 1));
      if (old) ops.push({ type: 'del', key: keys.undo(old) });
    }
    const core = this.core ? await this.core.connect(block, view) : null;
    // In the order given (the batch's operations as before); the core's result is already there.
    for (const indexer of this.all) {
      const result = indexer === this.core ? core! : await indexer.connect(block, view, core?.connected);
      ops.push(...result.ops);
      if (result.undo) undo.set(indexer.undoTag, result.undo);
    }
    // Fresh: a block's undo record exists only while it is connected (disconnecting deletes it),
    // so a group that connects a block and then buries it past the reorganization limit writes
    // neither the record nor its deletion (see BatchOp).
    if (undo.size) ops.push({ type: 'put', key: keys.undo(block.hash), value: encodeUndoRecord(undo), fresh: true });
    ops.push({ type: 'put', key: keys.tip(), value: encodeTip(block.hash, block.height) });
    return ops;
  }

  /** The batch that takes `block`, the tip, off the active chain; `prevHash` is its parent (null for genesis). */
  async disconnectOps(block: ChainBlock, prevHash: Uint8Array | null, view: IndexReadView): Promise<BatchOp[]> {
    const ops: BatchOp[] = [{ type: 'del', key: keys.height(block.height) }];
    const undoValue = view.get(keys.undo(block.hash));
    const undo = undoValue ? decodeUndoRecord(undoValue) : new Map<number, Uint8Array>();
    const coreUndo = this.core ? undo.get(this.core.undoTag) : undefined;
    const core = this.core && coreUndo ? this.core.disconnected(coreUndo) : undefined;
    // Last connected, first disconnected: an indexer may build on what an earlier one wrote.
    for (const indexer of [...this.all].reverse()) {
      ops.push(
        ...(await indexer.disconnect(block, undo.get(indexer.undoTag) ?? null, view, undo, indexer === this.core ? undefined : core)),
      );
    }
    if (undoValue) ops.push({ type: 'del', key: keys.undo(block.hash) });
    if (prevHash === null) {
      ops.push({ type: 'del', key: keys.tip() });
    } else {
      ops.push({ type: 'put', key: keys.tip(), value: encodeTip(prevHash, block.height - 1) });
    }
    return ops;
  }
}
