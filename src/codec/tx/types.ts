/**
 * Decoded transaction structures. Every byte field is a zero-copy view into the buffer the
 * transaction was decoded from, in wire (internal) order. Amounts are JS numbers of
 * zatoshis: decoding rejects every value outside ±MAX_MONEY, so they are always exact.
 */

export const COIN = 100_000_000;
/** The most zatoshis any amount may hold (21 million ZEC). */
export const MAX_MONEY = 21_000_000 * COIN;

/** v3 (Overwinter) transactions' version group id. */
export const OVERWINTER_VERSION_GROUP_ID = 0x03c48270;
/** v4 (Sapling) transactions' version group id. */
export const SAPLING_VERSION_GROUP_ID = 0x892f2085;
/** v5 (ZIP 225, NU5) transactions' version group id. */
export const NU5_VERSION_GROUP_ID = 0x26a7270a;
/** v6 (ZIP 229), valid from NU6.3. */
export const NU6_3_VERSION_GROUP_ID = 0xd884b698;
/** zcashd's version group id for its placeholder future transaction format (ZFUTURE). */
export const ZFUTURE_VERSION_GROUP_ID = 0xffffffff;
/** zcashd's version number for its placeholder future transaction format (ZFUTURE). */
export const ZFUTURE_TX_VERSION = 0xffff;

/** The output a transparent input spends. */
export interface OutPoint {
  /** 32 bytes, internal order (printed reversed). */
  hash: Uint8Array;
  index: number;
}

/** A transparent input. */
export interface TxIn {
  prevout: OutPoint;
  scriptSig: Uint8Array;
  sequence: number;
}

/** A transparent output. */
export interface TxOut {
  /** zatoshis */
  value: number;
  scriptPubKey: Uint8Array;
}

/** A JoinSplit's proof system: PHGR13 before Sapling, Groth16 from it. */
export type SproutProofKind = 'phgr' | 'groth16';

/** A Sprout JoinSplit description. */
export interface JoinSplit {
  vpubOld: number;
  vpubNew: number;
  anchor: Uint8Array;
  nullifiers: [Uint8Array, Uint8Array];
  commitments: [Uint8Array, Uint8Array];
  ephemeralKey: Uint8Array;
  randomSeed: Uint8Array;
  macs: [Uint8Array, Uint8Array];
  proofKind: SproutProofKind;
  /** 296 bytes (PHGR/BCTV14) or 192 bytes (Groth16). */
  proof: Uint8Array;
  ciphertexts: [Uint8Array, Uint8Array];
}

/** A Sapling spend description. */
export interface SaplingSpend {
  cv: Uint8Array;
  /** v4: the spend's own anchor; v5: the bundle's shared anchor. */
  anchor: Uint8Array;
  nullifier: Uint8Array;
  rk: Uint8Array;
  zkproof: Uint8Array;
  spendAuthSig: Uint8Array;
}

/** A Sapling output description. */
export interface SaplingOutput {
  cv: Uint8Array;
  cmu: Uint8Array;
  ephemeralKey: Uint8Array;
  encCiphertext: Uint8Array;
  outCiphertext: Uint8Array;
  zkproof: Uint8Array;
}

/** A transaction's Sapling part: spends, outputs, value balance and binding signature. */
export interface SaplingBundle {
  spends: SaplingSpend[];
  outputs: SaplingOutput[];
  valueBalance: number;
  /** v5 only: the anchor shared by every spend (present iff there are spends). */
  sharedAnchor: Uint8Array | null;
  /** Present iff spends + outputs > 0. */
  bindingSig: Uint8Array | null;
}

/** An Orchard action description. */
export interface OrchardAction {
  cv: Uint8Array;
  nullifier: Uint8Array;
  rk: Uint8Array;
  cmx: Uint8Array;
  ephemeralKey: Uint8Array;
  encCiphertext: Uint8Array;
  outCiphertext: Uint8Array;
  spendAuthSig: Uint8Array;
}

/**
 * An Orchard-protocol bundle: v5's and v6's Orchard component and v6's Ironwood component share
 * this encoding (ZIP 229).
 */
export interface OrchardBundle {
  actions: OrchardAction[];
  /** Bit 0 enableSpends, bit 1 enableOutputs, bit 2 enableCrossAddress (v6 only; reserved 0 in v5). */
  flags: number;
  valueBalance: number;
  anchor: Uint8Array;
  proof: Uint8Array;
  bindingSig: Uint8Array;
}

/**
 * A field that is present exactly when another is (a JoinSplit signature iff there are
 * JoinSplits, a binding signature iff a Sapling bundle has spends or outputs): decoding
 * guarantees it; a transaction built by hand without it is refused by name.
 */
export function requirePart<T>(value: T | null, whose: string, field: string): T {
  if (value === null) throw new Error(`${whose} needs ${field}`);
  return value;
}

/** The consensus branch id of a transaction whose format carries one (v5, v6), or an error saying it has none. */
export function requireBranchId(tx: Pick<TransactionData, 'consensusBranchId' | 'format'>): number {
  if (tx.consensusBranchId === null) throw new Error(`a ${tx.format} transaction has no consensus branch id`);
  return tx.consensusBranchId;
}

/**
 * The fields a transaction has before its shielded parts: for v1 and v2 the inputs, outputs and
 * lock time (expiry height 0); for v3 and v4 also the expiry height; for v5 the branch id, lock
 * time, expiry height, inputs and outputs.
 */
export interface TransparentPart {
  readonly consensusBranchId: number | null;
  readonly lockTime: number;
  readonly expiryHeight: number;
  readonly vin: TxIn[];
  readonly vout: TxOut[];
}

/** The wire layout a transaction was read with. One module per format under `formats/`. */
export type TxFormatName = 'v1' | 'v2' | 'v3' | 'v4' | 'v5' | 'v6' | 'zfuture';

/** Every field of a decoded transaction of any version, as the wire format gives it. */
export interface TransactionData {
  format: TxFormatName;
  overwintered: boolean;
  /** Header low 31 bits. */
  version: number;
  /** 0 when not overwintered. */
  versionGroupId: number;
  /** v5 and v6 only. */
  consensusBranchId: number | null;
  lockTime: number;
  /** 0 when not overwintered. */
  expiryHeight: number;
  vin: TxIn[];
  vout: TxOut[];
  joinSplits: JoinSplit[];
  /** Present iff joinSplits is non-empty. */
  joinSplitPubKey: Uint8Array | null;
  joinSplitSig: Uint8Array | null;
  /** v4, v5 and v6: null when spends + outputs = 0 (then the value balance is 0); earlier formats: null. */
  sapling: SaplingBundle | null;
  /** v5 and v6 with at least one action. */
  orchard: OrchardBundle | null;
  /**
   * v6 with at least one Ironwood action (ZIP 229); absent or null in every other format, so
   * transactions built by hand before v6 need not name it.
   */
  ironwood?: OrchardBundle | null;
}
