/**
 * Version 2: nChainTx (`n` ‖ hash) for every block already in the index, so getblockchaininfo's
 * verificationprogress reads one record instead of walking the chain from genesis. New blocks
 * get theirs when accepted (chain.ts); this fills in the blocks a version-1 store holds.
 */
import type { ClassicLevel } from 'classic-level';
import { decodeIndexRecord, encodeChainTx, keys } from '../layout.js';
import { storedValue } from '../record-checksums.js';
import type { Migration } from './migration.js';

export const chainTxMigration: Migration = {
  version: 2,
  description: 'record nChainTx (transactions from genesis) for every block',
  async run(db: ClassicLevel<Buffer, Buffer>) {
    // Parents before children: sort every index record by height. One pass over the `H`
    // prefix; at mainnet scale ≈ 3.4 M small entries, well within memory.
    const blocks: { hash: Buffer; prev: string; height: number; txCount: number }[] = [];
    const prefix = Buffer.of(keys.indexPrefix);
    for await (const [key, value] of db.iterator({ gte: prefix, lt: Buffer.of(keys.indexPrefix + 1) })) {
      const rec = decodeIndexRecord(storedValue(db, value, key));
      blocks.push({
        hash: key.subarray(1),
        prev: Buffer.from(rec.header.subarray(4, 36)).toString('hex'),
        height: rec.height,
        txCount: rec.txCount,
      });
    }
    blocks.sort((a, b) => a.height - b.height);
    const chainTx = new Map<string, number>();
    const ops: { type: 'put'; key: Buffer; value: Buffer }[] = [];
    for (const b of blocks) {
      const parent = b.height === 0 ? 0 : chainTx.get(b.prev);
      if (parent === undefined) {
        throw new Error(`chain store is inconsistent: block ${Buffer.from(b.hash).reverse().toString('hex')} has no parent record`);
      }
      const n = parent + b.txCount;
      chainTx.set(b.hash.toString('hex'), n);
      ops.push({ type: 'put', key: keys.chainTx(b.hash), value: encodeChainTx(n) });
    }
    return ops;
  },
};
