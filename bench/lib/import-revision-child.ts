/**
 * One import for bench/import-revisions.ts, with the sources of the checkout at ROOT only: nothing
 * here imports this checkout's modules, so each side runs its own code and no other. Prints the
 * import's figures as one JSON line.
 *
 *   node --import tsx [ROOT's Node options] import-revision-child.ts CHAIN_DIR ROOT DATADIR [MAX_BLOCKS]
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [chainDir, root, datadir, maxBlocks] = process.argv.slice(2);
if (!chainDir || !root || !datadir) throw new Error('usage: import-revision-child.ts CHAIN_DIR ROOT DATADIR [MAX_BLOCKS]');
/* eslint-disable @typescript-eslint/no-explicit-any -- another revision's modules, typed by neither */
const load = (path: string): Promise<any> => import(pathToFileURL(join(root, path)).href);
const { importChainDir } = await load('bench/lib/era-import.ts');
const { chainNetwork } = await load('bench/lib/era-chain-file.ts');
const { countKeys } = await load('bench/lib/store-keys.ts');
const run = await importChainDir(chainDir, datadir, chainNetwork(chainDir), maxBlocks ? { maxBlocks: Number(maxBlocks) } : {});
const keys = await countKeys(join(datadir, 'zecrpc', 'index'));
console.log(
  JSON.stringify({
    wall_seconds: run.wallMicros / 1e6,
    cpu_seconds: run.cpuMicros / 1e6,
    main_thread_cpu_seconds: run.mainThreadCpuMicros / 1e6,
    blocks: run.blocks,
    keys: keys.count,
  }),
);
