/**
 * What the tree thread (src/sync/tree-prefetch.ts) does to an import: one era-shaped chain
 * imported as `zecrpc import --blocks-dir` runs on two cores (bench/lib/era-import.ts), with the
 * note-commitment trees of the blocks read ahead stepped on a thread (the default with two cores
 * or more) and with every block's trees hashed on the main thread (as on one core), in
 * interleaved rounds (bench/lib/import-ab.ts). Both must leave the same store keys. Per import:
 * wall, CPU (all threads) and the main thread's CPU, peak RSS, the store's size; per round,
 * thread ÷ main thread for each. Writes bench/results/tree-thread-import.json.
 *
 *   npx tsx bench/import-contiguous.ts generate DIR      (the 100,526-block contiguous chain)
 *   npx tsx bench/import-tree-thread.ts DIR [--rounds=2] [--max-blocks=N]
 */
// First: the bench runs with the import's Node options (relaunched with them otherwise).
import './lib/import-node-options.js';
import { runImportAb } from './lib/import-ab.js';

await runImportAb({
  script: 'import-tree-thread.ts',
  a: { label: 'trees on the main thread', settings: { treeThread: false } },
  b: { label: 'trees on the tree thread', settings: { treeThread: true } },
  recordAs: 'tree_thread',
  values: [false, true],
  ratioName: 'thread_over_main_thread',
  resultFile: 'tree-thread-import.json',
  storePrefix: 'zecrpc-treethread-',
  sameKeys: true,
});
