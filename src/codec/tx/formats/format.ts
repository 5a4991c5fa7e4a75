/**
 * A transaction wire format. Each supported layout is one module implementing this; the
 * registry in `./index.ts` maps a header (overwintered flag, version, version group id) to
 * its format. Adding v6 (NU6.3) means adding one module and one registry entry.
 */
import type { ByteReader, ByteWriter } from '../../bytes.js';
import type { TransactionData, TxFormatName } from '../types.js';

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
  /** A consensus branch id in the header (v5). */
  readonly branchId: boolean;
  /** The Sapling value balance and spend/output lists (v4 and v5). */
  readonly sapling: boolean;
  /** An Orchard bundle (v5). */
  readonly orchard: boolean;
  /** A JoinSplit vector (v2–v4). */
  readonly joinSplits: boolean;
}

export interface TxFormat {
  readonly name: TxFormatName;
  readonly carries: TxCapabilities;
  /** Reads everything after the header (and version group id). */
  read(r: ByteReader, header: TxHeader): TransactionData;
  /** Writes everything after the header (and version group id). */
  write(w: ByteWriter, tx: TransactionData): void;
  /** Transaction id in internal byte order; `bytes` is the exact serialization. */
  txid(tx: TransactionData, bytes: Uint8Array): Uint8Array;
  /** Auth digest in internal order (all-0xff before v5). */
  authDigest(tx: TransactionData, bytes: Uint8Array): Uint8Array;
}

export const LEGACY_AUTH_DIGEST: Uint8Array = new Uint8Array(32).fill(0xff);
