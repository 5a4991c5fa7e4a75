/**
 * Imported first by every bench that measures `zecrpc import`: the bench runs again in a child
 * process unless it already runs with the Node options the import runs with (bin/zecrpc.js's
 * shebang, and bin/relaunch.js's IMPORT_NODE_OPTIONS), so that what it measures is the import as
 * shipped, its garbage collector included. In the first process the bench's other modules still
 * load (their top-level code runs); its own body waits on this one, and never runs there.
 */
import { join } from 'node:path';
import { IMPORT_NODE_OPTIONS, relaunchWith } from '../../bin/relaunch.js';
import { launcherNodeArgs } from './launcher-args.js';

export const IMPORT_BENCH_NODE_OPTIONS: readonly string[] = [
  ...launcherNodeArgs(join(import.meta.dirname, '..', '..')),
  ...IMPORT_NODE_OPTIONS,
];

await relaunchWith(IMPORT_BENCH_NODE_OPTIONS);

/** Those of them this process runs with (all, unless a profiled or debugged run stayed in its process). */
export const appliedNodeOptions = (): string[] => IMPORT_BENCH_NODE_OPTIONS.filter((o) => process.execArgv.includes(o));
