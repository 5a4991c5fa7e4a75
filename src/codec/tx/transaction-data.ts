/**
 * The one place a `TransactionData` record is built. Every reader (the formats' and the quick
 * transparent path's) passes the fields positionally, so that no reader allocates an
 * intermediate object, and every record is created at one site with its fields in one order:
 * one object shape for all versions, which keeps the code reading them monomorphic.
 */
import type { JoinSplit, OrchardBundle, SaplingBundle, TransactionData, TxFormatName, TxIn, TxOut } from './types.js';

export function transactionData(
  format: TxFormatName,
  overwintered: boolean,
  version: number,
  versionGroupId: number,
  consensusBranchId: number | null,
  lockTime: number,
  expiryHeight: number,
  vin: TxIn[],
  vout: TxOut[],
  joinSplits: JoinSplit[],
  joinSplitPubKey: Uint8Array | null,
  joinSplitSig: Uint8Array | null,
  sapling: SaplingBundle | null,
  orchard: OrchardBundle | null,
  /** v6 only: a v5 or earlier record has no such field. */
  ironwood?: OrchardBundle | null,
): TransactionData {
  const data: TransactionData = {
    format,
    overwintered,
    version,
    versionGroupId,
    consensusBranchId,
    lockTime,
    expiryHeight,
    vin,
    vout,
    joinSplits,
    joinSplitPubKey,
    joinSplitSig,
    sapling,
    orchard,
  };
  if (ironwood !== undefined) data.ironwood = ironwood;
  return data;
}
