/**
 * The package as users get it: built with the real `npm run build`, packed with `npm pack`,
 * installed from the tarball into an empty project (one install shared by every case), then used
 * through ESM import, CommonJS require, TypeScript (node16, bundler, CommonJS output) and the
 * installed `zecrpc` / `zecrpc-cli` binaries: help, version, bad flags, data-dir checks, first
 * run, busy port, locked store, zcash.conf sections, log levels, and zecrpc-cli against a
 * running server (success, RPC errors, connection refused, bad credentials).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, TESTNET } from '../../src/chain/network.js';
import { REGTEST_REORG_DIR } from '../support/store.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'zecrpc-package-'));
const stage = join(work, 'stage');
const consumer = join(work, 'consumer');
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
const VERSION = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version;
const REGTEST_GENESIS = REGTEST.genesisHash;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: readonly string[], opts: { cwd?: string; input?: string; timeoutMs?: number } = {}): Result {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd ?? consumer,
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 60_000,
    env: { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false' },
  });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function mustRun(cmd: string, args: readonly string[], opts: { cwd?: string; timeoutMs?: number } = {}): string {
  const r = run(cmd, args, opts);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const bin = (name: 'zecrpc' | 'zecrpc-cli') => join(consumer, 'node_modules', '.bin', name);
const zecrpc = (...args: string[]) => run(bin('zecrpc'), args);
const cli = (...args: string[]) => run(bin('zecrpc-cli'), args);

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolvePort(port));
    });
  });
}

function newDir(name: string): string {
  const d = join(work, name);
  mkdirSync(d, { recursive: true });
  return d;
}

interface RunningServe {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `zecrpc serve`, resolving once `file` (its cookie, normally) exists or the process ends. */
async function startServe(args: string[], waitFor: string): Promise<RunningServe> {
  const proc = spawn(bin('zecrpc'), ['serve', ...args], { cwd: consumer, env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  // 'close' comes after the output streams end, so output() is complete once it resolves.
  const exited = new Promise<number | null>((r) => proc.once('close', (code) => r(code)));
  let ended = false;
  void exited.then(() => (ended = true));
  const deadline = Date.now() + 30_000;
  while (!existsSync(waitFor) && !ended) {
    if (Date.now() > deadline) throw new Error(`zecrpc serve did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  if (ended) throw new Error(`zecrpc serve exited early:\n${out}`);
  // The cookie is written just before the port is bound: wait for the start-up line.
  while (!out.includes('zecrpc serving JSON-RPC')) {
    if (Date.now() > deadline || ended) throw new Error(`zecrpc serve did not report listening:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { proc, output: () => out, exited };
}

/** Waits until a running server has written `text` (its output arrives asynchronously). */
async function waitForOutput(s: RunningServe, text: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!s.output().includes(text)) {
    if (Date.now() > deadline) throw new Error(`server output lacks ${JSON.stringify(text)}:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const running: RunningServe[] = [];
/** What `npm install` of the tarball printed (its warnings included). */
let installOutput = '';

beforeAll(() => {
  // A copy of the tree the package is built from, with the repo's node_modules, so the real
  // `npm run build` runs without touching the working dist/.
  mkdirSync(stage);
  for (const f of ['package.json', 'README.md', 'LICENSE', 'ARCHITECTURE.md', 'CHANGELOG.md', 'tsconfig.json', 'tsconfig.build.json']) {
    cpSync(join(repo, f), join(stage, f));
  }
  for (const d of ['bin', 'src', 'docs', 'deploy', 'assembly', 'scripts']) cpSync(join(repo, d), join(stage, d), { recursive: true });
  symlinkSync(join(repo, 'node_modules'), join(stage, 'node_modules'), 'dir');
  // npm pack as a release runs it: prepack builds and takes `prepare` out of the packed manifest,
  // postpack puts it back.
  mustRun('npm', ['pack', '--json', '--pack-destination', work], { cwd: stage, timeoutMs: 240_000 });

  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const tarball = join(work, `zecrpc-${VERSION}.tgz`);
  // Everything should come from npm's cache (npm ci filled it); metadata may still be missing there.
  const offline = run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { timeoutMs: 120_000 });
  installOutput = offline.stdout + offline.stderr;
  if (offline.code !== 0) {
    const online = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { timeoutMs: 180_000 });
    if (online.code !== 0) throw new Error(`installing the packed tarball failed:\n${offline.stderr}\n${online.stderr}`);
    installOutput = online.stdout + online.stderr;
  }
}, 500_000);

afterAll(async () => {
  for (const s of running) {
    s.proc.kill('SIGTERM');
    await s.exited;
  }
  rmSync(work, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('ships exactly the compiled library, CLI, declarations, wasm modules, README and LICENSE', () => {
    const packed = JSON.parse(mustRun('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: stage })) as {
      files: { path: string }[];
    }[];
    const files = packed[0]!.files.map((f) => f.path).sort();
    const stray = files.filter(
      (f) =>
        ![
          'LICENSE',
          'README.md',
          'ARCHITECTURE.md',
          'CHANGELOG.md',
          'package.json',
          'bin/zecrpc.js',
          'bin/zecrpc-cli.js',
          'bin/missing-build.js',
          'bin/relaunch.js',
        ].includes(f) &&
        !/^dist\/src\/.+\.(js|d\.ts|wasm)$/.test(f) &&
        !/^docs\/[a-z-]+\.md$/.test(f) &&
        !/^deploy\/[a-z-]+\.(cfg|nft)$/.test(f),
    );
    expect(stray).toEqual([]);
    for (const f of [
      'LICENSE',
      'README.md',
      'bin/zecrpc.js',
      'bin/zecrpc-cli.js',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/codec/index.js',
      'dist/src/codec/index.d.ts',
      'dist/src/server.js',
      'dist/src/cli.js',
      'dist/src/cli/client.js',
      'deploy/haproxy.cfg',
      'deploy/nftables-replicas.nft',
    ]) {
      expect(files).toContain(f);
    }
    const wasm = readdirSync(join(repo, 'src', 'crypto', 'wasm')).filter((f) => f.endsWith('.wasm'));
    expect(wasm.length).toBeGreaterThan(0);
    for (const w of wasm) expect(files).toContain(`dist/src/crypto/wasm/${w}`);
    // dist holds only src/
    expect(readdirSync(join(stage, 'dist'))).toEqual(['src']);
  });

  it('packs a manifest without the prepare script and leaves the one packed from as it was', () => {
    const installed = JSON.parse(readFileSync(join(consumer, 'node_modules', 'zecrpc', 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const source = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(source.scripts.prepare).toBe('npm run build:wasm && npm run build');
    expect(installed.scripts.prepare).toBeUndefined();
    expect(readFileSync(join(stage, 'package.json'), 'utf8')).toBe(readFileSync(join(repo, 'package.json'), 'utf8'));
    expect(existsSync(join(stage, 'package.json.prepack'))).toBe(false);
    // npm (≥ 11.16) lists a dependency's unapproved install scripts; zecrpc's own are none.
    expect(installOutput).not.toMatch(/zecrpc@[^\s]* \(/);
  });

  it("ships every file the README links to, and docs/ whose links stay inside the package or name the repository's development files", () => {
    const installed = join(consumer, 'node_modules', 'zecrpc');
    for (const page of ['README.md', ...readdirSync(join(installed, 'docs')).map((f) => `docs/${f}`)]) {
      const text = readFileSync(join(installed, page), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const m of text.matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
        const path = join(dirname(join(installed, page)), target);
        const development = /^\.\.\/(test|bench)\//.test(target) && page.startsWith('docs/');
        expect({ page, target, shipped: existsSync(path) || development }).toEqual({ page, target, shipped: true });
      }
    }
  });
});

describe('the installed package', () => {
  const program = `
    const z = await import('zecrpc'); const c = await import('zecrpc/codec'); const s = await import('zecrpc/server');
    console.log(['mainnet', 'testnet', 'regtest'].map((n) => c.decodeBlock(z.genesisBlock(n)).hashHex).join(' '), typeof s.startNode);`;
  const expected = `${MAINNET.genesisHash} ${TESTNET.genesisHash} ${REGTEST_GENESIS} function\n`;

  it('loads with ESM import (root, zecrpc/codec, zecrpc/server)', () => {
    expect(mustRun('node', ['--input-type=module', '-e', program])).toBe(expected);
  });

  it('loads with CommonJS require: no top-level await in any entry point', () => {
    const r = run('node', [
      '--input-type=commonjs',
      '-e',
      program.replace(/await import\(/g, 'require(').replace(/^/, '(async () => {') + '})()',
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(expected);
  });

  it('type-checks in TypeScript with moduleResolution node16 and bundler, and compiles to CommonJS that runs', () => {
    const ts = join(consumer, 'ts');
    mkdirSync(join(ts, 'cjs'), { recursive: true });
    const source = `import { decodeTransactionHex, genesisBlock, txToJson, MAINNET, type Transaction } from 'zecrpc';
import { decodeBlock, type Block } from 'zecrpc/codec';
import { startNode, type ServeHandle } from 'zecrpc/server';
const block: Block = decodeBlock(genesisBlock('mainnet'));
const tx: Transaction = block.transactions[0]!;
const json: string = txToJson(decodeTransactionHex(Buffer.from(tx.bytes).toString('hex')), MAINNET);
const start: (argv: readonly string[]) => Promise<ServeHandle> = startNode;
console.log(block.hashHex, json.startsWith('{"txid":'), typeof start);
`;
    writeFileSync(join(ts, 'index.ts'), source);
    writeFileSync(join(ts, 'cjs', 'index.ts'), source);
    writeFileSync(join(ts, 'cjs', 'package.json'), '{"type":"commonjs"}');
    const base = { target: 'es2022', strict: true, skipLibCheck: true, types: ['node'], typeRoots: [join(repo, 'node_modules', '@types')] };
    const configs: Record<string, object> = {
      'tsconfig.node16.json': {
        compilerOptions: { ...base, module: 'node16', moduleResolution: 'node16', noEmit: true },
        files: ['index.ts'],
      },
      'tsconfig.bundler.json': {
        compilerOptions: { ...base, module: 'esnext', moduleResolution: 'bundler', noEmit: true },
        files: ['index.ts'],
      },
      'cjs/tsconfig.json': {
        compilerOptions: { ...base, module: 'nodenext', moduleResolution: 'nodenext', outDir: 'out' },
        files: ['index.ts'],
      },
    };
    for (const [name, config] of Object.entries(configs)) {
      writeFileSync(join(ts, name), JSON.stringify(config));
      const r = run('node', [tsc, '-p', join(ts, name)]);
      expect(`${name}: ${r.stdout}${r.stderr}`).toBe(`${name}: `);
      expect(r.code).toBe(0);
    }
    expect(readFileSync(join(ts, 'cjs', 'out', 'index.js'), 'utf8')).toContain('require("zecrpc/codec")');
    expect(mustRun('node', [join(ts, 'cjs', 'out', 'index.js')])).toBe(`${MAINNET.genesisHash} true function\n`);
  });

  it('the decoding entry points load no server, store or CLI dependency', () => {
    const hooks = join(consumer, 'load-hooks.mjs');
    writeFileSync(
      hooks,
      `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(process.env.LOAD_LOG, url + '\\n'); return next(url, context); }`,
    );
    for (const entry of ['zecrpc', 'zecrpc/codec']) {
      const log = join(work, `load-${entry.replace('/', '-')}.log`);
      writeFileSync(log, '');
      const r = spawnSync(
        'node',
        [
          '--input-type=module',
          '-e',
          `import { register, createRequire } from 'node:module'; import { appendFileSync } from 'node:fs';
register(${JSON.stringify(hooks)}, import.meta.url); await import(${JSON.stringify(entry)});
appendFileSync(process.env.LOAD_LOG, Object.keys(createRequire(import.meta.url).cache).join('\\n'));`,
        ],
        { cwd: consumer, encoding: 'utf8', env: { ...process.env, LOAD_LOG: log } },
      );
      expect(r.status).toBe(0);
      const packages = new Set([...readFileSync(log, 'utf8').matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)].map((m) => m[1]));
      expect(packages.has('zecrpc')).toBe(true);
      for (const server of ['fastify', 'pino', 'classic-level', 'commander', 'cli-progress']) expect(packages.has(server)).toBe(false);
    }
  });

  it('npx zecrpc and npx zecrpc-cli run the installed binaries', () => {
    const a = run('npx', ['--offline', 'zecrpc', '-version']);
    expect([a.code, a.stdout]).toEqual([0, `zecrpc version v${VERSION} (zcashd v6.12.2-compatible block server)\n`]);
    const b = run('npx', ['--offline', 'zecrpc-cli', '-version']);
    expect([b.code, b.stdout]).toEqual([0, `zecrpc-cli version v${VERSION} (zcashd v6.12.2-compatible block server)\n`]);
  });
});

describe('zecrpc flags and help', () => {
  it.each([
    [['-?'], 'zecrpc serve [options]'],
    [['-h'], 'zecrpc serve [options]'],
    [['--help'], 'zecrpc serve [options]'],
    [['serve', '--help'], '-rpcallowip=<ip>'],
    [['serve', '-help'], '-upstream=<url>'],
    [['serve', '-h', '-foo=1'], '-datadir=<dir>'],
    [['serve', '-?'], '-debug=<category>'],
    [['import', '--help'], '--blocks-dir <path>'],
    [['import', '-h'], '--blocks-dir <path>'],
    [['help', 'import'], '--blocks-dir <path>'],
    [['help', 'serve'], '-rpcport=<port>'],
    [['cli', '-help'], 'zecrpc-cli [options] <command> [params]'],
    [['decode-tx', '--help'], '--network'],
    [['decode-block', '-h'], '--pretty'],
  ])('zecrpc %j prints usage and exits 0', (args, expected) => {
    const r = zecrpc(...args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(expected);
  });

  it.each([[['-version']], [['--version']], [['serve', '-version']], [['import', '-version']]])('zecrpc %j prints the version', (args) => {
    expect(zecrpc(...args)).toEqual({
      code: 0,
      stdout: `zecrpc version v${VERSION} (zcashd v6.12.2-compatible block server)\n`,
      stderr: '',
    });
  });

  it('zecrpc-cli -? and no arguments behave as zcash-cli', () => {
    const help = cli('-?');
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toContain('zecrpc-cli [options] help <command>');
    expect(help.stdout).toContain('-rpcclienttimeout=<n>');
    const none = cli();
    expect([none.code, none.stderr]).toEqual([1, 'Error: too few parameters\n']);
    expect(none.stdout).toContain('Usage:');
  });

  it.each([
    [['serve', '-foo=1'], "Error: zecrpc serve does not take -foo (unknown option). See 'zecrpc serve -help'.\n"],
    [['serve', '-daemon'], /^Error: zecrpc serve does not take -daemon \(a zcashd option zecrpc does not take: .*systemd/],
    [
      ['serve', 'getblockcount'],
      "Error: zecrpc serve takes no arguments (got 'getblockcount'). To send commands to the server, use zecrpc-cli.\n",
    ],
    [
      ['import', '-rpcport=1', '--hex', 'x'],
      "Error: zecrpc import does not take -rpcport (it is an option of zecrpc serve and zecrpc-cli). See 'zecrpc import -help'.\n",
    ],
    [['import', '--bogus'], /^Error: import: unknown option '--bogus'/],
    [['decode-tx', '--bogus', '00'], /^Error: zecrpc decode-tx: unknown option '--bogus'/],
    [['nosuch'], /^Error: unknown command 'nosuch'/],
    [['help', 'nosuch'], /^Error: unknown command 'nosuch'/],
    [['cli', '-foo', 'getblockcount'], "Error: zecrpc-cli does not take -foo (unknown option). See 'zecrpc-cli -help'.\n"],
  ])('zecrpc %j is refused (exit 1, nothing started)', (args, message) => {
    const r = zecrpc(...args);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    if (typeof message === 'string') expect(r.stderr).toBe(message);
    else expect(r.stderr).toMatch(message);
  });

  it('a -datadir that does not exist is refused by serve, import and zecrpc-cli, and not created', () => {
    const missing = join(work, 'mistyped-datadir');
    const message = `Error: Specified data directory "${missing}" does not exist.\n`;
    for (const r of [
      zecrpc('serve', `-datadir=${missing}`),
      zecrpc('import', `-datadir=${missing}`, '--hex', 'x'),
      cli(`-datadir=${missing}`, 'getblockcount'),
    ]) {
      expect([r.code, r.stdout, r.stderr]).toEqual([1, '', message]);
    }
    expect(existsSync(missing)).toBe(false);
  });
});

describe('zecrpc serve and zecrpc-cli on a fresh regtest data dir', () => {
  let datadir: string;
  let port: number;
  let server: RunningServe;
  const rc = (...args: string[]) => cli(`-datadir=${datadir}`, '-regtest', `-rpcport=${port}`, ...args);

  beforeAll(async () => {
    datadir = newDir('fresh');
    port = await freePort();
    server = await startServe([`-datadir=${datadir}`, '-regtest', `-rpcport=${port}`], join(datadir, 'regtest', '.cookie'));
    running.push(server);
  }, 60_000);

  it('first run: the store holds the genesis block and the log says how to fill it', async () => {
    expect(rc('getblockcount')).toEqual({ code: 0, stdout: '0\n', stderr: '' });
    expect(rc('getbestblockhash')).toEqual({ code: 0, stdout: `${REGTEST_GENESIS}\n`, stderr: '' });
    await waitForOutput(server, 'or start with -upstream=URL to follow');
    const log = server.output();
    expect(log).toContain(`new regtest chain store: added the genesis block`);
    // Issue 39: the hint is the command as it can be typed; no zecrpc is on this shell's PATH.
    expect(log).toContain('`npx zecrpc import -regtest --blocks-dir ~/.zcash/blocks`');
    expect(log).toContain('`npx zecrpc import -regtest --hex FILE|DIR`');
  });

  it('zecrpc-cli reads zcash.conf as zcash-cli does: its datadir= (for the cookie), -rpcssl after the file, no server settings', () => {
    const confFile = join(newDir('shared-conf'), 'zcash.conf');
    // As shared with a zcashd: server-only keys zcash-cli never reads, with values zcashd accepts or ignores.
    writeFileSync(confFile, `datadir=${datadir}\nregtest=1\nrpcport=${port}\nrpcthreads=0\nrpcworkqueue=0\nupstream=localhost:8232\n`);
    expect(cli(`-conf=${confFile}`, 'getblockcount')).toEqual({ code: 0, stdout: '0\n', stderr: '' });
    expect(rc('-norpcssl', 'getblockcount')).toEqual({ code: 0, stdout: '0\n', stderr: '' });
    expect(rc('-rpcssl=0', 'getblockcount')).toEqual({ code: 0, stdout: '0\n', stderr: '' });
    const ssl = { code: 1, stdout: '', stderr: 'Error: SSL mode for RPC (-rpcssl) is no longer supported.\n' };
    expect(rc('-rpcssl', 'getblockcount')).toEqual(ssl);
    writeFileSync(confFile, `datadir=${datadir}\nregtest=1\nrpcport=${port}\nrpcssl=1\n`);
    expect(cli(`-conf=${confFile}`, 'getblockcount')).toEqual(ssl);
  });

  it('keeps serving after SIGHUP (zcashd reopens its log and carries on), and creates its files with umask 077', async () => {
    server.proc.kill('SIGHUP');
    await new Promise((r) => setTimeout(r, 200));
    expect(server.proc.exitCode).toBeNull();
    expect(rc('getblockcount')).toEqual({ code: 0, stdout: '0\n', stderr: '' });
    const store = join(datadir, 'regtest', 'zecrpc');
    expect(statSync(join(datadir, 'regtest')).mode & 0o077).toBe(0); // made before the umask, owner-only too
    for (const name of ['blocks', 'index', join('index', 'CURRENT')]) {
      expect([name, statSync(join(store, name)).mode & 0o077]).toEqual([name, 0]);
    }
  });

  it('prints non-string results in zcash-cli’s indented form', () => {
    const r = rc('getblock', REGTEST_GENESIS, '1');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.startsWith(`{\n  "hash": "${REGTEST_GENESIS}",\n  "confirmations": 1,\n`)).toBe(true);
    expect(r.stdout.endsWith('\n}\n')).toBe(true);
    expect((JSON.parse(r.stdout) as { height: number }).height).toBe(0);
    expect(rc('getblockhash', '0').stdout).toBe(`${REGTEST_GENESIS}\n`);
  });

  it('RPC errors: "error code" / "error message" on stderr, exit |code| (mod 256 as the shell sees it)', () => {
    expect(rc('getblockhash', '1')).toEqual({ code: 8, stdout: '', stderr: 'error code: -8\nerror message:\nBlock height out of range\n' });
    // in zcashd's conversion table but not served by zecrpc (a wallet method): the server's -32601
    expect(rc('getwalletinfo')).toEqual({
      code: 32601 % 256,
      stdout: '',
      stderr: 'error code: -32601\nerror message:\nMethod not found\n',
    });
  });

  it('conversion failures are local errors (exit 1); a bad word or count appends the server’s help', () => {
    expect(rc('nosuchmethod')).toEqual({ code: 1, stdout: '', stderr: 'error: Unknown RPC method, nosuchmethod\n' });
    const unparseable = rc('getblockhash', 'tip');
    expect([unparseable.code, unparseable.stdout]).toEqual([1, '']);
    expect(unparseable.stderr.startsWith('error: Error parsing JSON: tip\n\nUsage: getblockhash index\n')).toBe(true);
    const r = rc('getblock');
    expect(r.code).toBe(1);
    expect(
      r.stderr.startsWith(
        'error: Not enough parameters for method `getblock`. Needed at least 1 and at most 2, but received 0\n\nUsage: getblock "hash|height" ( verbosity )\n',
      ),
    ).toBe(true);
  });

  it('-stdin appends one parameter per line; `zecrpc cli` is the same client', () => {
    expect(
      run(bin('zecrpc-cli'), [`-datadir=${datadir}`, '-regtest', `-rpcport=${port}`, '-stdin', 'getblockhash'], { input: '0\n' }).stdout,
    ).toBe(`${REGTEST_GENESIS}\n`);
    if (existsSync('/dev/zero')) {
      // Standard input that never ends is refused at the largest request body, not read until memory runs out.
      const endless = spawnSync(bin('zecrpc-cli'), [`-datadir=${datadir}`, '-regtest', `-rpcport=${port}`, '-stdin', 'getblockhash'], {
        cwd: consumer,
        encoding: 'utf8',
        stdio: [openSync('/dev/zero', 'r'), 'pipe', 'pipe'],
        timeout: 60_000,
      });
      expect([endless.status, endless.stdout, endless.stderr]).toEqual([
        1,
        '',
        'error: standard input is larger than 33554432 bytes, the most a JSON-RPC request to zcashd can carry\n',
      ]);
    }
    expect(zecrpc('cli', `-datadir=${datadir}`, '-regtest', `-rpcport=${port}`, 'getblockcount')).toEqual({
      code: 0,
      stdout: '0\n',
      stderr: '',
    });
  });

  it('bad credentials, no credentials, connection refused: zcash-cli’s messages, exit 1', async () => {
    expect(rc('-rpcuser=alice', '-rpcpassword=wrong', 'getblockcount')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: incorrect rpcuser or rpcpassword (authorization failed)\n',
    });
    const empty = newDir('no-cookie');
    expect(cli(`-datadir=${empty}`, '-regtest', `-rpcport=${port}`, 'getblockcount')).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: Could not locate RPC credentials. No authentication cookie could be found,\nand no rpcpassword is set in the configuration file (${join(empty, 'zcash.conf')}).\n`,
    });
    const closed = await freePort();
    expect(cli(`-datadir=${datadir}`, '-regtest', `-rpcport=${closed}`, 'getblockcount')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "error: couldn't connect to server: unknown (code -1)\n(make sure server is running and you are connecting to the correct RPC port)\n",
    });
  });

  it('a second process on the same data dir gets zcashd’s lock message', () => {
    const lockMessage = `Error: Cannot obtain a lock on data directory ${join(datadir, 'regtest')}. zecrpc is probably already running.`;
    const imp = zecrpc('import', `-datadir=${datadir}`, '-regtest', '--hex', join(REGTEST_REORG_DIR, 'base.hex'), '--progress', 'silent');
    expect(imp.code).toBe(1);
    expect(imp.stderr.startsWith(lockMessage)).toBe(true);
    const second = zecrpc('serve', `-datadir=${datadir}`, '-regtest', '-rpcport=0');
    expect(second.code).toBe(1);
    expect(second.stderr.startsWith(lockMessage)).toBe(true);
  });

  it('a busy port stops start-up with a clear error and leaves no cookie behind', () => {
    const other = newDir('busy-port');
    const r = zecrpc('serve', `-datadir=${other}`, '-regtest', `-rpcport=${port}`);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error: Unable to start HTTP server: port ${port} is already in use`);
    expect(existsSync(join(other, 'regtest', '.cookie'))).toBe(false);
  });

  it('`stop` shuts the server down and removes the cookie; the default log had no per-request lines', async () => {
    expect(rc('stop')).toEqual({ code: 0, stdout: 'Zcash server stopping\n', stderr: '' });
    expect(await server.exited).toBe(0);
    expect(existsSync(join(datadir, 'regtest', '.cookie'))).toBe(false);
    expect(server.output()).toContain('zecrpc serving JSON-RPC');
    expect(server.output()).not.toContain('request completed');
  });
});

describe('zcash.conf sections, -debug=rpc and the -rpcbind warning', () => {
  it('serves with [main]/[test] sections in zcash.conf, warns about -rpcbind, logs requests only with -debug=rpc, -sysperms', async () => {
    const datadir = newDir('with-conf');
    const port = await freePort();
    writeFileSync(
      join(datadir, 'zcash.conf'),
      `# zecrpc test\nregtest=1\nrpcport=${port}\nrpcuser=u\nrpcpassword=p\n[main]\nrpcport=1\n[test]\nrpcport=2\n`,
    );
    const server = await startServe([`-datadir=${datadir}`, '-debug=rpc', '-rpcbind=0.0.0.0', '-sysperms'], join(datadir, 'regtest'));
    running.push(server);
    // zecrpc-cli reads the same conf: network, port and credentials
    expect(cli(`-datadir=${datadir}`, 'getblockcount')).toEqual({ code: 0, stdout: '0\n', stderr: '' });
    expect(cli(`-datadir=${datadir}`, 'stop').stdout).toBe('Zcash server stopping\n');
    expect(await server.exited).toBe(0);
    // read once the process has ended, so every line it wrote has arrived
    expect(server.output()).toContain(
      'WARNING: option -rpcbind was ignored because -rpcallowip was not specified, refusing to allow everyone to connect',
    );
    // one line per request, with its JSON-RPC method and id
    expect(server.output()).toMatch(
      /"rpc":\{"method":"getblockcount","id":"1"\},"statusCode":200,"bytes":\d+,"ms":[\d.]+,"remoteAddress":"[^"]+","msg":"request completed"/,
    );
    // -sysperms: files as the process's own umask makes them, not zcashd's 077
    expect(statSync(join(datadir, 'regtest', 'zecrpc', 'index', 'CURRENT')).mode & 0o077).toBe(0o066 & ~process.umask());
  });

  it('a line zcashd cannot parse is refused with its message', () => {
    const datadir = newDir('bad-conf');
    writeFileSync(join(datadir, 'zcash.conf'), 'regtest\n');
    const r = zecrpc('serve', `-datadir=${datadir}`);
    expect([r.code, r.stderr]).toEqual([
      1,
      `Error reading configuration file ${join(datadir, 'zcash.conf')}: the options configuration file contains an invalid line 'regtest'\n`,
    ]);
  });
});
