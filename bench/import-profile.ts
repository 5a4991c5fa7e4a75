/**
 * Builds the calibration chains whose labels start with the words given (bench/lib/calibration-chains.ts)
 * and imports each ROUNDS times as import-eras does, printing wall and CPU seconds: run under
 * `node --cpu-prof` to see where an imported unit (a Sapling spend, an Orchard action) spends its time.
 * Run: node --import tsx --cpu-prof bench/import-profile.ts [--blocks=250] [--rounds=1] [--tree-thread=0] "Orchard actions" ...
 */
// First: the bench runs with the import's Node options (relaunched with them otherwise).
import './lib/import-node-options.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrationChains } from './lib/calibration-chains.js';
import { benchChainGenerator, chainNetwork, writeChainFile } from './lib/era-chain-file.js';
import { importChainDir } from './lib/era-import.js';
import { numberFlag, positional } from './lib/measure.js';

const BLOCKS = numberFlag('blocks', 120);
const wanted = positional();
const root = mkdtempSync(join(tmpdir(), 'zecrpc-profile-'));
try {
  const specs = calibrationChains(BLOCKS)
    .map((spec, i) => ({ spec, i }))
    .filter(({ spec }) => wanted.length === 0 || wanted.some((w) => spec.label.startsWith(w)));
  for (const { spec, i } of specs) {
    const dir = join(root, `chain${i}`);
    const generator = benchChainGenerator(`cal${i}`, spec.scriptSigBytes);
    const written = writeChainFile(dir, generator, spec.blocks(generator));
    for (let round = 0; round < numberFlag('rounds', 1); round++) {
      const datadir = mkdtempSync(join(root, 'store-'));
      const run = await importChainDir(dir, datadir, chainNetwork(dir));
      rmSync(datadir, { recursive: true, force: true });
      const c = written.total;
      console.log(
        `${spec.label}: ${c.blocks} blocks, ${c.saplingSpends} spends, ${c.orchardActions} actions, ${c.saplingOutputs} Sapling outputs: ` +
          `${(run.wallMicros / 1e6).toFixed(2)} s wall, ${(run.cpuMicros / 1e6).toFixed(2)} s CPU, ` +
          `${(run.mainThreadCpuMicros / 1e6).toFixed(2)} s main thread`,
      );
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
