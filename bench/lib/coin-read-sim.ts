/**
 * Which coin reads of an import reach LevelDB, known before the import runs: `zecrpc import`
 * collects blocks into groups (src/store/chain-db.ts: a group is handed to LevelDB once it holds
 * DEFAULT_GROUP_COMMIT's blocks or key and value bytes) and answers a coin read from the group
 * being filled, the one being written, or the groups it wrote and still keeps (the coins cache,
 * src/store/committed-coins.ts, up to `-dbcache`). This replays that grouping over a chain's
 * blocks, tracking the group each coin was created in, and counts each input by who answers it.
 *
 * What it cannot see exactly is a group's bytes and memory: they are the rows the state
 * transition and the indexers write, which only an import computes. They are estimated from what
 * a block holds, at per-unit sizes fitted on the groups of a measured import
 * (`fitGroupBytes`, bench/coin-reads.ts) and checked against its counters.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeBlock, type Block } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { DEFAULT_GROUP_COMMIT } from '../../src/store/chain-db.js';
import { solveLinear } from './import-model.js';

/** What one block adds to a group's key and value bytes, by what it holds. */
export interface GroupByteUnits {
  blocks: number;
  txs: number;
  inputs: number;
  outputs: number;
  /** scriptPubKey bytes of the block's outputs (a coin's value holds its script). */
  scriptBytes: number;
  nullifiers: number;
}
export const GROUP_BYTE_UNITS = ['blocks', 'txs', 'inputs', 'outputs', 'scriptBytes', 'nullifiers'] as const;

export function groupByteUnitsOf(block: Block): GroupByteUnits {
  const u: GroupByteUnits = { blocks: 1, txs: block.transactions.length, inputs: 0, outputs: 0, scriptBytes: 0, nullifiers: 0 };
  block.transactions.forEach((tx, i) => {
    const d = tx.data;
    if (i > 0) u.inputs += d.vin.length;
    u.outputs += d.vout.length;
    for (const o of d.vout) u.scriptBytes += o.scriptPubKey.length;
    u.nullifiers += (d.sapling?.spends.length ?? 0) + (d.orchard?.actions.length ?? 0);
  });
  return u;
}

/** Bytes a block adds to its group per unit, and a group's memory per byte (its arena and index arrays). */
export interface GroupSizes {
  bytesPerUnit: GroupByteUnits;
  memoryPerByte: number;
}

export const estimateGroupBytes = (s: GroupSizes, u: GroupByteUnits): number =>
  GROUP_BYTE_UNITS.reduce((sum, k) => sum + s.bytesPerUnit[k] * u[k], 0);

/** Coin reads by who answers them (as src/store/committed-coins.ts counts them). */
export interface SimulatedReads {
  /** The coin's group is the one being filled or the one before it (being written, or just written). */
  pending: number;
  /** An older group the coins cache still keeps. */
  cached: number;
  leveldb: number;
}

/** The simulation's groups: blocks, estimated bytes and memory. */
export interface SimulatedGroup {
  blocks: number;
  bytes: number;
  memoryBytes: number;
}

const outpointKey = (hash: Uint8Array, index: number): string => `${Buffer.from(hash).toString('latin1')}${index}`;

/**
 * Replays the importer's grouping over blocks fed in chain order (`add`), counting each input's
 * read per window of `windowBlocks` blocks. `cacheBytes` is the coins cache's bound (0: off).
 */
export class CoinReadSimulation {
  /** Unspent coins: the number of the group that created each. */
  private readonly coins = new Map<string, number>();
  /** Groups written so far, oldest first (their estimated memory). */
  private readonly written: SimulatedGroup[] = [];
  private group: SimulatedGroup = { blocks: 0, bytes: 0, memoryBytes: 0 };
  private height = -1;
  readonly total: SimulatedReads = { pending: 0, cached: 0, leveldb: 0 };
  readonly windows: SimulatedReads[] = [];

  constructor(
    private readonly sizes: GroupSizes,
    private readonly cacheBytes: number,
    private readonly windowBlocks: number,
  ) {}

  /** Groups handed to LevelDB so far, and the one being filled. */
  get groups(): SimulatedGroup[] {
    return this.group.blocks > 0 ? [...this.written, this.group] : [...this.written];
  }

  add(block: Block): void {
    this.height++;
    const current = this.written.length;
    // The oldest group the coins cache keeps while this block connects: written groups newest
    // first up to the bound; the one before the current group is pending or just written.
    let oldestKept = current - 1;
    if (this.cacheBytes > 0) {
      let held = 0;
      for (let g = current - 1; g >= 0; g--) {
        held += this.written[g]!.memoryBytes;
        if (held > this.cacheBytes) break;
        oldestKept = g;
      }
    }
    const window = (this.windows[Math.floor(this.height / this.windowBlocks)] ??= { pending: 0, cached: 0, leveldb: 0 });
    block.transactions.forEach((tx, i) => {
      if (i > 0) {
        for (const input of tx.data.vin) {
          const key = outpointKey(input.prevout.hash, input.prevout.index);
          const created = this.coins.get(key);
          this.coins.delete(key);
          // A coin the chain never created would be refused by the import: count it as LevelDB's.
          const who = created === undefined ? 'leveldb' : created >= current - 1 ? 'pending' : created >= oldestKept ? 'cached' : 'leveldb';
          window[who]++;
          this.total[who]++;
        }
      }
      const txid = tx.txid;
      tx.data.vout.forEach((_, n) => this.coins.set(outpointKey(txid, n), current));
    });
    this.group.blocks++;
    this.group.bytes += estimateGroupBytes(this.sizes, groupByteUnitsOf(block));
    if (this.group.blocks >= DEFAULT_GROUP_COMMIT.maxBlocks || this.group.bytes >= DEFAULT_GROUP_COMMIT.maxBytes) {
      this.group.memoryBytes = this.group.bytes * this.sizes.memoryPerByte;
      this.written.push(this.group);
      this.group = { blocks: 0, bytes: 0, memoryBytes: 0 };
    }
  }
}

/** Each block of the blk files under `chainDir/blocks`, in file order (the order an import reads them), decoded. */
export function* blkBlocks(chainDir: string): Iterable<{ block: Block; size: number }> {
  const blocksDir = join(chainDir, 'blocks');
  for (const name of readdirSync(blocksDir)
    .filter((f) => /^blk\d{5}\.dat$/.test(f))
    .sort()) {
    const file = readFileSync(join(blocksDir, name));
    for (let at = 0; at + 8 <= file.length;) {
      const size = file.readUInt32LE(at + 4);
      if (at + 8 + size > file.length) break;
      yield { block: decodeBlock(file.subarray(at + 8, at + 8 + size), CURRENT_CHAIN_ACCEPTANCE), size };
      at += 8 + size;
    }
  }
}

/** One measured group: what its blocks held and the bytes and memory the import gave it. */
export interface MeasuredGroup {
  units: GroupByteUnits;
  bytes: number;
  memoryBytes: number;
  /** Whether the group was handed over full (the last group of an import is written partly filled). */
  full: boolean;
}

/**
 * Per-unit bytes by least squares over measured groups, relative error, every size ≥ 0 (a unit
 * whose size comes out negative is fixed at zero and the rest refitted); memory per byte as the
 * full groups' total memory over their bytes (a partly filled group's arena was sized for a full one).
 */
export function fitGroupSizes(groups: readonly MeasuredGroup[]): GroupSizes {
  const free = new Set<keyof GroupByteUnits>(GROUP_BYTE_UNITS);
  for (;;) {
    const units = GROUP_BYTE_UNITS.filter((u) => free.has(u));
    const scale = units.map((u) => Math.hypot(...groups.map((g) => g.units[u] / g.bytes)) || 1);
    const ata = units.map(() => units.map(() => 0));
    const atb = units.map(() => 0);
    for (const g of groups) {
      const row = units.map((u, i) => g.units[u] / g.bytes / scale[i]!);
      for (let i = 0; i < units.length; i++) {
        atb[i]! += row[i]!;
        for (let j = 0; j < units.length; j++) ata[i]![j]! += row[i]! * row[j]!;
      }
    }
    const x = solveLinear(ata, atb);
    if (!x) throw new Error(`the measured groups do not tell ${units.join(', ')} apart`);
    const bytesPerUnit: GroupByteUnits = { blocks: 0, txs: 0, inputs: 0, outputs: 0, scriptBytes: 0, nullifiers: 0 };
    units.forEach((u, i) => (bytesPerUnit[u] = x[i]! / scale[i]!));
    const negative = units.filter((u) => bytesPerUnit[u] < 0).sort((a, b) => bytesPerUnit[a] - bytesPerUnit[b]);
    if (negative.length > 0) {
      free.delete(negative[0]!);
      continue;
    }
    const full = groups.filter((g) => g.full);
    const memoryPerByte =
      full.reduce((s, g) => s + g.memoryBytes, 0) /
      Math.max(
        1,
        full.reduce((s, g) => s + g.bytes, 0),
      );
    return { bytesPerUnit, memoryPerByte };
  }
}

/** What a chain's blocks held per group, from the sizes of the groups an import of it wrote (in order). */
export function measuredGroups(
  blocks: Iterable<{ block: Block }>,
  written: readonly { blocks: number; bytes: number; memoryBytes: number }[],
): MeasuredGroup[] {
  const out: MeasuredGroup[] = [];
  const it = blocks[Symbol.iterator]();
  for (const [i, g] of written.entries()) {
    const units: GroupByteUnits = { blocks: 0, txs: 0, inputs: 0, outputs: 0, scriptBytes: 0, nullifiers: 0 };
    for (let b = 0; b < g.blocks; b++) {
      const next = it.next();
      if (next.done) throw new Error(`the import wrote more blocks (group ${i}) than the chain holds`);
      const u = groupByteUnitsOf(next.value.block);
      for (const k of GROUP_BYTE_UNITS) units[k] += u[k];
    }
    out.push({ units, bytes: g.bytes, memoryBytes: g.memoryBytes, full: i < written.length - 1 });
  }
  return out;
}
