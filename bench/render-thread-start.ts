/**
 * What a render thread started afresh costs against one already running: a RenderPool of one
 * thread renders `getblock <hash> 2` of testnet 141042 (1.93 MB, 20 Sprout JoinSplits) once in a
 * new thread and then `--renders` more times on it; the thread is left to end (an idle time of
 * 200 ms) and the cycle repeats. Printed: the process's CPU time (every thread's) for the first
 * render of each new thread and for each render after it.
 *
 *   npx tsx bench/render-thread-start.ts [--cycles=3] [--renders=5] [--dist]
 *
 * `--dist` takes the pool from the compiled `dist/` (what `zecrpc serve` runs; `npm run build`
 * first), whose threads load compiled modules; without it they load the TypeScript sources
 * through tsx, as the serving benches' servers do.
 */
import { existsSync } from 'node:fs';
import { TESTNET } from '../src/chain/network.js';
import { decodeBlock } from '../src/codec/block.js';
import type { BlockChainContext } from '../src/render/block.js';
import type { RenderPool as RenderPoolType } from '../src/rpc/workers/render-pool.js';
import { readHexVector } from '../test/support/vectors.js';
import { fmt, load, numberFlag } from './lib/measure.js';

const CYCLES = numberFlag('cycles', 3);
const RENDERS = numberFlag('renders', 5);
const DIST = process.argv.includes('--dist');

async function poolClass(): Promise<typeof RenderPoolType> {
  if (!DIST) return (await import('../src/rpc/workers/render-pool.js')).RenderPool;
  const url = new URL('../dist/src/rpc/workers/render-pool.js', import.meta.url);
  if (!existsSync(url)) throw new Error('--dist: run `npm run build` first');
  return ((await import(url.href)) as { RenderPool: typeof RenderPoolType }).RenderPool;
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main(): Promise<void> {
  const bytes = readHexVector('blocks', 'testnet', '141042.hex');
  const block = decodeBlock(bytes);
  const context: BlockChainContext = {
    height: 141042,
    confirmations: -1,
    chainWork: 1n,
    previousBlockHash: block.header.prevHash,
    nextBlockHash: null,
    state: null,
  };
  const req = { hash: block.hash, bytes, verbosity: 2 as const, context, network: TESTNET };
  const RenderPool = await poolClass();
  const pool = new RenderPool({ threads: 1, idleMs: 200, inlineMaxBytes: 0 });
  // The pool's threads do not keep the process alive; the bench's own waits must.
  const keepAlive = setInterval(() => undefined, 1000);
  console.log(
    `render-thread start: getblock 2 of testnet 141042 (${fmt(bytes.length)} bytes), threads from ${DIST ? 'dist/' : 'the sources under tsx'}; node ${process.version} | ${load()}`,
  );
  try {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const c0 = cpuMs();
      const t0 = performance.now();
      await pool.render(req);
      const first = cpuMs() - c0;
      const wall = performance.now() - t0;
      const next: number[] = [];
      for (let i = 0; i < RENDERS; i++) {
        const c = cpuMs();
        await pool.render(req);
        next.push(cpuMs() - c);
      }
      console.log(
        `new thread ${cycle + 1}: first render ${fmt(first)} ms CPU (${fmt(wall)} ms wall); the next ${RENDERS} on it: ${next.map((v) => fmt(v)).join(', ')} ms CPU | ${load()}`,
      );
      while (pool.size > 0) await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    clearInterval(keepAlive);
    await pool.close();
  }
}

await main();
