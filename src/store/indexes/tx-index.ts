/**
 * The transaction index (`t` ‖ txid → height ‖ position), best chain only: getrawtransaction
 * without a block hash, as zcashd with -txindex. It needs only the stored txid list, never the
 * decoded block, so reorganizations do not re-hash v5 transactions.
 */
import type { BatchOp } from '../block-data.js';
import { decodeTxLocation, encodeTxLocation, keys } from '../layout.js';
import type { ChainBlock, Indexer, IndexerConnect, IndexReadView } from './indexer.js';

export class TxIndex implements Indexer {
  readonly name = 'txindex';
  readonly undoTag = 0x74;
  readonly keyPrefixes = [keys.txPrefix];

  connect(block: ChainBlock): IndexerConnect {
    // zcashd's ConnectBlock returns before indexing anything for the genesis block, so its coinbase
    // is not in the transaction index (getrawtransaction cannot find it).
    if (block.height === 0) return { ops: [] };
    const ops: BatchOp[] = block.txids.map((txid, i) => ({
      type: 'put',
      key: keys.tx(txid),
      value: encodeTxLocation(block.height, i),
    }));
    return { ops };
  }

  disconnect(block: ChainBlock, _undo: Uint8Array | null, view: IndexReadView): BatchOp[] {
    const ops: BatchOp[] = [];
    // Only remove entries that point at this block: a txid seen earlier on the chain keeps its entry.
    block.txids.forEach((txid, i) => {
      const v = view.get(keys.tx(txid));
      if (!v) return;
      const loc = decodeTxLocation(v);
      if (loc.height === block.height && loc.index === i) ops.push({ type: 'del', key: keys.tx(txid) });
    });
    return ops;
  }
}
