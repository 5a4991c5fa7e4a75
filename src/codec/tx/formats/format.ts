/**
 * A transaction wire format. Each supported layout is one module implementing this; the
 * registry in `./index.ts` maps a header (overwintered flag, version, version group id) to
 * its format; `TxAcceptance` (`../acceptance.ts`) says which of them a caller reads.
 */
import type { ByteReader, ByteWriter } from '../../bytes.js';
import type { TransactionData, TransparentPart, TxFormatName } from '../types.js';

export interface TxHeader {
  overwintered: boolean;
  version: number;
  versionGroupId: number;
}

/**
 * What a wire format carries, so consumers ask the format instead of comparing version numbers
 * (zcashd's TxToJSON tests nVersion ≥ 4 for Sapling fields, ≥ 5 for Orchard; these say the same
 * for every format zcashd decodes).
 */
export interface TxCapabilities {
  /** A consensus branch id in the header (v5, v6). */
  readonly branchId: boolean;
  /** The Sapling value balance and spend/output lists (v4, v5, v6). */
  readonly sapling: boolean;
  /** An Orchard bundle (v5, v6). */
  readonly orchard: boolean;
  /** An Ironwood bundle (v6, ZIP 229). */
  readonly ironwood: boolean;
  /** A JoinSplit vector (v2–v4). */
  readonly joinSplits: boolean;
}

/**
 * Where a format's transparent part sits and how many bytes follow it when it has no shielded
 * parts (all of them zero: v2's and v3's JoinSplit count; v4's value balance, Sapling spend and
 * output counts and JoinSplit count; v5's Sapling spend and output counts and Orchard action
 * count; v6's those and the Ironwood action count; none in v1).
 */
export interface TransparentLayout {
  /** Branch id, lock time and expiry height come before the inputs (v5, v6), not after the outputs. */
  readonly branchIdFirst: boolean;
  /**
   * After the outputs, an expiry height follows the lock time (v3, v4); before Overwinter the lock
   * time ends the transparent part. Read only when `branchIdFirst` is false.
   */
  readonly expiryHeight: boolean;
  readonly emptyShieldedBytes: number;
}

export interface TxFormat {
  readonly name: TxFormatName;
  readonly carries: TxCapabilities;
  /** Where the transparent part sits and what follows it when nothing shielded does. */
  readonly transparentLayout: TransparentLayout;
  /**
   * Reads everything after the header (and version group id). With `transparent`, that part
   * was already read and `r.pos` is just after it.
   */
  read(r: ByteReader, header: TxHeader, transparent?: TransparentPart): TransactionData;
  /** Writes everything after the header (and version group id). */
  write(w: ByteWriter, tx: TransactionData): void;
  /** Transaction id in internal byte order; `bytes` is the exact serialization. */
  txid(tx: TransactionData, bytes: Uint8Array): Uint8Array;
  /** Auth digest in internal order (all-0xff before v5; ZIP 244 in v5, ZIP 229 in v6). */
  authDigest(tx: TransactionData, bytes: Uint8Array): Uint8Array;
  /** Both, from one walk over `bytes`: formats whose two digests hash the same tree of fields (v5, v6). */
  digests?(tx: TransactionData, bytes: Uint8Array): { txid: Uint8Array; authDigest: Uint8Array };
}

/**
 * The auth digest of every format before v5: 32 bytes of 0xff, a fresh copy for each
 * transaction, since the caller gets bytes it may change (a shared constant reversed in place
 * would have changed every later transaction's).
 */
export function legacyAuthDigest(): Uint8Array {
  return new Uint8Array(32).fill(0xff);
}
