import { describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { ImportProgress, checkStoreIntegrity, importHex, openChainStore } from '../../src/store/index.js';
import { vectorPath } from '../support/vectors.js';
import { mainnetChain, tempDir } from '../support/store.js';

describe('import progress and durable mode', () => {
  it('writes periodic log lines with blocks, MB/s and a percentage when not on a terminal', () => {
    const lines: string[] = [];
    const p = new ImportProgress({
      label: 'import hex',
      unit: 'bytes',
      total: 4000,
      mode: 'log',
      logIntervalMs: 0,
      logger: { info: (m) => lines.push(m), warn: () => undefined },
    });
    p.tick(1000, 1000);
    p.tick(1000, 1000);
    p.stop();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^import hex: 2 blocks, 0\.0 MB, [\d.]+ MB\/s, 50\.0%/);
  });

  it('logs through the importer and works with fsync-per-block durability', async () => {
    const dir = tempDir('durable');
    const store = await openChainStore({ datadir: dir.path, network: MAINNET, durable: true });
    try {
      const r = await importHex(store, [vectorPath('lightwalletd', 'mainnet_genesis')], { progress: 'silent' });
      expect(r.added).toBe(mainnetChain().length);
      expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    } finally {
      await store.close();
      dir.remove();
    }
  });
});
