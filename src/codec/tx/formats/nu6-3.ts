/**
 * v6 NU6.3 (ZIP 229): v5's layout (explicit branch id, Sapling bundle with shared anchor, Orchard
 * bundle) followed by an Ironwood bundle in the Orchard encoding; both Orchard-protocol bundles
 * allow the enableCrossAddress flag. ZIP-229 ids.
 */
import { readIronwoodBundle, readV6OrchardBundle, writeOrchardBundle } from '../orchard.js';
import { readSaplingV5Bundle, writeSaplingV5Bundle } from '../sapling.js';
import { newJoinSplitList } from '../sprout.js';
import { readTransparentPart, writeVin, writeVout } from '../transparent.js';
import { transactionData } from '../transaction-data.js';
import { requireBranchId, type TransactionData } from '../types.js';
import { zip229AuthDigest, zip229Digests, zip229TxId } from '../zip229.js';
import type { TransparentLayout, TxFormat } from './format.js';

/** After the outputs: the Sapling spend and output counts, the Orchard and the Ironwood action counts. */
const layout: TransparentLayout = { branchIdFirst: true, expiryHeight: true, emptyShieldedBytes: 4 };

export const v6Format: TxFormat = {
  name: 'v6',
  carries: { branchId: true, sapling: true, orchard: true, ironwood: true, joinSplits: false },
  transparentLayout: layout,
  read(r, header, t = readTransparentPart(r, layout)): TransactionData {
    const sapling = readSaplingV5Bundle(r);
    const orchard = readV6OrchardBundle(r);
    const ironwood = readIronwoodBundle(r);
    return transactionData(
      'v6',
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
      sapling,
      orchard,
      ironwood,
    );
  },
  write(w, tx) {
    w.u32(requireBranchId(tx)).u32(tx.lockTime).u32(tx.expiryHeight);
    writeVin(w, tx.vin);
    writeVout(w, tx.vout);
    writeSaplingV5Bundle(w, tx.sapling);
    writeOrchardBundle(w, tx.orchard);
    writeOrchardBundle(w, tx.ironwood ?? null);
  },
  txid: (tx, bytes) => zip229TxId(tx, bytes),
  authDigest: (tx, bytes) => zip229AuthDigest(tx, bytes),
  digests: (tx, bytes) => zip229Digests(tx, bytes),
};
