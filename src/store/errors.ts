/** Errors the chain store reports for blocks it refuses. Each names the block and the reason. */
import { toHexReversed } from '../codec/hex.js';

/** Why a block was refused. */
export type RejectReason =
  | 'decode'
  | 'merkle-root'
  | 'genesis'
  | 'network'
  | 'unknown-parent'
  | 'too-large'
  /** A header rule (Equihash, proof of work, difficulty, time, checkpoint, coinbase height). */
  | 'header'
  /** A transaction rule checked before connecting (CheckBlock, ContextualCheckBlock, founders' reward). */
  | 'transactions'
  /** Connecting it fails: a spent output is missing, a pool goes wrong, a committed root differs. */
  | 'state'
  /** An ancestor was found invalid. */
  | 'invalid-parent'
  /** Switching to it would disconnect more blocks than the reorganization limit. */
  | 'reorg-too-deep'
  /** Switching to it failed for another reason (undo data gone, an unreadable block); the store stays on its chain. */
  | 'reorg-failed';

/** A block the store refused: why (`reason`) and, where a rule was checked, zcashd's name for it (`rule`). */
export class BlockRejectedError extends Error {
  constructor(
    readonly reason: RejectReason,
    message: string,
    /** Block hash (internal order) when the header could be read. */
    readonly blockHash: Uint8Array | null,
    /** The rule it breaks, as zcashd names it (its reject reason) where a rule was checked. */
    readonly rule?: string,
  ) {
    super(message);
    this.name = 'BlockRejectedError';
  }
}

/** The parent is not in the index. Importers catch this one and hold the block back. */
export class UnknownParentError extends BlockRejectedError {
  constructor(
    blockHash: Uint8Array,
    readonly prevHash: Uint8Array,
  ) {
    super(
      'unknown-parent',
      `block ${toHexReversed(blockHash)} rejected: its parent ${toHexReversed(prevHash)} is not in the store`,
      blockHash,
    );
    this.name = 'UnknownParentError';
  }
}

/** The store directory belongs to another network or a newer schema. */
export class StoreOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreOpenError';
  }
}

/**
 * What a store's record says of the address index, as messages name it. A store without the
 * record may predate the index (schema versions before 4 build it when upgraded).
 */
export function addressIndexKept(keeps: boolean): string {
  return keeps
    ? 'was created to keep the address index (with -addressindex=1, the default, or by a zecrpc that always builds it)'
    : 'keeps no address index (it was created with -addressindex=0)';
}

/**
 * A store with no record of being created without the address index (layout.ts `O`), whose tip
 * block has no address-index entry: every block connected past genesis writes one, so the record
 * is more likely lost than the index. Opened as a store with the index, it would answer
 * getaddressbalance and the other address calls from an index that is not there.
 */
export class AddressIndexRecordLostError extends StoreOpenError {
  constructor(
    readonly dir: string,
    readonly tip: { hash: Uint8Array; height: number },
  ) {
    super(
      `the chain store at ${dir} has no record of being created without the address index, yet its tip block ` +
        `${toHexReversed(tip.hash)} (height ${tip.height}) has no address-index entry: the record that says the store keeps ` +
        'no index (written when it was created with -addressindex=0) is probably lost, and serving the store as one with the ' +
        'index would answer the address calls from an empty index. Rebuild it with zecrpc verify -repair -addressindex=0 ' +
        '(or -addressindex=1 if it was created with the index).',
    );
    this.name = 'AddressIndexRecordLostError';
  }
}

/**
 * The store was opened asking for the address index it does not keep, or without the one it
 * keeps (ChainStoreOptions.addressIndex): a store keeps what it was created with.
 */
export class AddressIndexMismatchError extends StoreOpenError {
  constructor(
    readonly dir: string,
    /** Whether the store keeps the address index (the request asked for the other). */
    readonly storeKeepsIndex: boolean,
  ) {
    const keeps = addressIndexKept(storeKeepsIndex);
    const asked = storeKeepsIndex ? '-addressindex=0 asks for a store without one' : '-addressindex=1 (the default) asks for one';
    super(
      `the chain store at ${dir} ${keeps}, and ${asked}. The address index covers every block the store holds (from genesis, ` +
        'or from its checkpoint), so it cannot be added to or removed from an existing store: give ' +
        `-addressindex=${storeKeepsIndex ? 1 : 0} to every command that opens this store (serve, import, verify), ` +
        `or import into a new -datadir with -addressindex=${storeKeepsIndex ? 0 : 1}.`,
    );
    this.name = 'AddressIndexMismatchError';
  }
}

/**
 * The store takes no writes: it was opened read-only on a full disk (disk-reserve.ts), or a
 * write failed and it stopped writing. Reads go on; reopening the store (with space) lifts it.
 */
export class StoreNotWritableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreNotWritableError';
  }
}

/** A write refused while the disk is nearly full (disk-reserve.ts); nothing was written, later writes may succeed. */
export class DiskSpaceLowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DiskSpaceLowError';
  }
}

/**
 * A LevelDB read that failed (an I/O error, a corrupt table), with the key it was reading: the
 * binding's error names the file, never the key. Its `code` is the binding's.
 */
export class StoreReadError extends Error {
  readonly code: string | undefined;

  constructor(
    readonly key: Uint8Array,
    cause: unknown,
  ) {
    super(`reading key ${Buffer.from(key).toString('hex')}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StoreReadError';
    const code = (cause as { code?: unknown } | null)?.code;
    this.code = typeof code === 'string' ? code : undefined;
  }
}
