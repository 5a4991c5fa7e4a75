/**
 * LevelDB growth with the import's own key mix: bench/leveldb-growth.ts writes uniformly random
 * `c`, `t` and `N` keys, while an import writes mostly the address index's rows, whose keys are
 * clustered (src/store/layout.ts): `d` ‖ type ‖ hash160 ‖ height(BE) ‖ …, many rows an address,
 * appended in height order; `a` ‖ type ‖ hash160 ‖ txid ‖ n, deleted when the coin is spent; and
 * `p` ‖ txid ‖ n per spend. Compaction's cost depends on that distribution, and on the spends
 * deleting keys written a few blocks before (still in the memtable or level 0).
 *
 *   npx tsx bench/leveldb-growth-mix.ts [--keys=12000000] [--every=1000000] [--quick]
 *       [--reuse=SHARE] [--out=NAME.json]
 *
 * The generator is faithful to the contiguous chain (`bench/import-contiguous.ts`,
 * test-vectors/era-chain.ts) and its totals (bench/results/import-projection.json's
 * `contiguous.leveldb_keys.by_prefix` over 100,526 blocks): per block 8.17 transactions (`t`),
 * 110.1 outputs (each a `c`, an `a` and a receiving `d`), 71.5 transparent inputs (each deleting
 * its coin's `c` and `a`, writing a spending `d` at the spender's height and a `p`), 2.94
 * nullifiers (`N`), and the block's own rows (`H`, `h`, `n`, `u`, `B`, `s`, `S`, `U`). As in
 * that chain, each output pays a hash of its own (a counter, little-endian, in the hash's first
 * four bytes: EraChainBuilder's p2pkh); txids, nullifiers and block hashes are uniformly random.
 * A spend's age follows who answered the contiguous run's coin reads (its importer's counters,
 * `contiguous.coin_reads`): 78.8 % the pending groups (a coin of the last 512 blocks here), 16.9 %
 * the coins cache (of the last 6,656 blocks: 13 groups of 512 held its 450 MiB), 4.4 % LevelDB
 * (any live coin). `--reuse=0.7`, a mainnet-like mode not measured on any chain, pays that share
 * of outputs to an earlier address, skewed towards the oldest as pools and exchanges reuse theirs.
 * Before each group is written, the reads that reach LevelDB are made, as the import makes them:
 * the 4.4 % of spends' coins (when already committed) and one absent nullifier a nullifier
 * (`--no-reads` leaves them out); LevelDB compacts files that reads probe in vain, so reads
 * are part of what its compaction costs. Rows are written in group-commit batches of 512 blocks, the importer's
 * DEFAULT_GROUP_COMMIT, which this chain's blocks reach before its 32 MiB.
 *
 * Every `--every` keys it records, for the stretch just written, per written row: the process's
 * CPU while `db.batch` runs (the accounting of bench/leveldb-growth.ts, to compare with its fit),
 * the process's CPU over the whole stretch less the main thread's CPU spent generating the rows
 * (this also counts compaction that runs while the next batch is built), and the main thread's
 * CPU inside `db.batch`. Fit: `cost = a + b · log10(keys)` from 10^6 keys on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { CHAIN_INDEX_LEVEL_OPTIONS } from '../src/store/chain-db.js';
import { diskBytes } from './lib/era-import.js';
import { fitPerDecade, type DecadeFit } from './lib/decade-fit.js';
import { cpuMicros, fmt, load, numberFlag, QUICK } from './lib/measure.js';
import { mainThreadCpuMicros } from './lib/process-cpu.js';
import { fmix32 } from './lib/fmix32.js';

const TARGET_KEYS = numberFlag('keys', QUICK ? 400_000 : 12_000_000);
const EVERY = numberFlag('every', QUICK ? 100_000 : 1_000_000);
const optional = (name: string): number | null => (process.argv.some((a) => a.startsWith(`--${name}=`)) ? numberFlag(name, 1) : null);
/** Share of outputs paid to an earlier address; none in the contiguous chain. */
const REUSE = optional('reuse') ?? 0;
if (REUSE >= 1) throw new Error('--reuse must be below 1');
/** `--no-reads`: writes alone, without the import's LevelDB reads between batches. */
const READS = !process.argv.includes('--no-reads');
const MODE = `addresses ${REUSE > 0 ? `reused ${REUSE}` : 'distinct'}, ${READS ? 'with' : 'without'} the import's reads`;
/**
 * A spend's age: up to `blocks` back (Infinity: any live coin) with the share of the contiguous
 * run's coin reads answered by the pending groups (5,661,994), the cache (1,211,119) and LevelDB
 * (313,588) of 7,186,701.
 */
const SPEND_AGES = [
  { upTo: 5_661_994 / 7_186_701, blocks: 512 },
  { upTo: (5_661_994 + 1_211_119) / 7_186_701, blocks: 13 * 512 },
  { upTo: 1, blocks: Infinity },
];
const BLOCKS_PER_BATCH = 512;
/** `--out=NAME` writes bench/results/NAME (another mode's run beside the contiguous chain's). */
const OUT = process.argv.find((a) => a.startsWith('--out='))?.slice(6) ?? 'leveldb-growth-mix.json';
if (!/^[\w.-]+\.json$/.test(OUT)) throw new Error('--out must be a file name ending in .json');
const RESULT = join(import.meta.dirname, 'results', OUT);

/** The contiguous chain's totals (import-projection.json's `contiguous`), per block. */
const CHAIN_BLOCKS = 100_526;
const PER_BLOCK = {
  txs: 820_908 / CHAIN_BLOCKS,
  // `p` rows are one per spend; `a` left = outputs − spends
  inputs: 7_186_701 / CHAIN_BLOCKS,
  outputs: (3_878_602 + 7_186_701) / CHAIN_BLOCKS,
  nullifiers: 295_334 / CHAIN_BLOCKS,
};

/** `words` pseudo-random 32-bit words for (`id`, `salt`) at `out[at…]`; the first a bijection of the id. */
function randomBytes(id: number, salt: number, words: number, out: Buffer, at: number): void {
  out.writeUInt32LE(fmix32(id ^ Math.imul(salt, 0x9e3779b9)), at);
  for (let i = 1; i < words; i++) out.writeUInt32LE(fmix32(id + Math.imul(i + 8 * salt, 0x27d4eb2d)), at + 4 * i);
}

const TXID = 1;
const NULLIFIER = 2;
const BLOCK_HASH = 3;

function outpointKey(prefix: number, tx: number, n: number): Buffer {
  const k = Buffer.allocUnsafe(37);
  k[0] = prefix;
  randomBytes(tx, TXID, 8, k, 1);
  k.writeUInt32LE(n, 33);
  return k;
}
function addressPrefix(k: Buffer, prefix: number, address: number): void {
  k[0] = prefix;
  k[1] = 1; // P2PKH
  // EraChainBuilder's hash: a counter in the first four bytes, the rest zero
  k.writeUInt32LE(address, 2);
  k.fill(0, 6, 22);
}
function deltaKey(address: number, height: number, txIndex: number, tx: number, n: number, spending: boolean): Buffer {
  const k = Buffer.allocUnsafe(67);
  addressPrefix(k, 0x64, address);
  k.writeUInt32BE(height, 22);
  k.writeUInt32BE(txIndex, 26);
  randomBytes(tx, TXID, 8, k, 30);
  k.writeUInt32LE(n, 62);
  k[66] = spending ? 1 : 0;
  return k;
}
function unspentKey(address: number, tx: number, n: number): Buffer {
  const k = Buffer.allocUnsafe(58);
  addressPrefix(k, 0x61, address);
  randomBytes(tx, TXID, 8, k, 22);
  k.writeUInt32LE(n, 54);
  return k;
}
function hashKey(prefix: number, id: number, salt: number): Buffer {
  const k = Buffer.allocUnsafe(33);
  k[0] = prefix;
  randomBytes(id, salt, 8, k, 1);
  return k;
}
function heightKey(prefix: number, height: number): Buffer {
  const k = Buffer.allocUnsafe(5);
  k[0] = prefix;
  k.writeUInt32BE(height, 1);
  return k;
}

/** Values at the stored records' sizes, checksum included (src/store/layout.ts, write-batch.ts). */
const value = (bytes: number): Buffer => Buffer.alloc(bytes, 7);
const COIN_VALUE = value(13 + 25 + 4);
const UNSPENT_VALUE = value(8 + 25 + 4 + 4);
const DELTA_VALUE = value(8 + 4);
const SPENT_VALUE = value(32 + 4 + 4 + 8 + 1 + 20 + 4);
const TX_VALUE = value(8 + 4);
const NULLIFIER_VALUE = value(1 + 4);
const HEADER_VALUE = value(1487 + 100);
const SMALL_VALUE = value(40);
const UNDO_VALUE = value(71 * 60);

type Op = { type: 'put'; key: Buffer; value: Buffer } | { type: 'del'; key: Buffer };

interface Checkpoint {
  keys: number;
  blocks: number;
  rows: number;
  /** LevelDB point reads in the stretch: old coins and absent nullifiers. */
  reads: number;
  /** Process CPU inside db.batch a row (bench/leveldb-growth.ts's accounting). */
  batch_cpu_us_per_row: number;
  /** Process CPU over the stretch less the main thread's generating, a row. */
  store_cpu_us_per_row: number;
  /** The main thread's CPU inside db.batch, a row. */
  batch_main_thread_cpu_us_per_row: number;
  batch_wall_us_per_row: number;
  disk_mib: number;
  load: number;
}

let rng = 0x2545f491;
const uniform = (): number => {
  rng ^= rng << 13;
  rng ^= rng >>> 17;
  rng ^= rng << 5;
  return (rng >>> 0) / 2 ** 32;
};

/** Live coins in creation order (tombstoned when spent, compacted when half are dead). */
class LiveCoins {
  tx = new Uint32Array(1 << 20);
  n = new Uint32Array(1 << 20);
  address = new Uint32Array(1 << 20);
  dead = new Uint8Array(1 << 20);
  length = 0;
  deadCount = 0;

  add(tx: number, n: number, address: number): void {
    if (this.length === this.tx.length) this.resize(this.tx.length * 2);
    this.tx[this.length] = tx;
    this.n[this.length] = n;
    this.address[this.length] = address;
    this.dead[this.length++] = 0;
  }
  get live(): number {
    return this.length - this.deadCount;
  }
  /** A live coin's slot among the last `recent` slots (about the coins of the last blocks), -1 if none. */
  pick(recent: number): number {
    const from = Math.max(0, this.length - recent);
    for (let tries = 0; tries < 64; tries++) {
      const at = from + Math.floor(uniform() * (this.length - from));
      if (!this.dead[at]) return at;
    }
    for (let at = this.length - 1; at >= 0; at--) if (!this.dead[at]) return at;
    return -1;
  }
  kill(at: number): void {
    this.dead[at] = 1;
    if (++this.deadCount * 2 > this.length && this.length > 1 << 16) this.compact();
  }
  private compact(): void {
    let w = 0;
    for (let r = 0; r < this.length; r++) {
      if (this.dead[r]) continue;
      this.tx[w] = this.tx[r]!;
      this.n[w] = this.n[r]!;
      this.address[w] = this.address[r]!;
      this.dead[w++] = 0;
    }
    this.length = w;
    this.deadCount = 0;
  }
  private resize(size: number): void {
    const grow = <T extends Uint32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.tx = grow(this.tx, (n) => new Uint32Array(n));
    this.n = grow(this.n, (n) => new Uint32Array(n));
    this.address = grow(this.address, (n) => new Uint32Array(n));
    this.dead = grow(this.dead, (n) => new Uint8Array(n));
  }
}

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-leveldb-growth-mix-'));
const db = new ClassicLevel<Buffer, Buffer>(dir, { keyEncoding: 'buffer', valueEncoding: 'buffer', ...CHAIN_INDEX_LEVEL_OPTIONS });
await db.open();
try {
  const coins = new LiveCoins();
  let addresses = 0;
  let nextTx = 0;
  let nextNullifier = 0;
  let height = 0;
  let keys = 0;
  // fractional per-block counts carried so the totals follow the chain's means
  const carry = { txs: 0, inputs: 0, outputs: 0, nullifiers: 0 };
  const take = (kind: keyof typeof carry): number => {
    carry[kind] += PER_BLOCK[kind];
    const whole = Math.floor(carry[kind]);
    carry[kind] -= whole;
    return whole;
  };
  const payee = (): number => {
    if (addresses === 0 || uniform() >= REUSE) return addresses++;
    const u = uniform();
    return Math.floor(addresses * u * u * u);
  };
  const checkpoints: Checkpoint[] = [];
  const fresh = () => ({ rows: 0, reads: 0, batchCpu: 0, batchMain: 0, batchWall: 0, generateMain: 0, cpu0: cpuMicros(), blocks: 0 });
  let stretch = fresh();
  const t0 = performance.now();
  console.log(`${MODE}; to ${fmt(TARGET_KEYS)} keys (${load()})`);
  while (keys < TARGET_KEYS) {
    const g0 = mainThreadCpuMicros();
    const ops: Op[] = [];
    const reads: Buffer[] = [];
    const absentReads: Buffer[] = [];
    const committedTx = nextTx;
    let keyDelta = 0;
    for (let b = 0; b < BLOCKS_PER_BATCH; b++, height++) {
      const txs = Math.max(1, take('txs'));
      const outputs = take('outputs');
      const inputs = take('inputs');
      for (let i = 0; i < inputs && coins.live > 0; i++) {
        const u = uniform();
        const age = SPEND_AGES.find((a) => u < a.upTo)!.blocks;
        const at = coins.pick(age === Infinity ? coins.length : Math.ceil(age * PER_BLOCK.outputs));
        if (at < 0) break;
        const tx = coins.tx[at]!;
        const n = coins.n[at]!;
        const address = coins.address[at]!;
        const spender = nextTx + (i % txs);
        // a spend older than the cache's span is the one whose coin LevelDB answers
        if (READS && age === Infinity && tx < committedTx) reads.push(outpointKey(0x63, tx, n));
        ops.push({ type: 'del', key: outpointKey(0x63, tx, n) });
        ops.push({ type: 'del', key: unspentKey(address, tx, n) });
        ops.push({ type: 'put', key: deltaKey(address, height, i % txs, spender, i, true), value: DELTA_VALUE });
        ops.push({ type: 'put', key: outpointKey(0x70, tx, n), value: SPENT_VALUE });
        coins.kill(at); // −c −a +d +p: the store keeps its size
      }
      for (let o = 0; o < outputs; o++) {
        const tx = nextTx + (o % txs);
        const n = Math.floor(o / txs);
        const address = payee();
        coins.add(tx, n, address);
        ops.push({ type: 'put', key: outpointKey(0x63, tx, n), value: COIN_VALUE });
        ops.push({ type: 'put', key: unspentKey(address, tx, n), value: UNSPENT_VALUE });
        ops.push({ type: 'put', key: deltaKey(address, height, o % txs, tx, n, false), value: DELTA_VALUE });
        keyDelta += 3;
      }
      for (let t = 0; t < txs; t++) ops.push({ type: 'put', key: hashKey(0x74, nextTx + t, TXID), value: TX_VALUE });
      nextTx += txs;
      keyDelta += txs;
      for (let i = take('nullifiers'); i > 0; i--) {
        const k = hashKey(0x4e, nextNullifier++, NULLIFIER);
        k[1] = 1;
        ops.push({ type: 'put', key: k, value: NULLIFIER_VALUE });
        // the double-spend check: a nullifier LevelDB has not seen
        if (READS) absentReads.push(hashKey(0x4e, nextNullifier, NULLIFIER + 100));
        keyDelta++;
      }
      // the block's own rows: header record, height, txid list, nChainTx, block data cursor, the
      // timestamp index's two, its undo record (and the one 100 blocks back deleted)
      ops.push({ type: 'put', key: hashKey(0x42, height, BLOCK_HASH), value: HEADER_VALUE });
      ops.push({ type: 'put', key: heightKey(0x68, height), value: SMALL_VALUE });
      ops.push({ type: 'put', key: hashKey(0x6e, height, BLOCK_HASH), value: value(8 * txs + 4) });
      ops.push({ type: 'put', key: hashKey(0x48, height, BLOCK_HASH), value: SMALL_VALUE });
      ops.push({ type: 'put', key: hashKey(0x75, height, BLOCK_HASH), value: SMALL_VALUE });
      ops.push({ type: 'put', key: heightKey(0x73, height), value: SMALL_VALUE });
      ops.push({ type: 'put', key: hashKey(0x53, height, BLOCK_HASH), value: SMALL_VALUE });
      ops.push({ type: 'put', key: hashKey(0x55, height, BLOCK_HASH), value: UNDO_VALUE });
      if (height >= 100) ops.push({ type: 'del', key: hashKey(0x55, height - 100, BLOCK_HASH) });
      keyDelta += height >= 100 ? 7 : 8;
    }
    // The reads run on the main thread before the group is written, as the import's do; their own
    // CPU is the main thread's (counted with generation), compaction they set off is not.
    for (const key of reads) if (db.getSync(key) === undefined) throw new Error('a committed coin is missing');
    for (const key of absentReads) if (db.getSync(key) !== undefined) throw new Error('an absent nullifier was found');
    stretch.reads += reads.length + absentReads.length;
    stretch.generateMain += mainThreadCpuMicros() - g0;
    const c0 = cpuMicros();
    const m0 = mainThreadCpuMicros();
    const w0 = performance.now();
    await db.batch(ops);
    stretch.batchWall += (performance.now() - w0) * 1000;
    stretch.batchMain += mainThreadCpuMicros() - m0;
    stretch.batchCpu += cpuMicros() - c0;
    stretch.rows += ops.length;
    stretch.blocks += BLOCKS_PER_BATCH;
    const before = keys;
    keys += keyDelta;
    if (Math.floor(keys / EVERY) > Math.floor(before / EVERY) || keys >= TARGET_KEYS) {
      const point: Checkpoint = {
        keys,
        blocks: height,
        rows: stretch.rows,
        reads: stretch.reads,
        batch_cpu_us_per_row: stretch.batchCpu / stretch.rows,
        store_cpu_us_per_row: (cpuMicros() - stretch.cpu0 - stretch.generateMain) / stretch.rows,
        batch_main_thread_cpu_us_per_row: stretch.batchMain / stretch.rows,
        batch_wall_us_per_row: stretch.batchWall / stretch.rows,
        disk_mib: diskBytes(dir) / 2 ** 20,
        load: Number(load().slice(5)),
      };
      checkpoints.push(point);
      console.log(
        `${fmt(keys).padStart(11)} keys (${fmt(height)} blocks, ${fmt(addresses)} addresses): a row ${point.batch_cpu_us_per_row.toFixed(2)} µs CPU in batch, ` +
          `${point.store_cpu_us_per_row.toFixed(2)} µs CPU less generation, ${point.batch_main_thread_cpu_us_per_row.toFixed(2)} µs main thread, ` +
          `${point.batch_wall_us_per_row.toFixed(2)} µs wall; ${point.disk_mib.toFixed(0)} MiB (${((performance.now() - t0) / 1000).toFixed(0)} s, ${load()})`,
      );
      stretch = fresh();
    }
  }
  const fitFrom = QUICK ? 0 : 1_000_000;
  const fitted = checkpoints.filter((p) => p.keys >= fitFrom);
  const fit = (pick: (p: Checkpoint) => number): DecadeFit => fitPerDecade(fitted.map((p) => ({ keys: p.keys, value: pick(p) })));
  const perDecade = {
    batch_cpu_us_per_row: fit((p) => p.batch_cpu_us_per_row),
    store_cpu_us_per_row: fit((p) => p.store_cpu_us_per_row),
    batch_main_thread_cpu_us_per_row: fit((p) => p.batch_main_thread_cpu_us_per_row),
    batch_wall_us_per_row: fit((p) => p.batch_wall_us_per_row),
  };
  console.log(
    `fit over ${fitted.length} checkpoints from ${fmt(fitFrom)} keys, per tenfold growth a written row: ` +
      Object.entries(perDecade)
        .map(([k, f]) => `${k} ${f.per_decade >= 0 ? '+' : ''}${f.per_decade.toFixed(3)} (intercept ${f.intercept.toFixed(2)})`)
        .join(', '),
  );
  if (!QUICK)
    writeFileSync(
      RESULT,
      JSON.stringify(
        {
          generated_at: new Date().toISOString(),
          keys: TARGET_KEYS,
          options: CHAIN_INDEX_LEVEL_OPTIONS,
          blocks_per_batch: BLOCKS_PER_BATCH,
          per_block: PER_BLOCK,
          mode: MODE,
          addresses,
          fitted_from_keys: fitFrom,
          per_tenfold_growth: perDecade,
          caveat: 'the store stays within the OS page cache',
          checkpoints,
        },
        null,
        2,
      ) + '\n',
    );
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
