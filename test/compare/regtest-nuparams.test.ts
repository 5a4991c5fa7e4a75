// `zecrpc compare --target-datadir` over a regtest store imported with a -nuparams schedule
// (test/support/nu6-regtest.ts: Overwinter … NU6.1 at 1, NU6.2 at 3, NU6.3 at 5), against the
// same store served by `zecrpc serve` with the same -nuparams: given the schedule with
// --nuparams, every reply is identical; without it the target is regtest with no upgrade, and
// the replies the schedule shapes differ. --nuparams is parsed by serve's own code, so its
// refusals are serve's (zcashd's) words.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { branchIdAt, MAINNET, TESTNET } from '../../src/chain/network.js';
import { BRANCH_IDS } from '../../src/chain/upgrades.js';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { compareCommand } from '../../src/cli/compare.js';
import { runImport } from '../../src/cli/import.js';
import { startNode, type ServeHandle } from '../../src/cli/serve.js';
import { CURRENT, ZCASHD_6_12_2 } from '../../src/compat/profiles.js';
import { loadNodeConfig, nodeNetwork } from '../../src/config.js';
import { nu6Regtest, nuparamsArgs, RegtestChainBuilder } from '../support/nu6-regtest.js';
import { tempDir } from '../support/store.js';
import { compare } from './run-compare.js';

const NU6_2 = 3;
const NU6_3 = 5;
const TIP = 6;
const network = nu6Regtest({ 'NU6.2': NU6_2, 'NU6.3': NU6_3 });
/** `-nuparams=<branch id>:<height>` for each of the ten upgrades, as serve and import take them. */
const NUPARAMS = nuparamsArgs(network);
/** Every method compare knows, so that each reply the schedule could shape is asked for. */
const METHODS =
  'getblockhash,getblock:0,1,2,getblockheader:true,false,z_gettreestate,decoderawtransaction,getrawtransaction:0,1,' +
  'getblockcount,getbestblockhash,getdifficulty,getblockchaininfo';
/** Per height: getblockhash, getblock ×3 and its numeric-height probe, getblockheader ×2, z_gettreestate, and per transaction (each block holds only its coinbase) decoderawtransaction and getrawtransaction ×2. */
const PER_HEIGHT = 1 + 3 + 1 + 2 + 1 + 3;
const ONCE = 4;
const REQUESTS = (TIP + 1) * PER_HEIGHT + ONCE;

const dir = tempDir('compare-nuparams');
let reference: ServeHandle;
let referenceUrl: string;
let targetDir: string;
/** The tip's median time past, from which getblockchaininfo estimates the network's height. */
let medianTimePast: number;
/** The clock both sides read while compared: 2026-01-01T00:00:00Z. */
const NOW_SECONDS = 1_767_225_600;

/** What `zecrpc serve -regtest` says of these options (its ConfigError), or null when it accepts them. */
function serveRefusal(args: string[]): string | null {
  try {
    loadNodeConfig([`-datadir=${dir.path}`, ...args]);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

beforeAll(async () => {
  const builder = new RegtestChainBuilder(network);
  const chain = [builder.genesis, ...builder.chain(builder.genesis, TIP, 'compare')];
  // zcashd's GetMedianTimePast: the middle of the last 11 blocks' times, sorted (here all 7).
  const times = chain.map((b) => decodeBlock(b.bytes, CURRENT_CHAIN_ACCEPTANCE).header.time).sort((a, b) => a - b);
  medianTimePast = times[Math.trunc(times.length / 2)]!;
  const file = join(dir.path, 'chain.hex');
  writeFileSync(file, chain.map((b) => Buffer.from(b.bytes).toString('hex')).join('\n'));
  const referenceDir = join(dir.path, 'reference');
  mkdirSync(referenceDir);
  const quiet = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    await runImport([`-datadir=${referenceDir}`, '-regtest', ...NUPARAMS, '--hex', file, '--progress', 'silent']);
  } finally {
    quiet.mockRestore();
  }
  // LevelDB admits one opener: the target is a copy of the imported store.
  targetDir = join(dir.path, 'target');
  cpSync(referenceDir, targetDir, { recursive: true });
  reference = await startNode([`-datadir=${referenceDir}`, '-regtest', ...NUPARAMS, '-rpcport=0', '-rpcuser=cmp', '-rpcpassword=pw'], {
    log: false,
  });
  referenceUrl = `http://cmp:pw@127.0.0.1:${reference.server.port}/`;
}, 120_000);

afterAll(async () => {
  await reference?.shutdown();
  dir.remove();
});

describe('zecrpc compare --target-datadir of a regtest store imported with -nuparams', () => {
  // getblockchaininfo's estimatedheight and verificationprogress read the clock: both sides
  // answer in this process, so one fixed time makes them answer for the same moment.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW_SECONDS * 1000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The reference against the regtest target store at every height, with `schedule` (the target's -nuparams options). */
  const compareWholeChain = (schedule: string[]) =>
    compare([
      '--reference',
      referenceUrl,
      '--target-datadir',
      targetDir,
      '--network',
      'regtest',
      ...schedule,
      '--heights',
      `0..${TIP}`,
      '--methods',
      METHODS,
      '--json',
    ]);

  it('with the same schedule (--nuparams, and the -nuparams= spelling): every reply identical, exit 0', async () => {
    // Half the values as `--nuparams V`, half zcashd-style `-nuparams=V`.
    const given = NUPARAMS.flatMap((a, i) => (i % 2 === 0 ? ['--nuparams', a.slice('-nuparams='.length)] : [a]));
    const r = await compareWholeChain(given);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const res = r.json();
    expect(res.tips).toEqual({ reference: TIP, target: TIP });
    expect(res.warnings).toEqual([]);
    expect(res.totals).toEqual({ requests: REQUESTS, identical: REQUESTS, different: 0, drift: 0, excluded: 0 });
  });

  it('without --nuparams: the target is regtest with no upgrade, and exactly the replies the schedule shapes differ', async () => {
    const r = await compareWholeChain([]);
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    const res = r.json();
    expect(res.warnings).toEqual([]);
    const differing = res.methods.filter((m) => m.different > 0).map((m) => [m.method, m.different]);
    expect(differing).toEqual([
      ['getblock:1', 2],
      ['getblock:2', 2],
      ['z_gettreestate', TIP + 1],
      ['getblockchaininfo', 1],
      ['getblock:1 by numeric height', 2],
    ]);
    expect(res.totals).toMatchObject({ requests: REQUESTS, different: 14, identical: REQUESTS - 14 });

    const where = res.differences
      .map((d) => `${d.method}@${d.height ?? '-'}: ${d.differences.map((x) => `${x.kind} ${x.path}`).join(', ')}`)
      .sort();
    const pools = 'array-length result.valuePools';
    const trees = 'missing-in-target result.sapling, missing-in-target result.orchard';
    const upgrades = [
      '"5ba81b19"]',
      '"76b809bb"]',
      '"2bb40e60"]',
      '.f5b9230b',
      '.e9ff75a6',
      '.c2d6d0b4',
      '.c8e71055',
      '"4dec4df0"]',
      '"5437f330"]',
      '"37a5165b"]',
    ];
    expect(where).toEqual(
      [
        // From NU6.3's activation the block's value pools list Ironwood's; the target's do not.
        `getblock:1 by numeric height@5: ${pools}`,
        `getblock:1 by numeric height@6: ${pools}`,
        `getblock:1@5: ${pools}`,
        `getblock:1@6: ${pools}`,
        `getblock:2@5: ${pools}`,
        `getblock:2@6: ${pools}`,
        'getblockchaininfo@-: value result.estimatedheight, array-length result.valuePools, ' +
          upgrades.map((u) => `missing-in-target result.upgrades${u.startsWith('.') ? u : `[${u}`}`).join(', ') +
          ', value result.consensus.chaintip, value result.consensus.nextblock',
        // The trees of the pools whose upgrade is active: Sapling and Orchard everywhere, Ironwood from NU6.3.
        ...[0, 1, 2, 3, 4].map((h) => `z_gettreestate@${h}: ${trees}`),
        ...[5, 6].map((h) => `z_gettreestate@${h}: ${trees}, missing-in-target result.ironwood`),
      ].sort(),
    );
    const info = res.differences.find((d) => d.method === 'getblockchaininfo')!.differences;
    const at = (path: string) => info.find((x) => x.path === path);
    expect(at('result.consensus.chaintip')).toMatchObject({ reference: '"37a5165b"', target: '"00000000"' });
    expect(at('result.consensus.nextblock')).toMatchObject({ reference: '"37a5165b"', target: '"00000000"' });
    expect(at('result.valuePools')).toMatchObject({ reference: '6 elements', target: '5 elements' });
    expect(at('result.upgrades["37a5165b"]')?.reference).toContain(`"name":"NU6.3","activationheight":${NU6_3},"status":"active"`);
    // EstimateNetHeight from the tip's median time past to the fixed clock, rounded to tens: at
    // regtest's 75 s spacing from Blossom (active from 1 with the schedule), at 150 s without.
    const behind = NOW_SECONDS - medianTimePast;
    const estimate = (spacing: number) => String(Math.trunc((TIP + Math.trunc(behind / spacing) + 5) / 10) * 10);
    expect(at('result.estimatedheight')).toMatchObject({ reference: estimate(75), target: estimate(150) });
  });
});

describe('zecrpc compare --nuparams refusals', () => {
  const target = () => ['--reference', referenceUrl, '--target-datadir', targetDir, '--heights', '0..1'];

  it("refuses --nuparams off regtest with zcashd's message, exit 2, before asking either node", async () => {
    const message = 'Network upgrade parameters may only be overridden on regtest.';
    expect(serveRefusal(['-nuparams=c2d6d0b4:1'])).toBe(`Error: ${message}`);
    expect(serveRefusal(['-testnet', '-nuparams=c2d6d0b4:1'])).toBe(`Error: ${message}`);
    for (const network of [['--network', 'mainnet'], [], ['-network=testnet']]) {
      const r = await compare([...target(), ...network, '--nuparams', 'c2d6d0b4:1']);
      expect(r.err).toBe(`zecrpc compare: ${message}\n`);
      expect([r.code, r.out]).toEqual([2, '']);
    }
  });

  it('refuses --nuparams with a running --target, which has its own', async () => {
    const r = await compare(['--reference', referenceUrl, '--target', referenceUrl, '--network', 'regtest', '-nuparams=c2d6d0b4:1']);
    expect(r.err).toBe("zecrpc compare: --nuparams is for --target-datadir's store; a running --target is served with its own -nuparams\n");
    expect(r.code).toBe(2);
  });

  it("refuses malformed values with serve's messages (zcashd's words), -compat's upgrades included", async () => {
    const cases: [string[], string][] = [
      [['c2d6d0b4'], 'Network upgrade parameters malformed, expecting hexBranchId:activationHeight'],
      [['c2d6d0b4:1:2'], 'Network upgrade parameters malformed, expecting hexBranchId:activationHeight'],
      [['c2d6d0b4:x'], 'Invalid nActivationHeight (x)'],
      [['c2d6d0b4:0'], 'Invalid nActivationHeight (0)'],
      [['C2D6D0B4:1'], 'Invalid network upgrade (C2D6D0B4)'],
      [['deadbeef:1'], 'Invalid network upgrade (deadbeef)'],
      [['c2d6d0b4:5', 'e9ff75a6:9'], '-nuparams: NU5 activates at 5 but Canopy activates at 9'],
    ];
    for (const [values, message] of cases) {
      expect(serveRefusal(['-regtest', ...values.map((v) => `-nuparams=${v}`)])).toBe(`Error: ${message}`);
      const r = await compare([...target(), '--network', 'regtest', ...values.flatMap((v) => ['--nuparams', v])]);
      expect(r.err, values.join(' ')).toBe(`zecrpc compare: ${message}\n`);
      expect(r.code).toBe(2);
    }
    // zcashd v6.12.2 knows no NU6.2: under its profile, serve and compare refuse the branch id.
    const nu62 = `5437f330:${NU6_2}`;
    expect(serveRefusal(['-regtest', '-compat=6.12.2', `-nuparams=${nu62}`])).toBe('Error: Invalid network upgrade (5437f330)');
    const r = await compare([...target(), '--network', 'regtest', '--compat', '6.12.2', '--nuparams', nu62]);
    expect([r.err, r.code]).toEqual(['zecrpc compare: Invalid network upgrade (5437f330)\n', 2]);
  });

  it('lists --nuparams in its help', () => {
    expect(compareCommand().helpInformation().replace(/\s+/g, ' ')).toContain(
      "--nuparams <hexBranchId:height> regtest's upgrade schedule of --target-datadir, as serve's -nuparams",
    );
  });
});

describe("the target's network: serve's derivation for the same options", () => {
  it('is the network serve runs with -regtest -nuparams, and with -compat on mainnet and testnet', () => {
    const regtest = nodeNetwork({ name: 'regtest', nuparams: NUPARAMS.map((a) => a.slice('-nuparams='.length)), compat: CURRENT });
    expect(regtest).toEqual(loadNodeConfig([`-datadir=${dir.path}`, '-regtest', ...NUPARAMS]).network);
    expect(regtest.activationHeights).toEqual(network.activationHeights);
    for (const [name, flag, params] of [
      ['mainnet', [], MAINNET],
      ['testnet', ['-testnet'], TESTNET],
    ] as const) {
      const old = nodeNetwork({ name, nuparams: [], compat: ZCASHD_6_12_2 });
      expect(old).toEqual(loadNodeConfig([`-datadir=${dir.path}`, ...flag, '-compat=6.12.2']).network);
      expect(nodeNetwork({ name, nuparams: [], compat: CURRENT })).toBe(params);
      // A v6.12.2 node never activates NU6.2: the block at its height is still NU6.1's.
      const nu62 = params.activationHeights['NU6.2']!;
      expect([branchIdAt(old, nu62), branchIdAt(params, nu62)]).toEqual([BRANCH_IDS['NU6.1'], BRANCH_IDS['NU6.2']]);
    }
  });
});
