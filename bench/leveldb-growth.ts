/**
 * LevelDB growth: what a write and a point read cost as the store grows to 10^7+ keys, the sizes
 * a mainnet import passes through, against the 10^4–10^5 keys of the calibration chains the
 * import model's unit costs come from (bench/import-eras.ts).
 *
 *   npx tsx bench/leveldb-growth.ts [--keys=20000000] [--quick]
 *
 * The store is opened with the chain store's own LevelDB options (src/store/chain-db.ts) and fed
 * the import's mix of rows, in group-commit batches: per step three coin puts (`c` ‖ txid ‖ n,
 * a P2PKH-sized value), one txid-index put (`t` ‖ txid), one nullifier put (`N` ‖ pool ‖ nf) and
 * two coin deletes of live coins picked at random, each read first as the import reads the coin
 * it spends, and one read of an absent nullifier (the double-spend check, which on mainnet almost
 * always misses). Keys are uniformly random, as mainnet's txids and nullifiers are. Net growth:
 * three keys a step.
 *
 * Every `--every` keys it records, for the stretch just written: process CPU µs per written row
 * (LevelDB's compaction threads included: compaction is what growth costs), wall µs per row,
 * wall µs per present and per absent point read, and the store's size on disk. The fit
 * `cost = a + b · log10(keys)` over the checkpoints from 10^6 keys on gives the cost added by
 * each tenfold growth, which the import projection carries to mainnet's key count.
 *
 * Caveat printed with the result: the store here stays within the OS page cache (24 GiB
 * machine); a mainnet index larger than RAM would add disk reads the figure does not hold.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { CHAIN_INDEX_LEVEL_OPTIONS } from '../src/store/chain-db.js';
import { fitPerDecade, type DecadeFit } from './lib/decade-fit.js';
import { diskBytes } from './lib/era-import.js';
import { cpuMicros, fmt, load, numberFlag, QUICK } from './lib/measure.js';
import { mainThreadCpuMicros } from './lib/process-cpu.js';
import { fmix32 } from './lib/fmix32.js';

const TARGET_KEYS = numberFlag('keys', QUICK ? 300_000 : 12_000_000);
const EVERY = numberFlag('every', QUICK ? 100_000 : 1_000_000);
/** Steps a batch: about 14,000 rows, a group commit of a few hundred mainnet blocks. */
const STEPS_PER_BATCH = 2_000;
/** `--out=NAME` writes bench/results/NAME instead: a re-run for comparison leaves the model's input alone. */
const OUT = process.argv.find((a) => a.startsWith('--out='))?.slice(6) ?? 'leveldb-growth.json';
if (!/^[\w.-]+\.json$/.test(OUT)) throw new Error('--out must be a file name ending in .json');
const RESULT = join(import.meta.dirname, 'results', OUT);

/** 32 pseudo-random bytes for (`id`, `salt`): uniformly spread keys, distinct per id, reproducible. */
function randomId(id: number, salt: number, out: Buffer, at: number): void {
  // The first word is a bijection of the id, so two ids never share a key.
  out.writeUInt32LE(fmix32(id ^ Math.imul(salt, 0x9e3779b9)), at);
  for (let i = 1; i < 8; i++) out.writeUInt32LE(fmix32(id + Math.imul(i + 8 * salt, 0x27d4eb2d)), at + 4 * i);
}

const coinKey = (coin: number): Buffer => {
  const k = Buffer.allocUnsafe(37);
  k[0] = 0x63; // 'c'
  randomId(coin >>> 2, 1, k, 1);
  k.writeUInt32LE(coin & 3, 33);
  return k;
};
const txKey = (tx: number): Buffer => {
  const k = Buffer.allocUnsafe(33);
  k[0] = 0x74; // 't'
  randomId(tx, 1, k, 1);
  return k;
};
const nullifierKey = (nf: number, salt: number): Buffer => {
  const k = Buffer.allocUnsafe(34);
  k[0] = 0x4e; // 'N'
  k[1] = 1;
  randomId(nf, salt, k, 2);
  return k;
};
/** A coin record's size with its checksum: value, height, flags, a 25-byte P2PKH script, CRC. */
const COIN_VALUE = Buffer.alloc(13 + 25 + 4, 7);
const TX_VALUE = Buffer.alloc(8 + 4, 3);
const NULLIFIER_VALUE = Buffer.alloc(1 + 4, 1);

interface Checkpoint {
  keys: number;
  write_cpu_us_per_row: number;
  write_wall_us_per_row: number;
  present_read_us: number;
  absent_read_us: number;
  /** The same reads in the main thread's CPU time. */
  present_read_cpu_us: number;
  absent_read_cpu_us: number;
  /**
   * Process CPU over the stretch less the main thread's CPU spent generating its rows and timing
   * its reads, a written row: also counts compaction that runs while the next batch is built.
   */
  store_cpu_us_per_row: number;
  /** The main thread's CPU inside `db.batch`, a written row. */
  batch_main_thread_cpu_us_per_row: number;
  disk_mib: number;
  load: number;
}

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-leveldb-growth-'));
const db = new ClassicLevel<Buffer, Buffer>(dir, { keyEncoding: 'buffer', valueEncoding: 'buffer', ...CHAIN_INDEX_LEVEL_OPTIONS });
await db.open();
try {
  // Live coins as ids (a coin's key derives from its id), spent by swap-remove at random.
  let live = new Uint32Array(1 << 20);
  let liveCount = 0;
  let nextCoin = 0;
  let nextTx = 0;
  let nextNullifier = 0;
  let absentProbe = 0;
  let rng = 0x2545f491;
  const random = (n: number): number => {
    rng ^= rng << 13;
    rng ^= rng >>> 17;
    rng ^= rng << 5;
    return (rng >>> 0) % n;
  };
  let keys = 0;
  const checkpoints: Checkpoint[] = [];
  const freshStretch = () => ({
    rows: 0,
    writeCpu: 0,
    writeWall: 0,
    writeMain: 0,
    outsideMain: 0,
    cpu0: cpuMicros(),
    present: 0,
    presentUs: 0,
    presentCpu: 0,
    absent: 0,
    absentUs: 0,
    absentCpu: 0,
  });
  let stretch = freshStretch();
  let outside0 = mainThreadCpuMicros();
  const t0 = performance.now();
  while (keys < TARGET_KEYS) {
    const ops: ({ type: 'put'; key: Buffer; value: Buffer } | { type: 'del'; key: Buffer })[] = [];
    const presentKeys: Buffer[] = [];
    const absentKeys: Buffer[] = [];
    for (let s = 0; s < STEPS_PER_BATCH; s++) {
      const tx = nextTx++;
      for (let n = 0; n < 3; n++) {
        if (liveCount === live.length) {
          const grown = new Uint32Array(live.length * 2);
          grown.set(live);
          live = grown;
        }
        const coin = tx * 4 + n;
        live[liveCount++] = coin;
        ops.push({ type: 'put', key: coinKey(coin), value: COIN_VALUE });
      }
      nextCoin += 3;
      ops.push({ type: 'put', key: txKey(tx), value: TX_VALUE });
      ops.push({ type: 'put', key: nullifierKey(nextNullifier++, 1), value: NULLIFIER_VALUE });
      // Spends pick among coins already committed (the batch's own are not in LevelDB yet).
      const committed = liveCount - 3 * (s + 1);
      for (let i = 0; i < 2 && committed > 0; i++) {
        const at = random(committed - i);
        const coin = live[at]!;
        const key = coinKey(coin);
        presentKeys.push(key);
        live[at] = live[committed - i - 1]!;
        live[committed - i - 1] = live[--liveCount]!;
        ops.push({ type: 'del', key });
      }
      absentKeys.push(nullifierKey(absentProbe++, 2));
    }
    // The batch's reads, timed together: wall time and the main thread's own CPU time (reads run
    // on it), the latter untouched by other processes and LevelDB's threads taking the cores.
    const timeReads = (keys: Buffer[], present: boolean): { wall: number; cpu: number } => {
      const m0 = mainThreadCpuMicros();
      const r0 = performance.now();
      for (const key of keys)
        if ((db.getSync(key) !== undefined) !== present)
          throw new Error(present ? 'a coin is missing: the store lost a write' : 'an absent nullifier was found');
      return { wall: (performance.now() - r0) * 1000, cpu: mainThreadCpuMicros() - m0 };
    };
    const p = timeReads(presentKeys, true);
    const a = timeReads(absentKeys, false);
    stretch.presentUs += p.wall;
    stretch.presentCpu += p.cpu;
    stretch.present += presentKeys.length;
    stretch.absentUs += a.wall;
    stretch.absentCpu += a.cpu;
    stretch.absent += absentKeys.length;
    const c0 = cpuMicros();
    const m0 = mainThreadCpuMicros();
    stretch.outsideMain += m0 - outside0;
    const w0 = performance.now();
    await db.batch(ops);
    stretch.writeWall += (performance.now() - w0) * 1000;
    outside0 = mainThreadCpuMicros();
    stretch.writeMain += outside0 - m0;
    stretch.writeCpu += cpuMicros() - c0;
    stretch.rows += ops.length;
    const before = keys;
    keys = liveCount + nextTx + nextNullifier;
    if (Math.floor(keys / EVERY) > Math.floor(before / EVERY) || keys >= TARGET_KEYS) {
      const point: Checkpoint = {
        keys,
        write_cpu_us_per_row: stretch.writeCpu / stretch.rows,
        write_wall_us_per_row: stretch.writeWall / stretch.rows,
        present_read_us: stretch.presentUs / Math.max(1, stretch.present),
        absent_read_us: stretch.absentUs / Math.max(1, stretch.absent),
        present_read_cpu_us: stretch.presentCpu / Math.max(1, stretch.present),
        absent_read_cpu_us: stretch.absentCpu / Math.max(1, stretch.absent),
        store_cpu_us_per_row: (cpuMicros() - stretch.cpu0 - stretch.outsideMain) / stretch.rows,
        batch_main_thread_cpu_us_per_row: stretch.writeMain / stretch.rows,
        disk_mib: diskBytes(dir) / 2 ** 20,
        load: Number(load().slice(5)),
      };
      checkpoints.push(point);
      console.log(
        `${fmt(keys).padStart(11)} keys: write ${point.write_cpu_us_per_row.toFixed(2)} µs CPU / ${point.write_wall_us_per_row.toFixed(2)} µs wall a row, ` +
          `read ${point.present_read_us.toFixed(2)} µs present / ${point.absent_read_us.toFixed(2)} µs absent ` +
          `(CPU ${point.present_read_cpu_us.toFixed(2)} / ${point.absent_read_cpu_us.toFixed(2)} µs), ` +
          `${point.disk_mib.toFixed(0)} MiB on disk (${((performance.now() - t0) / 1000).toFixed(0)} s, ${load()})`,
      );
      stretch = freshStretch();
    }
  }
  void nextCoin;
  const fitFrom = QUICK ? 0 : 1_000_000;
  const fitted = checkpoints.filter((p) => p.keys >= fitFrom);
  const perDecade = {
    write_cpu_us_per_row: slopePerDecade(fitted, (p) => p.write_cpu_us_per_row),
    write_wall_us_per_row: slopePerDecade(fitted, (p) => p.write_wall_us_per_row),
    present_read_us: slopePerDecade(fitted, (p) => p.present_read_us),
    absent_read_us: slopePerDecade(fitted, (p) => p.absent_read_us),
    present_read_cpu_us: slopePerDecade(fitted, (p) => p.present_read_cpu_us),
    absent_read_cpu_us: slopePerDecade(fitted, (p) => p.absent_read_cpu_us),
    store_cpu_us_per_row: slopePerDecade(fitted, (p) => p.store_cpu_us_per_row),
    batch_main_thread_cpu_us_per_row: slopePerDecade(fitted, (p) => p.batch_main_thread_cpu_us_per_row),
  };
  console.log(
    `fit over ${fitted.length} checkpoints from ${fmt(fitFrom)} keys: per tenfold growth a written row costs ${fmtFit(perDecade.write_cpu_us_per_row)} µs CPU ` +
      `(${fmtFit(perDecade.write_wall_us_per_row)} µs wall), a present read ${fmtFit(perDecade.present_read_us)} µs (CPU ${fmtFit(perDecade.present_read_cpu_us)}), an absent read ${fmtFit(perDecade.absent_read_us)} µs (CPU ${fmtFit(perDecade.absent_read_cpu_us)}); ` +
      `counting compaction between batches ${fmtFit(perDecade.store_cpu_us_per_row)} µs CPU a row, the main thread in db.batch ${fmtFit(perDecade.batch_main_thread_cpu_us_per_row)}`,
  );
  if (!QUICK)
    writeFileSync(
      RESULT,
      JSON.stringify(
        {
          generated_at: new Date().toISOString(),
          keys: TARGET_KEYS,
          options: CHAIN_INDEX_LEVEL_OPTIONS,
          steps_per_batch: STEPS_PER_BATCH,
          mix_per_step: { coin_puts: 3, txid_puts: 1, nullifier_puts: 1, coin_deletes: 2, present_reads: 2, absent_reads: 1 },
          fitted_from_keys: fitFrom,
          per_tenfold_growth: perDecade,
          caveat: 'the store stays within the OS page cache; an index larger than RAM adds disk reads this does not hold',
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

function slopePerDecade(points: readonly Checkpoint[], value: (p: Checkpoint) => number): DecadeFit {
  return fitPerDecade(points.map((p) => ({ keys: p.keys, value: value(p) })));
}

function fmtFit(f: DecadeFit): string {
  return `${f.per_decade >= 0 ? '+' : ''}${f.per_decade.toFixed(3)}`;
}
