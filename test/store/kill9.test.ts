// kill -9 during an import, 3 trials (the full ≥ 20-trial run is test/long/kill9.ts).
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runChild, runTrial, writeKillChain } from '../long/kill9-lib.js';
import { tempDir } from '../support/store.js';

describe('kill -9 during import', () => {
  const root = tempDir('kill9');
  afterAll(() => root.remove());

  it('leaves a consistent store at every kill point and a complete one after restarting', async () => {
    const chain = writeKillChain(root.path, 0.5);
    const calib = await runChild(join(root.path, 'calibration'), chain.blocksDir);
    expect(calib.code).toBe(0);
    // Early, middle and late kill points within the measured import span.
    for (const [i, fraction] of [0.15, 0.5, 0.85].entries()) {
      const r = await runTrial(join(root.path, `trial-${i}`), chain, Math.floor(calib.importMs * fraction));
      expect(r.afterKill.problems).toEqual([]);
      expect(r.final.problems).toEqual([]);
      expect(r.final.tipHeight).toBe(chain.expected.length - 1);
      expect(r.final.blocksStored).toBe(chain.totalBlocks);
    }
    // A fixed amount of work (four imports, three kills and restarts): the limit only catches a hang, and a
    // loaded machine may take several times an idle one's minute.
  }, 600_000);
});
