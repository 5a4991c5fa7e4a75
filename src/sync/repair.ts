/**
 * `zecrpc verify -repair`: rebuilds a chain store that lost committed data (store/open-check.ts)
 * from its own block files, which hold every block it stored (appended before the LevelDB batch
 * that referenced them, never rewritten) and are framed as zcashd's blk files are.
 *
 * A lost LevelDB batch cannot be mended in place: the chain state after it (coins, trees, value
 * pools) was computed from the blocks it held, and the state of any height but the tip is not
 * kept. So the whole index is built again: the damaged store is moved aside to
 * `<datadir>/zecrpc.damaged`, a new store is created in its place and the blocks of the old
 * block files are imported into it, validated and connected as any import. The old store is
 * left for the operator to delete once the new one serves.
 *
 * Interrupted, it resumes: while `zecrpc.damaged` exists, a rerun imports from it into the
 * store being rebuilt, which skips the blocks it already holds (the blk importer's resume position).
 *
 * A store started from a checkpoint (`zecrpc import --checkpoint`) holds no block below it: its
 * block files begin with the block after the checkpoint, whose parent none of them holds. The
 * rebuilt store is started from the same checkpoint, read back from the damaged store's records
 * (store/checkpoint-read.ts), before its blocks are imported. When those records cannot be read,
 * the repair is refused before anything is moved (or, resuming, before anything more is written),
 * naming the checkpoint and the import that rebuilds the store instead.
 */
import { existsSync, renameSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { NetworkParams } from '../chain/network.js';
import { decodeBlockHeader } from '../codec/block.js';
import { bytesEqual, toHexReversed } from '../codec/hex.js';
import { sha256d } from '../crypto/hash.js';
import { blockFileName } from '../store/block-data.js';
import type { ChainStore, CheckpointStart } from '../store/chain.js';
import { storedAddressIndexChoice } from '../store/address-index-record.js';
import { readCheckpointStart } from '../store/checkpoint-read.js';
import { addressIndexKept, StoreOpenError } from '../store/errors.js';
import { indexIsHeld } from '../store/index-dir.js';
import { storeDirectory } from '../store/layout.js';
import { importBlkFiles } from './blk.js';
import { ImportError } from './block-sink.js';
import type { ImportOptions } from './hex.js';

export interface RepairResult {
  /** Where the damaged store was moved (kept for the operator to delete). */
  damagedCopy: string;
  /** Whether this run resumed a repair interrupted before. */
  resumed: boolean;
  blocksStored: number;
  tip: { height: number; hash: Uint8Array } | null;
  /** The checkpoint height the rebuilt store was started from; null for a store that began at genesis. */
  checkpointHeight: number | null;
}

/** The repair would leave the operator worse off than the damaged store: nothing was moved or written. */
export class RepairRefusedError extends ImportError {
  constructor(message: string) {
    super(message);
    this.name = 'RepairRefusedError';
  }
}

export interface RepairOptions {
  datadir: string;
  network: NetworkParams;
  /** Opens (creating) the store in `datadir`, as the command opens one for an import. */
  openStore(): Promise<ChainStore>;
  log(line: string): void;
  importOptions?: ImportOptions;
  /** Whether `openStore` opens the rebuilt store with the address index (default true); it must be what the damaged store kept. */
  addressIndex?: boolean;
}

export function damagedStoreDirectory(datadir: string): string {
  return `${storeDirectory(datadir)}.damaged`;
}

export async function repairStore(opts: RepairOptions): Promise<RepairResult> {
  const dir = storeDirectory(opts.datadir);
  const damaged = damagedStoreDirectory(opts.datadir);
  const resumed = existsSync(damaged);
  if (!resumed && !existsSync(join(dir, 'blocks'))) {
    throw new ImportError(`${dir} has no block files to rebuild the store from (${join(dir, 'blocks')} is missing)`);
  }
  // Read before the held check, which opens LevelDB in place (replaying its log): a refused store is left as it was.
  const checkpoint = await checkpointOf(resumed ? damaged : dir, opts.network, resumed ? dir : null);
  await refuseOtherAddressIndex(resumed ? damaged : dir, resumed ? dir : null, opts.addressIndex ?? true);
  // A server (or an import) with the store open would go on writing into the copy set aside.
  if (!resumed && (await indexIsHeld(join(dir, 'index')))) {
    throw new StoreOpenError(
      `the chain store at ${dir} is open in another process: stop the server (or the import) holding it, then run zecrpc verify -repair again`,
    );
  }
  if (!resumed) {
    renameSync(dir, damaged);
    opts.log(`moved the damaged store to ${damaged}`);
  } else {
    opts.log(`resuming the repair from ${damaged}`);
  }
  const store = await opts.openStore();
  try {
    // Resuming a rebuild that had already started from the checkpoint, the store holds it.
    if (checkpoint && (await store.tip()) === null) {
      await store.startFromCheckpoint(checkpoint);
      opts.log(`started the rebuilt store at the damaged store's checkpoint, height ${checkpoint.height}`);
    }
    const result = await importBlkFiles(store, join(damaged, 'blocks'), opts.importOptions ?? {});
    const tip = await store.tip();
    return {
      damagedCopy: damaged,
      resumed,
      blocksStored: result.added + result.sideChain,
      tip: tip ? { height: tip.height, hash: tip.hash } : null,
      checkpointHeight: checkpoint?.height ?? null,
    };
  } finally {
    await store.close();
  }
}

/**
 * The rebuilt store is created with the -addressindex given, so it must be what the damaged store
 * kept: a store without the index would come back with it (or the reverse), and then be refused
 * by every command run with the option it had. Resuming, the store being rebuilt (`rebuilding`)
 * was created with a choice too, and is held to it (the damaged store's may be unreadable).
 * Refused before anything is moved or written.
 */
async function refuseOtherAddressIndex(damagedDir: string, rebuilding: string | null, asked: boolean): Promise<void> {
  const rerun = (keeps: boolean) => `Nothing was moved or changed: run zecrpc verify -repair again with -addressindex=${keeps ? 1 : 0}.`;
  const kept = await storedAddressIndexChoice(damagedDir);
  if (kept !== null && kept !== asked) {
    throw new RepairRefusedError(
      `the chain store at ${damagedDir} ${addressIndexKept(kept)}, and -addressindex=${asked ? 1 : 0} would rebuild it ` +
        `${asked ? 'with' : 'without'} one. ${rerun(kept)}`,
    );
  }
  const started = rebuilding === null ? null : await storedAddressIndexChoice(rebuilding);
  if (started !== null && started !== asked) {
    throw new RepairRefusedError(
      `the chain store being rebuilt at ${rebuilding} ${addressIndexKept(started)}, and -addressindex=${asked ? 1 : 0} asks for ` +
        `${asked ? 'one' : 'a store without one'}. ${rerun(started)}`,
    );
  }
}

/**
 * The checkpoint the store in `storeDir` started from, or null when its block files begin at the
 * genesis block (or hold no block it can read, and no checkpoint record is found). Refuses
 * a checkpoint start whose records cannot be read; `rebuilding` is the store a resumed repair writes.
 */
async function checkpointOf(storeDir: string, network: NetworkParams, rebuilding: string | null): Promise<CheckpointStart | null> {
  const first = await firstStoredBlock(join(storeDir, 'blocks'), network);
  if (first?.parent.every((b) => b === 0)) return null;
  const read = await readCheckpointStart(storeDir, first?.parent ?? null);
  if ('start' in read) return read.start;
  // Without a block to show where the store began, only a readable checkpoint record says it was
  // a checkpoint start; anything else is rebuilt from its block files as before.
  if (!first) return null;
  const began =
    read.height === null
      ? `did not start from the genesis block: its block files begin with block ${toHexReversed(first.hash)}, whose parent ` +
        `${toHexReversed(first.parent)} they do not hold (a store started from a checkpoint)`
      : `began at checkpoint height ${read.height}: its block files begin there, with block ${toHexReversed(first.hash)}`;
  const unchanged = rebuilding
    ? `Nothing more was changed: the damaged store stays in ${storeDir}, the store being rebuilt in ${rebuilding}.`
    : 'Nothing was moved or changed.';
  const moveAside = rebuilding ?? storeDir;
  throw new RepairRefusedError(
    `cannot rebuild the chain store at ${storeDir} from its block files: it ${began}, and the records of that checkpoint ` +
      `cannot be read (${read.problem}). ${unchanged} Import it again from the checkpoint instead: move ${moveAside} aside, ` +
      'run `zecrpc import --checkpoint FILE|URL` with the same -datadir and network, then `zecrpc import --blocks-dir` ' +
      `with the blocks folder of ${rebuilding ? storeDir : 'the store moved aside'}.`,
  );
}

/** The first block of a store's block files (its hash and parent), or null when there is none to read. */
async function firstStoredBlock(blocksDir: string, network: NetworkParams): Promise<{ hash: Uint8Array; parent: Uint8Array } | null> {
  let file;
  try {
    file = await open(join(blocksDir, blockFileName(0)), 'r');
  } catch {
    return null;
  }
  try {
    // Frame (magic, length) and the header, solution included (1344 bytes on mainnet and testnet).
    const head = Buffer.alloc(8 + 4096);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    if (bytesRead < 8 || !bytesEqual(head.subarray(0, 4), network.magic)) return null;
    const header = decodeBlockHeader(head.subarray(8, bytesRead));
    return { hash: sha256d(header.bytes), parent: header.prevHash };
  } catch {
    return null;
  } finally {
    await file.close();
  }
}
