/** Non-overwintered layouts: v1 (transparent only) and v2+ (Sprout JoinSplits, PHGR proofs). */
import { sha256d } from '../../hash.js';
import { readJoinSplitSection, writeJoinSplitSection } from '../sprout.js';
import { readVin, readVout, writeVin, writeVout } from '../transparent.js';
import type { TransactionData } from '../types.js';
import { LEGACY_AUTH_DIGEST, type TxFormat } from './format.js';

function base(version: number) {
  return {
    overwintered: false,
    version,
    versionGroupId: 0,
    consensusBranchId: null,
    expiryHeight: 0,
    sapling: null,
    orchard: null,
  };
}

/** v1 (and the invalid version 0, which zcashd's C++ reads this way before rejecting it). */
export const v1Format: TxFormat = {
  name: 'v1',
  read(r, header): TransactionData {
    const vin = readVin(r);
    const vout = readVout(r);
    const lockTime = r.u32();
    return { ...base(header.version), format: 'v1', vin, vout, lockTime, joinSplits: [], joinSplitPubKey: null, joinSplitSig: null };
  },
  write(w, tx) {
    writeVin(w, tx.vin);
    writeVout(w, tx.vout);
    w.u32(tx.lockTime);
  },
  txid: (_tx, bytes) => sha256d(bytes),
  authDigest: () => LEGACY_AUTH_DIGEST,
};

/** Any non-overwintered version ≥ 2: v1 fields plus BCTV14 JoinSplits. */
export const v2Format: TxFormat = {
  name: 'v2',
  read(r, header): TransactionData {
    const vin = readVin(r);
    const vout = readVout(r);
    const lockTime = r.u32();
    const js = readJoinSplitSection(r, 'phgr');
    return { ...base(header.version), format: 'v2', vin, vout, lockTime, ...js };
  },
  write(w, tx) {
    writeVin(w, tx.vin);
    writeVout(w, tx.vout);
    w.u32(tx.lockTime);
    writeJoinSplitSection(w, tx);
  },
  txid: (_tx, bytes) => sha256d(bytes),
  authDigest: () => LEGACY_AUTH_DIGEST,
};
