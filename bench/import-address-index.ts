/**
 * What `-addressindex=0` saves an import: one era-shaped chain imported as `zecrpc import
 * --blocks-dir` runs (bench/lib/era-import.ts), into a fresh store with the address index (the
 * default) and into one without, in interleaved rounds (bench/lib/import-ab.ts). Per import: wall,
 * CPU (all threads, LevelDB's included) and the main thread's CPU, peak RSS, the store's size on
 * disk and its keys per prefix; per round, without ÷ with for each. Writes
 * bench/results/address-index-import.json.
 *
 *   npx tsx bench/import-contiguous.ts generate DIR      (the contiguous chain, about 100,500 blocks)
 *   npx tsx bench/import-address-index.ts DIR [--rounds=2] [--max-blocks=N]
 */
// First: the bench runs with the import's Node options (relaunched with them otherwise).
import './lib/import-node-options.js';
import { runImportAb } from './lib/import-ab.js';

await runImportAb({
  script: 'import-address-index.ts',
  a: { label: 'with    the address index', settings: { addressIndex: true } },
  b: { label: 'without the address index', settings: { addressIndex: false } },
  recordAs: 'address_index',
  values: [true, false],
  ratioName: 'without_over_with',
  resultFile: 'address-index-import.json',
  storePrefix: 'zecrpc-addrindex-',
  sameKeys: false,
});
