/**
 * What `zecrpc serve` tells its metrics about the node around the RPC server: the store's height,
 * the upstream's tip as last seen, and the store's size on disk (file sizes summed, cached, so a
 * scrape every few seconds costs a directory listing at most twice a minute).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { NodeFigures } from '../rpc/http/metrics.js';
import type { ChainStore } from '../store/chain.js';
import { storeDirectory } from '../store/layout.js';

/** How long a measured disk size is reported before the directories are listed again. */
const DISK_SIZE_TTL_MS = 30_000;

/** The summed sizes of the regular files in `dir` and its subdirectories (0 when it is missing). */
export async function directoryBytes(dir: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) total += await directoryBytes(path);
    // A file LevelDB removed between the listing and its stat counts as nothing.
    else if (e.isFile()) total += (await stat(path).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

/** The store's parts: LevelDB's directory and the flat block files (store/chain-db.ts). */
function diskSizer(datadir: string): () => Promise<{ index: number; blocks: number }> {
  const dir = storeDirectory(datadir);
  let cached: { at: number; sizes: Promise<{ index: number; blocks: number }> } | null = null;
  return () => {
    const now = Date.now();
    if (!cached || now - cached.at > DISK_SIZE_TTL_MS) {
      const sizes = Promise.all([directoryBytes(join(dir, 'index')), directoryBytes(join(dir, 'blocks'))]).then(([index, blocks]) => ({
        index,
        blocks,
      }));
      cached = { at: now, sizes };
    }
    return cached.sizes;
  };
}

export function nodeFigures(store: ChainStore, datadir: string, upstreamHeight: (() => number | null) | null): NodeFigures {
  return {
    storeHeight: async () => (await store.tip())?.height ?? null,
    ...(upstreamHeight ? { upstreamHeight } : {}),
    diskBytes: diskSizer(datadir),
    damagedReads: () => store.damagedReads,
  };
}
