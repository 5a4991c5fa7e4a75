/**
 * What a Sprout JoinSplit costs an import: two chains that differ only in JoinSplits, each
 * imported as import-eras imports a calibration chain (a fresh store, group commit, headers of mainnet's size,
 * the trees on their thread), in the order A B B A for each pair of rounds. Each chain holds 110
 * coinbase-only blocks, a payout block, then BLOCKS blocks of 4 transactions of 2 inputs and 1
 * output; the second chain's transactions also carry JOINSPLITS JoinSplits each
 * (test-vectors/era-chain.ts: v4, Groth16, no value moved). The difference per JoinSplit is
 * printed beside what the import model charges one (bench/results/import-projection.json: two
 * Sapling-spend units and its bytes).
 * Run: npx tsx bench/import-joinsplits.ts [--blocks=300] [--joinsplits=5] [--rounds=2]
 * (bench/results/import-floors.md, run 13).
 */
// First: the bench runs with the import's Node options (relaunched with them otherwise).
import './lib/import-node-options.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BlockShape, EraChainGenerator } from '../test-vectors/era-chain.js';
import type { PlannedBlock } from '../test-vectors/era-shapes.js';
import { benchChainGenerator, chainNetwork, writeChainFile } from './lib/era-chain-file.js';
import { importChainDir, projectionFile } from './lib/era-import.js';
import { load, median, numberFlag } from './lib/measure.js';

const BLOCKS = numberFlag('blocks', 300);
const JOINSPLITS = numberFlag('joinsplits', 5);
const ROUNDS = numberFlag('rounds', 2);
if (JOINSPLITS < 1 || BLOCKS < 1 || ROUNDS < 1) {
  console.error('usage: import-joinsplits.ts [--blocks=N ≥ 1] [--joinsplits=N ≥ 1] [--rounds=N ≥ 1]');
  process.exit(2);
}

function* plan(generator: EraChainGenerator, shape: BlockShape): Iterable<PlannedBlock> {
  // Regtest's coinbases mature after 100 blocks; the payout then gives every later block its inputs.
  for (let i = 0; i < 110; i++) yield { era: 'feeder', block: generator.next([]) };
  const payouts = Math.min(15, generator.spendableCount);
  yield { era: 'feeder', block: generator.next(Array.from({ length: payouts }, () => ({ inputs: 1, outputs: 1000 }))) };
  for (let i = 0; i < BLOCKS; i++) yield { era: 'feeder', block: generator.next(shape) };
}

const root = mkdtempSync(join(tmpdir(), 'zecrpc-joinsplits-'));
try {
  const chains = [0, JOINSPLITS].map((joinSplits) => {
    const dir = join(root, `js${joinSplits}`);
    const generator = benchChainGenerator(`joinsplits-${joinSplits}`);
    const shape = Array.from({ length: 4 }, () => ({ inputs: 2, outputs: 1, ...(joinSplits ? { joinSplits } : {}) }));
    return { joinSplits, dir, written: writeChainFile(dir, generator, plan(generator, shape)) };
  });
  const cpu: number[][] = [[], []];
  const main: number[][] = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const c of order) {
      const datadir = mkdtempSync(join(root, 'store-'));
      const run = await importChainDir(chains[c]!.dir, datadir, chainNetwork(chains[c]!.dir));
      rmSync(datadir, { recursive: true, force: true });
      cpu[c]!.push(run.cpuMicros);
      main[c]!.push(run.mainThreadCpuMicros);
      console.log(
        `round ${round + 1}: ${chains[c]!.joinSplits} JoinSplits a transaction: ${(run.cpuMicros / 1e6).toFixed(2)} s CPU, ` +
          `${(run.mainThreadCpuMicros / 1e6).toFixed(2)} s on the main thread (${load()})`,
      );
    }
  }
  const count = BLOCKS * 4 * JOINSPLITS;
  const extraBytes = chains[1]!.written.total.bytes - chains[0]!.written.total.bytes;
  const perJoinSplit = (median(cpu[1]!) - median(cpu[0]!)) / count;
  const perJoinSplitMain = (median(main[1]!) - median(main[0]!)) / count;
  const costs = (
    JSON.parse(readFileSync(projectionFile(join(import.meta.dirname, 'results')), 'utf8')) as {
      unit_costs_us: { cpu: Record<string, number> };
    }
  ).unit_costs_us.cpu;
  const charged = 2 * costs.saplingSpends! + (extraBytes / count) * costs.bytes!;
  console.log(
    `${count.toLocaleString('en')} JoinSplits (${(extraBytes / 1e6).toFixed(1)} MB more): ${perJoinSplit.toFixed(0)} µs of CPU a JoinSplit ` +
      `(${perJoinSplitMain.toFixed(0)} µs on the main thread), medians of ${ROUNDS}; the import model charges ${charged.toFixed(0)} µs ` +
      `(two Sapling-spend units and ${(extraBytes / count).toFixed(0)} bytes)`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
