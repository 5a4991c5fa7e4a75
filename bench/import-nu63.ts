/**
 * Import rate on both sides of the NU6.3 activation, on the real nu6.3 blocks.
 * Run: npx tsx bench/import-nu63.ts [--quick]
 *
 * The real blocks, not era-shaped ones built like them (test-vectors/era-chain.ts), are imported
 * from a checkpoint, as a store following Zebra starts: each segment opens a fresh store as `zecrpc
 * import` does (group commit, Equihash checked), starts it at the block before the segment and
 * times addBlock of every block in it plus the final flush.
 *   - NU6.2 era: the blocks between the first one held and the activation block (mainnet
 *     3428142, testnet 4133999: one block each, all the vectors hold).
 *   - NU6.3 era, as many blocks: from a checkpoint at the activation block, the same count.
 *   - NU6.3 era, all: every block after the activation block.
 * The segments run interleaved, ROUNDS times, each round starting one segment later; a first
 * round is not timed (it builds the hashers and loads the WebAssembly). Figures are medians; the
 * ratio is NU6.3 against NU6.2 over the same number of blocks, per block and per byte.
 * The checkpoint's Sapling and Orchard frontiers are empty (the vectors hold none): the blocks
 * after a checkpoint at the activation block do not depend on them (their history tree is unknown).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAINNET, TESTNET, type NetworkParams } from '../src/chain/network.js';
import { decodeBlockHeader } from '../src/codec/block.js';
import { openChainStore } from '../src/store/index.js';
import { NU63_RANGE, nu63Block, type Nu63Network } from '../test/support/zebra-node.js';
import { fmt, load, median, QUICK, spread } from './lib/measure.js';

const ROUNDS = QUICK ? 2 : 7;
const PARAMS: Record<Nu63Network, NetworkParams> = { mainnet: MAINNET, testnet: TESTNET };

interface Segment {
  label: string;
  network: Nu63Network;
  checkpoint: number;
  heights: number[];
  bytes: number;
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function segments(network: Nu63Network): Segment[] {
  const { first, activation, last } = NU63_RANGE[network];
  const before = range(first + 1, activation - 1);
  const make = (label: string, checkpoint: number, heights: number[]): Segment => ({
    label: `${network} ${label}`,
    network,
    checkpoint,
    heights,
    bytes: heights.reduce((sum, h) => sum + nu63Block(network, h).length, 0),
  });
  return [
    make(`NU6.2 era ${before[0]}–${before[before.length - 1]}`, first, before),
    make(`NU6.3 era, as many`, activation, range(activation + 1, activation + before.length)),
    make(`NU6.3 era, all ${activation + 1}–${last}`, activation, range(activation + 1, last)),
  ];
}

const root = mkdtempSync(join(tmpdir(), 'zecrpc-bench-nu63-'));
let dirs = 0;

/** Milliseconds to import the segment's blocks into a store started at its checkpoint. */
async function importSegment(s: Segment): Promise<number> {
  const datadir = join(root, `d${dirs++}`);
  const store = await openChainStore({ datadir, network: PARAMS[s.network], groupCommit: true });
  try {
    const header = decodeBlockHeader(nu63Block(s.network, s.checkpoint).subarray(0, 1487)).bytes;
    await store.startFromCheckpoint({
      height: s.checkpoint,
      headers: [header],
      chainWork: 1n << 80n,
      chainTx: null,
      state: { sprout: '000000', sapling: '000000', orchard: '000000', history: 'unknown', totals: {} } as never,
    });
    const blocks = s.heights.map((h) => nu63Block(s.network, h));
    const started = process.hrtime.bigint();
    for (const [i, bytes] of blocks.entries()) {
      const r = await store.addBlock(bytes);
      if (r.status !== 'connected') throw new Error(`${s.label}: block ${s.heights[i]} was ${r.status}, not connected`);
    }
    await store.flush();
    return Number(process.hrtime.bigint() - started) / 1e6;
  } finally {
    await store.close();
    rmSync(datadir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const all = [...segments('mainnet'), ...segments('testnet')];
  const times = new Map<Segment, number[]>(all.map((s) => [s, []]));
  for (const s of all) await importSegment(s); // untimed first round
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < all.length; k++) {
      const s = all[(k + round) % all.length]!;
      times.get(s)!.push(await importSegment(s));
    }
  }
  console.log(`import rate across NU6.3 (real blocks from a checkpoint; median of ${ROUNDS} rounds; ${load()})`);
  const ms = (s: Segment): number => median(times.get(s)!);
  for (const s of all) {
    const { median: t, min, max } = spread(times.get(s)!);
    console.log(
      `${s.label.padEnd(44)} ${fmt((s.heights.length / t) * 1000, 1).padStart(8)} blocks/s ${((s.bytes / 1048576 / t) * 1000).toFixed(2).padStart(7)} MB/s  (${s.heights.length} blocks, ${fmt(s.bytes)} bytes, ${t.toFixed(2)} ms, rounds ${min.toFixed(2)}–${max.toFixed(2)} ms)`,
    );
  }
  for (const network of ['mainnet', 'testnet'] as const) {
    const [v5, v6] = all.filter((s) => s.network === network);
    const perBlock = ms(v6!) / v6!.heights.length / (ms(v5!) / v5!.heights.length);
    const perByte = ms(v6!) / v6!.bytes / (ms(v5!) / v5!.bytes);
    console.log(`${network}: NU6.3 / NU6.2 time, same block count: ${perBlock.toFixed(2)}× per block, ${perByte.toFixed(2)}× per byte`);
  }
}

try {
  await main();
} finally {
  rmSync(root, { recursive: true, force: true });
}
