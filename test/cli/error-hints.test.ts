// Errors and messages that say what to do: a missing parent names the checkpoint start, a block
// of another network is named as such, a file given to decode-* without `@` is pointed to `@`,
// `import --follow` says what it did when it stops, and start-up hints are typeable commands.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, TESTNET } from '../../src/chain/network.js';
import { toHexReversed } from '../../src/codec/hex.js';
import { followSummary } from '../../src/cli/import.js';
import { ChainStore } from '../../src/store/index.js';
import { typedCommand } from '../../src/cli/typed-command.js';
import { networkOptions, otherNetworkOf } from '../../src/sync/block-network.js';
import { mainnetChain, regtestReorg, tempDir, testnetChain } from '../support/store.js';
import { UpstreamServer } from '../support/upstream-server.js';
import { vectorPath } from '../support/vectors.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const cli = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
  spawnSync(process.execPath, ['--import', 'tsx', resolve(root, 'src/cli.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    env,
  });

let dir: ReturnType<typeof tempDir>;
beforeAll(() => {
  dir = tempDir('hints');
});
afterAll(() => dir.remove());
/** A data directory of its own (zcashd's commands require it to exist). */
const dataDir = (name: string): string => {
  const path = join(dir.path, name);
  mkdirSync(path, { recursive: true });
  return path;
};

describe('a block of another network', () => {
  const mainnet = mainnetChain();
  const testnet = testnetChain();
  const regtest = regtestReorg().base;

  it('is named from its header: the parent is another genesis, a pinned block, or the Equihash size differs', () => {
    expect(otherNetworkOf(mainnet[1]!, TESTNET)).toEqual({ networks: ['mainnet'], evidence: "its parent is mainnet's genesis block" });
    expect(otherNetworkOf(testnet[1]!, MAINNET)).toEqual({ networks: ['testnet'], evidence: "its parent is testnet's genesis block" });
    expect(otherNetworkOf(regtest[1]!, MAINNET)).toEqual({ networks: ['regtest'], evidence: "its parent is regtest's genesis block" });
    // A regtest block further up: only its (48,5) solution tells.
    expect(otherNetworkOf(regtest[5]!, MAINNET)).toEqual({
      networks: ['regtest'],
      evidence: "its Equihash solution is 36 bytes, mainnet's are 1344",
    });
    expect(otherNetworkOf(mainnet[5]!, REGTEST)).toEqual({
      networks: ['mainnet', 'testnet'],
      evidence: "its Equihash solution is 1344 bytes, regtest's are 36",
    });
    // A block of the store's own network, or bytes that are no header, tell nothing.
    expect(otherNetworkOf(mainnet[5]!, MAINNET)).toBeNull();
    expect(otherNetworkOf(Uint8Array.of(1, 2, 3), MAINNET)).toBeNull();
    expect(networkOptions(['mainnet', 'testnet'])).toBe('no network option (mainnet) or -testnet');
  });

  it('is reported by `zecrpc import` with the network option to use', () => {
    const r = cli([
      'import',
      `-datadir=${dataDir('testnet-store')}`,
      '-testnet',
      '--hex',
      vectorPath('blocks', 'mainnet', '1.hex'),
      '--progress',
      'silent',
    ]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "0007bc227e1c57a4a70e237cad00e7b7ce565155ab49166bc57397a26d339283 is a mainnet block (its parent is mainnet's genesis block) " +
        "and this store is testnet's: import it with no network option (mainnet).",
    );
    expect(r.stderr).not.toContain('--checkpoint');
  });
});

describe('a block whose parent is missing', () => {
  it('names the checkpoint start and where it is documented', () => {
    const r = cli([
      'import',
      `-datadir=${dataDir('mainnet-store')}`,
      '--hex',
      vectorPath('blocks', 'mainnet', '1046400.hex'),
      '--progress',
      'silent',
    ]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      '00000000002038016f976744c369dce7419fca30e7171dfac703af5e5f7ad1d4 from ' +
        `${vectorPath('blocks', 'mainnet', '1046400.hex')} (line 1) needs parent 0000000000163957b259cdd8b74a3c3f0fe6262d11860d08ce04b5a2069e738c.`,
    );
    expect(r.stderr).toContain(
      'start an empty store at a checkpoint with `zecrpc import --checkpoint FILE|URL` (docs/operating.md, "Importing"',
    );
  });
});

describe('decode-block and decode-tx of a path', () => {
  it('suggest @ for a file given as the hex argument', () => {
    const file = vectorPath('blocks', 'mainnet', '1.hex');
    const r = cli(['decode-block', file]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `Block decode failed: not a valid hex string: unspecified iostream_category error\n${file} is a file: write @${file} to read the hex in it (or - to read stdin)\n`,
    );
    const missing = cli(['decode-tx', 'txs/absent.hex']);
    expect(missing.stderr).toBe(
      'TX decode failed: not a valid hex string: unspecified iostream_category error\nto read a file, write @ before its path (@txs/absent.hex), or - to read stdin\n',
    );
  });
});

describe('import --follow', () => {
  it('prints what it did when it stops', async () => {
    const server = new UpstreamServer({ user: 'u', password: 'p' });
    server.setChain(mainnetChain());
    const url = await server.start();
    try {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          resolve(root, 'src/cli.ts'),
          'import',
          `-datadir=${dataDir('follow')}`,
          '--rpc',
          url,
          '--rpc-user',
          'u',
          '--rpc-password',
          'p',
          '--follow',
          '--progress',
          'log',
        ],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      const caughtUp = new Promise<void>((done) =>
        child.stderr.on('data', (c: Buffer) => {
          stderr += c.toString();
          if (stderr.includes('upstream: stored 20 block(s)')) done();
        }),
      );
      const exited = new Promise<number | null>((done) => child.on('close', done));
      await Promise.race([caughtUp, exited]);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      const tip = toHexReversed(ChainStore.hashOf(mainnetChain()[20]!));
      expect(stdout).toMatch(
        new RegExp(`^followed for \\d+\\.\\d s \\(\\d+ polls\\): stored 20 blocks; tip 0 → 20 ${tip}; upstream height 20, 0 behind\n$`),
      );
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('summarises reorganizations, the lag and the last error', () => {
    const follower = { added: 7, reorganizations: 1, passes: 3, upstreamHeight: 30, lastError: new Error('upstream down') };
    expect(followSummary(follower, 20, { height: 27, hash: new Uint8Array(32) }, 12.34)).toBe(
      `followed for 12.3 s (3 polls): stored 7 blocks (1 reorganizations); tip 20 → 27 ${'00'.repeat(32)}; upstream height 30, 3 behind; last error: upstream down`,
    );
    expect(followSummary({ ...follower, added: 0, reorganizations: 0, upstreamHeight: null, lastError: null }, null, null, 1)).toBe(
      'followed for 1.0 s (3 polls): stored 0 blocks; tip none → none; upstream height never read',
    );
  });
});

describe('start-up hints', () => {
  it('name `npx zecrpc` unless the shell finds zecrpc on its PATH', () => {
    const bin = dataDir('bin');
    writeFileSync(join(bin, 'zecrpc'), '#!/bin/sh\n', { mode: 0o755 });
    expect(typedCommand({ PATH: `/nonexistent:${bin}` })).toBe('zecrpc');
    expect(typedCommand({ PATH: '/nonexistent' })).toBe('npx zecrpc');
    // npm run / npx put node_modules/.bin on PATH for the command only.
    expect(typedCommand({ PATH: bin, npm_command: 'run-script' })).toBe('npx zecrpc');
  });

  it('are printed as typeable commands by `zecrpc serve` on an empty store', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(root, 'src/cli.ts'), 'serve', `-datadir=${dataDir('serve')}`, '-testnet', '-rpcport=0'],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          PATH: process.env
            .PATH!.split(':')
            .filter((d) => !d.includes('node_modules'))
            .join(':'),
          npm_command: '',
        },
      },
    );
    let out = '';
    const hinted = new Promise<void>((done) => {
      const on = (c: Buffer) => {
        out += c.toString();
        if (out.includes('the store holds only the genesis block')) done();
      };
      child.stdout.on('data', on);
      child.stderr.on('data', on);
    });
    const exited = new Promise<number | null>((done) => child.on('close', done));
    await Promise.race([hinted, exited]);
    child.kill('SIGTERM');
    await exited;
    expect(out).toContain('`npx zecrpc import -testnet --blocks-dir ~/.zcash/blocks`');
    expect(out).toContain('`npx zecrpc import -testnet --rpc URL`');
  }, 120_000);
});
