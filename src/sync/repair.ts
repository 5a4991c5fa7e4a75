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
 */
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { NetworkParams } from '../chain/network.js';
import type { ChainStore } from '../store/chain.js';
import { StoreOpenError } from '../store/errors.js';
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
}

export interface RepairOptions {
  datadir: string;
  network: NetworkParams;
  /** Opens (creating) the store in `datadir`, as the command opens one for an import. */
  openStore(): Promise<ChainStore>;
  log(line: string): void;
  importOptions?: ImportOptions;
}

export function damagedStoreDirectory(datadir: string): string {
  return `${storeDirectory(datadir)}.damaged`;
}

export async function repairStore(opts: RepairOptions): Promise<RepairResult> {
  const dir = storeDirectory(opts.datadir);
  const damaged = damagedStoreDirectory(opts.datadir);
  const resumed = existsSync(damaged);
  if (!resumed) {
    if (!existsSync(join(dir, 'blocks'))) {
      throw new ImportError(`${dir} has no block files to rebuild the store from (${join(dir, 'blocks')} is missing)`);
    }
    // A server (or an import) with the store open would go on writing into the copy set aside.
    if (await indexIsHeld(join(dir, 'index'))) {
      throw new StoreOpenError(
        `the chain store at ${dir} is open in another process: stop the server (or the import) holding it, then run zecrpc verify -repair again`,
      );
    }
    renameSync(dir, damaged);
    opts.log(`moved the damaged store to ${damaged}`);
  } else {
    opts.log(`resuming the repair from ${damaged}`);
  }
  const store = await opts.openStore();
  try {
    const result = await importBlkFiles(store, join(damaged, 'blocks'), opts.importOptions ?? {});
    const tip = await store.tip();
    return {
      damagedCopy: damaged,
      resumed,
      blocksStored: result.added + result.sideChain,
      tip: tip ? { height: tip.height, hash: tip.hash } : null,
    };
  } finally {
    await store.close();
  }
}
