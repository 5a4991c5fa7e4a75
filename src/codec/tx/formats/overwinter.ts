/** v3 Overwinter (ZIP-202): adds nExpiryHeight; JoinSplits still carry PHGR proofs. */
import { sha256d } from '../../../crypto/hash.js';
import { readJoinSplitSection, writeJoinSplitSection } from '../sprout.js';
import { readTransparentPart, writeVin, writeVout } from '../transparent.js';
import type { TransactionData } from '../types.js';
import { legacyAuthDigest, type TransparentLayout, type TxFormat } from './format.js';

const layout: TransparentLayout = { branchIdFirst: false, expiryHeight: true, emptyShieldedBytes: 1 };

export const v3Format: TxFormat = {
  name: 'v3',
  carries: { branchId: false, sapling: false, orchard: false, ironwood: false, joinSplits: true },
  transparentLayout: layout,
  read(r, header, t = readTransparentPart(r, layout)): TransactionData {
    const js = readJoinSplitSection(r, 'phgr');
    return {
      format: 'v3',
      overwintered: true,
      version: header.version,
      versionGroupId: header.versionGroupId,
      consensusBranchId: null,
      lockTime: t.lockTime,
      expiryHeight: t.expiryHeight,
      vin: t.vin,
      vout: t.vout,
      // explicit fields, not `...js`: object spread is slow on this hot path
      joinSplits: js.joinSplits,
      joinSplitPubKey: js.joinSplitPubKey,
      joinSplitSig: js.joinSplitSig,
      sapling: null,
      orchard: null,
    };
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
