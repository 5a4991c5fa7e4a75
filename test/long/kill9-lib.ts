/**
 * kill -9 trials shared by test/long/kill9.ts (≥ 20 trials, a report) and the vitest
 * (3 trials). Each trial: a child process imports a generated regtest chain with Sapling activity
 * from blk files (out-of-order records, two reorganizations of depth 80 and 95, each disconnecting
 * and connecting shielded blocks); the parent SIGKILLs it at a random moment, opens the store and
 * checks it is consistent *as left by the crash* — including that its chain state (pools, trees,
 * history tree) is byte for byte the state the builder computed for the block the store reports
 * as its tip — restarts the import to completion and checks the final chain block by block,
 * including that no block's bytes were stored twice.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClassicLevel } from 'classic-level';
import { checkStoreIntegrity, openChainStore } from '../../src/store/index.js';
import { keys } from '../../src/store/layout.js';
import { encodeChainStateTip } from '../../src/state/chain-state.js';
import { chainStateKeys } from '../../src/store/indexes/chain-state-index.js';
import { regtestGenesis, type BuiltBlock } from '../../test-vectors/regtest-builder.js';
import { SHIELDED_REGTEST, ShieldedChainBuilder } from '../../test-vectors/regtest-shielded.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');

export interface KillChain {
  blocksDir: string;
  /** Expected best chain after a full import, index = height. */
  expected: string[];
  /** Every distinct block in the input. */
  totalBlocks: number;
  forkA: number;
  /** The encoded chain-state tip the builder computed after each block, by block hash. */
  stateAfter: Map<string, Buffer>;
}

function frame(blocks: readonly BuiltBlock[]): Buffer {
  return Buffer.concat(
    blocks.flatMap((b) => {
      const h = Buffer.alloc(8);
      h.set(SHIELDED_REGTEST.magic, 0);
      h.writeUInt32LE(b.bytes.length, 4);
      return [h, Buffer.from(b.bytes)];
    }),
  );
}

/**
 * Reorganization depths: as deep as the store allows (zcashd's MAX_REORG_LENGTH, 99 blocks, the
 * store's MAX_REORG_DEPTH) without reaching the limit, whatever the scale.
 */
const DEPTH_TO_A = 80;
const DEPTH_BACK = 95;

/**
 * base 0..1500, branch A forking 80 below its tip and reaching 95 above the fork (the store
 * switches to A 80 blocks deep), base again 1501..1900 (the store switches back 95 deep).
 * `scale` shrinks the chain lengths, never the depths.
 */
export function writeKillChain(dir: string, scale = 1): KillChain {
  const n = (x: number): number => Math.round(x * scale);
  const genesis = regtestGenesis();
  const builder = new ShieldedChainBuilder(genesis);
  // Shielding transactions from height 101 on (coinbase maturity), every few blocks, so that
  // both reorganizations undo and redo Sapling outputs, anchors and history-tree leaves.
  const shields = (every: number, outputs: number) => (h: number) => (h > 100 && h % every === 0 ? outputs : 0);
  const base = [genesis, ...builder.chain(genesis, n(1500), 'base', shields(10, 2))];
  const forkA = n(1500) - DEPTH_TO_A;
  const branchA = builder.chain(base[forkA]!, DEPTH_BACK, 'branch-a', shields(7, 1));
  const baseMore = builder.chain(base[n(1500)]!, n(400), 'base', shields(10, 2));
  const all = [...base, ...branchA, ...baseMore];
  const stateAfter = new Map(all.map((b) => [b.hashHex, Buffer.from(encodeChainStateTip(builder.stateAfter(b)))]));
  // Swap neighbours now and then: zcashd's files hold blocks in arrival order, not height order.
  for (let i = 5; i + 1 < all.length; i += 37) [all[i], all[i + 1]] = [all[i + 1]!, all[i]!];
  const blocksDir = join(dir, 'input');
  mkdirSync(blocksDir, { recursive: true });
  const third = Math.ceil(all.length / 3);
  for (let f = 0; f < 3; f++) writeFileSync(join(blocksDir, `blk0000${f}.dat`), frame(all.slice(f * third, (f + 1) * third)));
  return { blocksDir, expected: [...base, ...baseMore].map((b) => b.hashHex), totalBlocks: all.length, forkA, stateAfter };
}

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** ms from "ready" to exit. */
  importMs: number;
}

/**
 * How long an import child may go without its tip moving (it reports the tip every second) before
 * it counts as stalled. Blocks import by the hundred per second on an idle machine: minutes
 * without one is a hang, not load.
 */
const STALL_MS = 180_000;

/** What a stalled child's diagnostic report (`--report-on-signal`) says it was doing. */
function describeReport(dir: string): string {
  const name = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.json')) : undefined;
  if (!name) return 'no diagnostic report was written';
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8')) as {
    javascriptStack?: { message?: string; stack?: string[] };
    libuv?: { type: string; is_active?: boolean; is_referenced?: boolean }[];
    workers?: { javascriptStack?: { stack?: string[] } }[];
  };
  const handles = (report.libuv ?? []).filter((h) => h.is_active && h.is_referenced).map((h) => h.type);
  const workers = (report.workers ?? []).map((w, i) => `worker ${i}: ${(w.javascriptStack?.stack ?? []).slice(0, 6).join(' | ')}`);
  return [
    `main thread: ${(report.javascriptStack?.stack ?? []).slice(0, 8).join(' | ') || 'idle, waiting on its event loop'}`,
    `active referenced handles: ${handles.join(', ') || 'none'}`,
    ...workers,
    `full report: ${join(dir, name)}`,
  ].join('\n');
}

/**
 * Runs the import child; if `killAfterMs` is set, SIGKILLs it that long after it reports ready.
 * A child whose tip stops moving for STALL_MS is asked for a diagnostic report, killed, and the
 * run rejected with what the report says, instead of leaving the test to time out in silence.
 */
export function runChild(datadir: string, blocksDir: string, killAfterMs?: number): Promise<ChildRun> {
  const reports = `${datadir}.reports`;
  mkdirSync(reports, { recursive: true });
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--report-on-signal',
        '--report-signal=SIGUSR2',
        `--report-directory=${reports}`,
        '--import',
        'tsx',
        join(here, 'import-child.ts'),
        datadir,
        blocksDir,
      ],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    let readyAt = 0;
    let lastTip = '';
    let stalled = false;
    let lastProgress = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const watchdog = setInterval(() => {
      if (Date.now() - lastProgress < STALL_MS || stalled) return;
      stalled = true;
      child.kill('SIGUSR2');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    }, 1000);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      const text = d.toString();
      stdout = (stdout + text).slice(-4000);
      const tips = [...text.matchAll(/^tip (-?\d+)$/gm)];
      const tip = tips.at(-1)?.[1];
      if (tip !== undefined && tip !== lastTip) {
        lastTip = tip;
        lastProgress = Date.now();
      }
      if (!readyAt && text.includes('ready')) {
        readyAt = lastProgress = Date.now();
        if (killAfterMs !== undefined) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      clearInterval(watchdog);
      if (stalled) {
        const phase = readyAt ? `its tip stayed at ${lastTip || 'none'}` : 'it never opened its store';
        reject(
          new Error(
            `import child in ${datadir} stalled: ${phase} for ${STALL_MS / 1000} s\n${describeReport(reports)}\nstdout tail: ${stdout.slice(-500)}\nstderr: ${stderr}`,
          ),
        );
        return;
      }
      resolve({ code, signal, stderr, importMs: readyAt ? Date.now() - readyAt : 0 });
    });
  });
}

/** Counts framed records in the store's own block files (each stored block must appear once). */
function countStoredRecords(datadir: string): number {
  const dir = join(datadir, 'zecrpc', 'blocks');
  let n = 0;
  for (const name of readdirSync(dir)) {
    const buf = readFileSync(join(dir, name));
    for (let off = 0; off + 8 <= buf.length; off += 8 + buf.readUInt32LE(off + 4)) {
      if (!buf.subarray(off, off + 4).equals(Buffer.from(SHIELDED_REGTEST.magic))) throw new Error(`${name}: bad record at ${off}`);
      n++;
    }
  }
  return n;
}

export interface StoreCheck {
  problems: string[];
  tipHeight: number;
  blocksStored: number;
  /** State as the crash left it, read before the store's own recovery runs. */
  phase: 'empty' | 'mid-reorg' | 'steady' | 'final';
  /** Raw tip height before recovery (differs from tipHeight when a reorg was cut short). */
  rawTipHeight: number;
}

/** Tip and most-work block exactly as on disk, bypassing ChainStore.open (which finishes reorgs). */
async function rawState(datadir: string): Promise<{ tipHeight: number; midReorg: boolean }> {
  const db = new ClassicLevel<Buffer, Buffer>(join(datadir, 'zecrpc', 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
  await db.open();
  try {
    const tip = await db.get(keys.tip());
    const best = await db.get(keys.best());
    return { tipHeight: tip ? tip.readUInt32LE(32) : -1, midReorg: !!best && (!tip || !tip.subarray(0, 32).equals(best)) };
  } finally {
    await db.close();
  }
}

export async function inspectStore(datadir: string, chain: KillChain, final: boolean): Promise<StoreCheck> {
  const raw = await rawState(datadir);
  const store = await openChainStore({ datadir, network: SHIELDED_REGTEST });
  try {
    const report = await checkStoreIntegrity(store);
    const problems = [...report.problems];
    let blocksStored = 0;
    for await (const _ of store.database.keys({ gte: keys.index(new Uint8Array(32)), lte: keys.index(new Uint8Array(32).fill(255)) }))
      blocksStored++;
    const records = countStoredRecords(datadir);
    if (records !== blocksStored) problems.push(`${records} block records in the block files for ${blocksStored} indexed blocks`);
    const tip = await store.tip();
    const tipHex = tip ? Buffer.from(tip.hash).reverse().toString('hex') : null;
    if (tipHex) {
      const stored = store.database.getSync(chainStateKeys.tip());
      if (!stored?.equals(chain.stateAfter.get(tipHex)!))
        problems.push(`chain state at tip ${tip!.height} differs from the state built for it`);
    }
    if (final) {
      if (tipHex !== chain.expected.at(-1)) problems.push(`final tip ${tipHex} ≠ expected ${chain.expected.at(-1)}`);
      for (let h = 0; h < chain.expected.length; h++) {
        const got = await store.hashAtHeight(h);
        if (!got || Buffer.from(got).reverse().toString('hex') !== chain.expected[h]) {
          problems.push(`height ${h}: wrong or missing block`);
          break;
        }
      }
      if (blocksStored !== chain.totalBlocks) problems.push(`${blocksStored} blocks stored, input has ${chain.totalBlocks}`);
    }
    const phase: StoreCheck['phase'] = final ? 'final' : raw.tipHeight < 0 ? 'empty' : raw.midReorg ? 'mid-reorg' : 'steady';
    return { problems, tipHeight: tip?.height ?? -1, blocksStored, phase, rawTipHeight: raw.tipHeight };
  } finally {
    await store.close();
  }
}

export interface TrialResult {
  killedAtMs: number;
  killed: boolean;
  afterKill: StoreCheck;
  final: StoreCheck;
}

export async function runTrial(workDir: string, chain: KillChain, killAfterMs: number): Promise<TrialResult> {
  const datadir = join(workDir, 'data');
  const first = await runChild(datadir, chain.blocksDir, killAfterMs);
  if (first.code !== null && first.code !== 0) throw new Error(`import child failed: ${first.stderr}`);
  const afterKill = await inspectStore(datadir, chain, false);
  const second = await runChild(datadir, chain.blocksDir);
  if (second.code !== 0) throw new Error(`resumed import failed (${second.code}): ${second.stderr}`);
  const final = await inspectStore(datadir, chain, true);
  return { killedAtMs: killAfterMs, killed: first.signal === 'SIGKILL', afterKill, final };
}
