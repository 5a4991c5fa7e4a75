/**
 * Opens the chain store for a command, turning LevelDB's "one process per store" refusal into
 * zcashd's message for a data directory another process holds. Commands keep the disk reserve
 * (store/disk-reserve.ts), so a full disk leaves the store readable.
 */
import { addressIndexOption, ConfigError, dbcacheBytesOption, type NodeConfig } from '../config.js';
import { openChainStore, type ChainStore } from '../store/chain.js';
import { DISK_SPACE_POLICY } from '../store/disk-reserve.js';
import { StoreOpenError } from '../store/errors.js';
import { typedCommand } from './typed-command.js';

/** LevelDB reports a store held by another process as an IO error on its LOCK file. */
export function isStoreLockedError(e: unknown): boolean {
  return e instanceof StoreOpenError && /IO error: lock .*LOCK/.test(e.message);
}

/** zcashd's message for a data directory another process holds. */
export function lockedStoreError(config: Pick<NodeConfig, 'datadir'>): ConfigError {
  return new ConfigError(
    `Error: Cannot obtain a lock on data directory ${config.datadir}. zecrpc is probably already running. ` +
      `(One process at a time: stop the server before \`${typedCommand()} import\`, or let the server follow a node with -upstream.)`,
  );
}

export interface StoreOpenOptions {
  durable?: boolean;
  /** Check Equihash solutions of imported headers (default true). */
  verifySolutions?: boolean;
  /** Hears schema upgrades and what a checkpoint start could not verify. */
  log?: (line: string) => void;
  /** Group commit (ChainStoreOptions.groupCommit): for `zecrpc import`, which owns the store. */
  groupCommit?: boolean;
  /** The command only writes: a store opened read-only on a full disk is refused at once. */
  writes?: boolean;
  /** The node's clock, Unix seconds (the header's future-time rule). */
  now?: () => number;
}

export async function openStoreOrExplain(config: NodeConfig, opts: StoreOpenOptions = {}): Promise<ChainStore> {
  let store: ChainStore;
  try {
    store = await openChainStore({
      datadir: config.datadir,
      network: config.network,
      durable: opts.durable,
      verifySolutions: opts.verifySolutions,
      now: opts.now,
      log: opts.log,
      groupCommit: opts.groupCommit,
      // The coins cache serves group commit's reads only (store/committed-coins.ts).
      ...(opts.groupCommit ? { coinCacheBytes: dbcacheBytesOption(config) } : {}),
      diskSpace: DISK_SPACE_POLICY,
      addressIndex: addressIndexOption(config),
    });
  } catch (e) {
    if (isStoreLockedError(e)) throw lockedStoreError(config);
    throw e;
  }
  const readOnly = store.notWritable;
  if (opts.writes && readOnly) {
    await store.close();
    throw readOnly;
  }
  return store;
}
