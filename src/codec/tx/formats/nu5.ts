/** v5 NU5 (ZIP-225): explicit branch id, Sapling bundle with shared anchor, Orchard bundle; ZIP-244 ids. */
import { readOrchardBundle, writeOrchardBundle } from '../orchard.js';
import { readSaplingV5Bundle, writeSaplingV5Bundle } from '../sapling.js';
import { newJoinSplitList } from '../sprout.js';
import { readTransparentPart, writeVin, writeVout } from '../transparent.js';
import { requireBranchId, type TransactionData } from '../types.js';
import { transactionData } from '../transaction-data.js';
import { zip244AuthDigest, zip244Digests, zip244TxId } from '../zip244.js';
import type { TransparentLayout, TxFormat } from './format.js';

const layout: TransparentLayout = { branchIdFirst: true, expiryHeight: true, emptyShieldedBytes: 3 };

export const v5Format: TxFormat = {
  name: 'v5',
  carries: { branchId: true, sapling: true, orchard: true, ironwood: false, joinSplits: false },
  transparentLayout: layout,
  read(r, header, t = readTransparentPart(r, layout)): TransactionData {
    const s = readSaplingV5Bundle(r);
    const orchard = readOrchardBundle(r);
    return transactionData(
      'v5',
      true,
      header.version,
      header.versionGroupId,
      t.consensusBranchId,
      t.lockTime,
      t.expiryHeight,
      t.vin,
      t.vout,
      newJoinSplitList(),
      null,
      null,
      s,
      orchard,
    );
  },
  write(w, tx) {
    w.u32(requireBranchId(tx)).u32(tx.lockTime).u32(tx.expiryHeight);
    writeVin(w, tx.vin);
    writeVout(w, tx.vout);
    writeSaplingV5Bundle(w, tx.sapling);
    writeOrchardBundle(w, tx.orchard);
  },
  txid: (tx, bytes) => zip244TxId(tx, bytes),
  authDigest: (tx, bytes) => zip244AuthDigest(tx, bytes),
  digests: (tx, bytes) => zip244Digests(tx, bytes),
};
