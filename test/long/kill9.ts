/**
 * kill -9 reliability run: `npx tsx test/long/kill9.ts [trials=20]`.
 * Calibrates how long a full import takes, then SIGKILLs the importer at uniformly random moments
 * within that span, restarts it, and checks the store after the kill and after completion.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChild, runTrial, writeKillChain } from './kill9-lib.js';

const trials = Number(process.argv[2] ?? 20);
const root = mkdtempSync(join(tmpdir(), 'zecrpc-kill9-'));
try {
  const chain = writeKillChain(root);
  // Two calibration runs: the first also pays for cold caches; the faster one sets the kill window.
  const calibs = [
    await runChild(join(root, 'calibration-1'), chain.blocksDir),
    await runChild(join(root, 'calibration-2'), chain.blocksDir),
  ];
  const failed = calibs.find((c) => c.code !== 0);
  if (failed) throw new Error(`calibration import failed: ${failed.stderr}`);
  const calib = calibs[0]!.importMs < calibs[1]!.importMs ? calibs[0]! : calibs[1]!;
  console.log(`chain: ${chain.totalBlocks} blocks in 3 blk files; a full import takes ${calib.importMs} ms`);
  const phases: Record<string, number> = {};
  let failures = 0;
  for (let i = 0; i < trials; i++) {
    const dir = join(root, `trial-${i}`);
    const killAt = Math.floor(Math.random() * calib.importMs * 0.95);
    const r = await runTrial(dir, chain, killAt);
    phases[r.afterKill.phase] = (phases[r.afterKill.phase] ?? 0) + 1;
    const problems = [...r.afterKill.problems.map((p) => `after kill: ${p}`), ...r.final.problems.map((p) => `final: ${p}`)];
    if (problems.length) failures++;
    console.log(
      `trial ${String(i + 1).padStart(2)}: kill at ${String(killAt).padStart(5)} ms${r.killed ? '' : ' (finished first)'}; ` +
        `left ${r.afterKill.phase === 'mid-reorg' ? `mid-reorg at tip ${r.afterKill.rawTipHeight}, recovered to` : 'tip'} ${r.afterKill.tipHeight} (${r.afterKill.blocksStored} blocks); ` +
        `after restart tip ${r.final.tipHeight}, ${r.final.blocksStored} blocks — ${problems.length ? 'FAIL: ' + problems.join('; ') : 'ok'}`,
    );
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`${trials - failures}/${trials} trials consistent; kill landed in phases: ${JSON.stringify(phases)}`);
  process.exitCode = failures ? 1 : 0;
} finally {
  rmSync(root, { recursive: true, force: true });
}
