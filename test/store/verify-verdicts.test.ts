// Issue 41, item 5: `zecrpc verify` does not report what LevelDB itself discards. A log whose last
// record a crash cut short is not damage (LevelDB drops the torn record when it opens), the
// verdict is the same however often it runs, and a store its user cannot write is read without
// a write.
import { chmodSync, readdirSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { checkLevelDbFiles } from '../../src/store/leveldb-files.js';
import { openChainStore } from '../../src/store/index.js';
import { scanStore } from '../../src/store/scan.js';
import { mainnetGenesisRun } from '../support/memory-store.js';
import { tempDir } from '../support/store.js';

const blocks = mainnetGenesisRun();

/** Every path under `dir` with its mode bits. */
function modes(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const st = statSync(path);
      out.push(`${path.slice(dir.length)} ${(st.mode & 0o777).toString(8)} ${st.size}`);
      if (st.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out.sort();
}

describe('verify and what LevelDB discards itself', () => {
  const dir = tempDir('verify-verdicts');
  const indexDir = join(dir.path, 'zecrpc', 'index');
  beforeAll(async () => {
    const store = await openChainStore({ datadir: dir.path, network: MAINNET });
    for (const b of blocks) await store.addBlock(b);
    await store.close(); // the batches stay in LevelDB's log
  });
  afterAll(() => {
    chmodSync(dir.path, 0o700);
    dir.remove();
  });

  it('a log whose last record was cut short by a crash: not damage, and the same verdict on every run', async () => {
    const log = readdirSync(indexDir)
      .filter((f) => f.endsWith('.log'))
      .sort()
      .at(-1)!;
    const size = readFileSync(join(indexDir, log)).length;
    truncateSync(join(indexDir, log), size - 100); // inside the last batch (block 20's)
    expect(checkLevelDbFiles(indexDir).problems).toEqual([]);
    const verdicts = [];
    for (let run = 0; run < 3; run++) {
      const r = await scanStore(dir.path, MAINNET);
      verdicts.push({ problems: r.problems, records: r.recordsChecked, heights: r.heightsChecked });
    }
    // The torn batch was block 20's: LevelDB dropped it, the store ends at 19 and is sound.
    expect(verdicts).toEqual(Array(3).fill({ problems: [], records: 20, heights: 20 }));
    const store = await openChainStore({ datadir: dir.path, network: MAINNET });
    try {
      expect((await store.tip())?.height).toBe(19);
    } finally {
      await store.close();
    }
  });

  // As root the permission bits stop nothing, so this can only be shown as another user; the
  // read-only path itself is covered for every user by scan-read-only.test.ts (`readOnly: true`).
  it.skipIf(process.getuid?.() === 0)('a store its user cannot write (chmod -R a-w): checked, nothing written', async () => {
    const chmodAll = (mode: number, fileMode: number) => {
      const walk = (d: string) => {
        for (const name of readdirSync(d)) {
          const path = join(d, name);
          if (statSync(path).isDirectory()) {
            walk(path);
            chmodSync(path, mode);
          } else chmodSync(path, fileMode);
        }
      };
      walk(dir.path);
      chmodSync(dir.path, mode);
    };
    chmodAll(0o555, 0o444);
    try {
      const before = modes(dir.path);
      const first = await scanStore(dir.path, MAINNET);
      const second = await scanStore(dir.path, MAINNET);
      expect(first.readOnly).toBe(true);
      expect(first.problems).toEqual([]);
      expect(second.problems).toEqual([]);
      expect(modes(dir.path)).toEqual(before);
    } finally {
      chmodAll(0o755, 0o644);
    }
  });
});
