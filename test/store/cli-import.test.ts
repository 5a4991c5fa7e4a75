import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runImport, splitImportArgv } from '../../src/cli/import.js';
import { loadNodeConfig } from '../../src/config.js';
import { checkStoreIntegrity, openChainStore } from '../../src/store/index.js';
import { REGTEST_REORG_DIR, blkRecords, hex, mainnetChain, regtestReorg, tempDir } from '../support/store.js';
import { MAINNET } from '../../src/chain/network.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import { ChainStateIndex } from '../../src/store/indexes/chain-state-index.js';
import { regtestGenesis } from '../../test-vectors/regtest-builder.js';
import { SHIELDED_REGTEST, ShieldedChainBuilder } from '../../test-vectors/regtest-shielded.js';

/** What each shielding moves: a coinbase of the 6.25 ZEC subsidy less its 1.25 ZEC founders' reward. */
const SHIELDED_COINBASE = 500_000_000n;
describe('zecrpc import', () => {
  const dirs: ReturnType<typeof tempDir>[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const d of dirs.splice(0)) d.remove();
  });

  it('splits zcashd-style options from the source options', () => {
    expect(splitImportArgv(['-datadir=/x', '--hex', 'a', 'b', '-regtest', '--progress', 'log'])).toEqual({
      node: ['-datadir=/x', '-regtest'],
      own: ['--hex', 'a', 'b', '--progress', 'log'],
    });
  });

  it('imports hex files into the regtest data dir and reports the tip', async () => {
    const d = tempDir('cli');
    dirs.push(d);
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => (out.push(String(s)), true));
    const argv = [
      `-datadir=${d.path}`,
      '-regtest',
      '--hex',
      join(REGTEST_REORG_DIR, 'base.hex'),
      join(REGTEST_REORG_DIR, 'branch.hex'),
      '--progress',
      'silent',
    ];
    await runImport(argv);
    const tipHash = regtestReorg().manifest.branch.at(-1)!.hash;
    expect(out.join('')).toMatch(
      new RegExp(
        // a fresh store starts with the genesis block, as zcashd does: the file's first block is already there
        `^imported 65 blocks \\(1 already stored, 20 side-chain, 1 reorganizations\\) in [\\d.]+ s, [\\d.]+ MB/s; tip 45 ${tipHash}\\n$`,
      ),
    );
    const config = await loadNodeConfig([`-datadir=${d.path}`, '-regtest']);
    const store = await openChainStore({ datadir: config.datadir, network: config.network });
    expect(hex((await store.tip())!.hash)).toBe(tipHash);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    await store.close();
  });

  it('imports blocks from height 1 into a fresh data dir, which holds the genesis block as zcashd does', async () => {
    const d = tempDir('cli-from-1');
    dirs.push(d);
    const lines = readFileSync(join(REGTEST_REORG_DIR, 'base.hex'), 'utf8').trim().split('\n');
    const file = join(d.path, 'from-1.hex');
    writeFileSync(file, lines.slice(1).join('\n'));
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    await runImport([`-datadir=${d.path}`, '-regtest', '--hex', file, '--progress', 'silent']);
    const config = loadNodeConfig([`-datadir=${d.path}`, '-regtest']);
    const store = await openChainStore({ datadir: config.datadir, network: config.network });
    expect((await store.tip())?.height).toBe(lines.length - 1);
    await store.close();
  });

  it('imports a blk directory on mainnet', async () => {
    const d = tempDir('cli-blk');
    dirs.push(d);
    mkdirSync(join(d.path, 'src'));
    writeFileSync(join(d.path, 'src', 'blk00000.dat'), blkRecords(MAINNET.magic, mainnetChain()));
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    await runImport([`-datadir=${d.path}`, '--blocks-dir', join(d.path, 'src'), '--progress', 'silent']);
    const config = await loadNodeConfig([`-datadir=${d.path}`]);
    const store = await openChainStore({ datadir: config.datadir, network: config.network });
    expect((await store.tip())?.height).toBe(20);
    await store.close();
  });

  it('imports a shielded regtest chain with -nuparams, checking every header commitment', async () => {
    const d = tempDir('cli-nu');
    dirs.push(d);
    const genesis = regtestGenesis();
    const builder = new ShieldedChainBuilder(genesis);
    const chain = [genesis, ...builder.chain(genesis, 106, 'cli', (h) => (h === 101 ? 2 : h === 105 ? 1 : 0))];
    const file = join(d.path, 'chain.hex');
    writeFileSync(file, chain.map((b) => Buffer.from(b.bytes).toString('hex')).join('\n'));
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    // Heartwood and, filled in by zcashd's rule, Overwinter, Sapling and Blossom at height 1.
    const nu = ['-regtest', '-nuparams=f5b9230b:1'];
    await runImport([`-datadir=${d.path}`, ...nu, '--hex', file, '--progress', 'silent']);
    const config = loadNodeConfig([`-datadir=${d.path}`, ...nu]);
    expect(config.network.activationHeights).toEqual(SHIELDED_REGTEST.activationHeights);
    const store = await openChainStore({ datadir: config.datadir, network: config.network });
    const tip = new ChainStateIndex({ network: config.network, hashers: defaultPoolHashers() }).tip({
      get: (k) => store.database.getSync(k),
    })!;
    expect([tip.height, tip.trees.sapling.size, tip.totals.sapling]).toEqual([106, 3, 2n * SHIELDED_COINBASE]);
    await store.close();
  });

  it('demands exactly one source', async () => {
    const d = tempDir('cli-bad');
    dirs.push(d);
    await expect(runImport([`-datadir=${d.path}`])).rejects.toThrow(
      'import: give exactly one source: --hex FILE|DIR…, --blocks-dir PATH or --rpc URL',
    );
    await expect(runImport([`-datadir=${d.path}`, '--hex', 'a', '--rpc', 'http://x/'])).rejects.toThrow('give exactly one source');
    await expect(runImport([`-datadir=${d.path}`, '--bogus'])).rejects.toThrow(/^import: unknown option '--bogus'/);
  });
});
