/** Non-overwintered layouts: v1 (transparent only) and v2+ (Sprout JoinSplits, PHGR proofs). */
import { sha256d } from '../../../crypto/hash.js';
import { type JoinSplitSection, newJoinSplitList, readJoinSplitSection, writeJoinSplitSection } from '../sprout.js';
import { readTransparentPart, writeVin, writeVout } from '../transparent.js';
import type { TransactionData, TransparentPart } from '../types.js';
import { legacyAuthDigest, type TransparentLayout, type TxFormat } from './format.js';

/**
 * Builds the decoded object with every field in one literal: an object spread here (the
 * earlier `{ ...base(), ... }`) cost more than reading all the inputs of a typical v1 tx.
 */
function legacyData(format: 'v1' | 'v2', version: number, t: TransparentPart, js: JoinSplitSection): TransactionData {
  return {
    format,
    overwintered: false,
    version,
    versionGroupId: 0,
    consensusBranchId: null,
    lockTime: t.lockTime,
    expiryHeight: 0,
    vin: t.vin,
    vout: t.vout,
    joinSplits: js.joinSplits,
    joinSplitPubKey: js.joinSplitPubKey,
    joinSplitSig: js.joinSplitSig,
    sapling: null,
    orchard: null,
  };
}

const v1Layout: TransparentLayout = { branchIdFirst: false, expiryHeight: false, emptyShieldedBytes: 0 };
const v2Layout: TransparentLayout = { branchIdFirst: false, expiryHeight: false, emptyShieldedBytes: 1 };

/** v1 (and the invalid version 0, which zcashd's C++ reads this way before rejecting it). */
export const v1Format: TxFormat = {
  name: 'v1',
  carries: { branchId: false, sapling: false, orchard: false, ironwood: false, joinSplits: false },
  transparentLayout: v1Layout,
  read(r, header, t = readTransparentPart(r, v1Layout)): TransactionData {
    return legacyData('v1', header.version, t, {
      joinSplits: newJoinSplitList(),
      joinSplitPubKey: null,
      joinSplitSig: null,
    });
  },
  write(w, tx) {
    writeVin(w, tx.vin);
    writeVout(w, tx.vout);
    w.u32(tx.lockTime);
  },
  txid: (_tx, bytes) => sha256d(bytes),
  authDigest: legacyAuthDigest,
};

/** Any non-overwintered version ≥ 2: v1 fields plus BCTV14 JoinSplits. */
export const v2Format: TxFormat = {
  name: 'v2',
  carries: { branchId: false, sapling: false, orchard: false, ironwood: false, joinSplits: true },
  transparentLayout: v2Layout,
  read(r, header, t = readTransparentPart(r, v2Layout)): TransactionData {
    const js = readJoinSplitSection(r, 'phgr');
    return legacyData('v2', header.version, t, js);
  },
  write(w, tx) {
    writeVin(w, tx.vin);
    writeVout(w, tx.vout);
    w.u32(tx.lockTime);
    writeJoinSplitSection(w, tx);
  },
  txid: (_tx, bytes) => sha256d(bytes),
  authDigest: legacyAuthDigest,
};
