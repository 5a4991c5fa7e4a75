/** v3 Overwinter (ZIP-202): adds nExpiryHeight; JoinSplits still carry PHGR proofs. */
import { sha256d } from '../../../crypto/hash.js';
import { readJoinSplitSection, writeJoinSplitSection } from '../sprout.js';
import { readTransparentPart, writeVin, writeVout } from '../transparent.js';
import type { TransactionData } from '../types.js';
import { transactionData } from '../transaction-data.js';
import { legacyAuthDigest, type TransparentLayout, type TxFormat } from './format.js';

const layout: TransparentLayout = { branchIdFirst: false, expiryHeight: true, emptyShieldedBytes: 1 };

export const v3Format: TxFormat = {
  name: 'v3',
  carries: { branchId: false, sapling: false, orchard: false, ironwood: false, joinSplits: true },
  transparentLayout: layout,
  read(r, header, t = readTransparentPart(r, layout)): TransactionData {
    const js = readJoinSplitSection(r, 'phgr');
    // Explicit fields, not `...js`: object spread is slow on this hot path.
    return transactionData(
      'v3',
      true,
      header.version,
      header.versionGroupId,
      null,
      t.lockTime,
      t.expiryHeight,
      t.vin,
      t.vout,
      js.joinSplits,
      js.joinSplitPubKey,
      js.joinSplitSig,
      null,
      null,
    );
  },
  write(w, tx) {
    writeVin(w, tx.vin);
    writeVout(w, tx.vout);
    w.u32(tx.lockTime).u32(tx.expiryHeight);
    writeJoinSplitSection(w, tx);
  },
  txid: (_tx, bytes) => sha256d(bytes),
  authDigest: legacyAuthDigest,
};
