/**
 * What the address index's append-only rows would cost LevelDB written in key order: the design
 * bench/results/import-floors.md leaves unmeasured, where an import keeps each group's `d` rows
 * (src/store/layout.ts: `d` ‖ type ‖ hash160 ‖ height(BE) ‖ tx index ‖ txid ‖ n ‖ spending) in
 * sorted runs on disk and merges them into LevelDB at the end, against the import's way, each
 * group's rows in one batch in the order blocks make them (addresses all over the key space).
 *
 *   npx tsx bench/leveldb-key-order.ts [--rows=8000000] [--rounds=2] [--quick]
 *
 * Rows are made as bench/leveldb-growth-mix.ts makes them for the contiguous chain: a group of 512
 * blocks of 110.1 receiving rows (each to an address of its own, a counter little-endian in the
 * hash's first four bytes, as EraChainBuilder's p2pkh) and 71.5 spending rows (to the address of
 * an earlier output), random txids, 12-byte values. Both ways make the same rows.
 * - `import`: each group's rows in one `db.batch`, in the order made.
 * - `sorted-runs`: each group's rows sorted, appended to a spill file as one run and fsynced (a
 *   crash leaves whole runs), then, after the last group, the runs merged (a binary heap over the
 *   runs' next keys) into `db.batch`es of 50,000 rows in key order.
 * Per way, the process's CPU (LevelDB's threads included) from the first row made to the store
 * closed, less the main thread's CPU spent making rows, per row, and for sorted runs its two
 * parts: sorting and spilling (main thread), merging and storing (process); the rounds alternate
 * the ways (A B B A …). Writes bench/results/leveldb-key-order.json.
 */
import { closeSync, fsyncSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { CHAIN_INDEX_LEVEL_OPTIONS } from '../src/store/chain-db.js';
import { diskBytes } from './lib/era-import.js';
import { cpuMicros, fmt, load, median, numberFlag, QUICK } from './lib/measure.js';
import { mainThreadCpuMicros } from './lib/process-cpu.js';
import { uniformStream } from './lib/byte-stream.js';
import { fmix32 } from './lib/fmix32.js';

const ROWS = numberFlag('rows', QUICK ? 300_000 : 8_000_000);
const ROUNDS = numberFlag('rounds', QUICK ? 1 : 2);
const BLOCKS_PER_GROUP = 512;
const RECEIVING_PER_BLOCK = 110.1;
const SPENDING_PER_BLOCK = 71.5;
const ROWS_PER_GROUP = Math.round(BLOCKS_PER_GROUP * (RECEIVING_PER_BLOCK + SPENDING_PER_BLOCK));
const KEY_BYTES = 67;
const VALUE = Buffer.alloc(12, 7);
const RECORD_BYTES = KEY_BYTES + VALUE.length;
const MERGE_BATCH_ROWS = 50_000;
const RESULT = join(import.meta.dirname, 'results', 'leveldb-key-order.json');

type Way = 'import' | 'sorted-runs';

/** Makes the rows group by group, the same for both ways (a fixed seed). */
class RowMaker {
  private addresses = 0;
  private row = 0;
  private readonly uniform = uniformStream();
  makingMicros = 0;

  /** The next group's keys, `count` of them, at `height`. */
  group(count: number, height: number): Buffer[] {
    const m0 = mainThreadCpuMicros();
    const keys: Buffer[] = [];
    const receiving = RECEIVING_PER_BLOCK / (RECEIVING_PER_BLOCK + SPENDING_PER_BLOCK);
    for (let i = 0; i < count; i++) {
      const spending = this.addresses > 0 && this.uniform() >= receiving;
      const address = spending ? Math.floor(this.uniform() * this.addresses) : this.addresses++;
      const k = Buffer.alloc(KEY_BYTES);
      k[0] = 0x64;
      k[1] = 1;
      k.writeUInt32LE(address, 2);
      k.writeUInt32BE(height + Math.floor((i * BLOCKS_PER_GROUP) / count), 22);
      k.writeUInt32BE(i % 16, 26);
      for (let w = 0; w < 8; w++) k.writeUInt32LE(fmix32(this.row * 8 + w), 30 + 4 * w);
      k.writeUInt32LE(i % 3, 62);
      k[66] = spending ? 1 : 0;
      keys.push(k);
      this.row++;
    }
    this.makingMicros += mainThreadCpuMicros() - m0;
    return keys;
  }
}

/** One sorted run in a spill file, read back a chunk at a time. */
class RunReader {
  private chunk = Buffer.alloc(0);
  private at = 0;
  private left: number;
  constructor(
    private readonly fd: number,
    private position: number,
    records: number,
  ) {
    this.left = records;
  }
  /** The next record (key ‖ value), or null when the run is done. */
  next(): Buffer | null {
    if (this.at >= this.chunk.length) {
      if (this.left === 0) return null;
      const records = Math.min(this.left, Math.floor((1 << 20) / RECORD_BYTES));
      this.chunk = Buffer.allocUnsafe(records * RECORD_BYTES);
      readSync(this.fd, this.chunk, 0, this.chunk.length, this.position);
      this.position += this.chunk.length;
      this.left -= records;
      this.at = 0;
    }
    const record = this.chunk.subarray(this.at, this.at + RECORD_BYTES);
    this.at += RECORD_BYTES;
    return record;
  }
}

/** Merges the runs in key order into `db`, MERGE_BATCH_ROWS rows a batch; returns the rows merged. */
async function mergeRuns(db: ClassicLevel<Buffer, Buffer>, fd: number, runs: { position: number; records: number }[]): Promise<number> {
  let merged = 0;
  const readers = runs.map((r) => new RunReader(fd, r.position, r.records));
  const heap: { record: Buffer; reader: RunReader }[] = [];
  const less = (a: number, b: number): boolean => heap[a]!.record.compare(heap[b]!.record, 0, KEY_BYTES, 0, KEY_BYTES) < 0;
  const swap = (a: number, b: number): void => {
    [heap[a], heap[b]] = [heap[b]!, heap[a]!];
  };
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(l, m)) m = l;
      if (r < heap.length && less(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (const reader of readers) {
    const record = reader.next();
    if (record) heap.push({ record, reader });
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  let ops: { type: 'put'; key: Buffer; value: Buffer }[] = [];
  while (heap.length > 0) {
    const top = heap[0]!;
    ops.push({ type: 'put', key: top.record.subarray(0, KEY_BYTES), value: top.record.subarray(KEY_BYTES) });
    merged++;
    const next = top.reader.next();
    if (next) top.record = next;
    else {
      const last = heap.pop()!;
      if (heap.length > 0) heap[0] = last;
    }
    if (heap.length > 0) down(0);
    if (ops.length === MERGE_BATCH_ROWS) {
      await db.batch(ops);
      ops = [];
    }
  }
  if (ops.length > 0) await db.batch(ops);
  return merged;
}

interface WayRun {
  way: Way;
  cpu_us_per_row: number;
  /** Sorted runs only: the main thread's CPU sorting a group's rows and spilling them, a row. */
  sort_and_spill_us_per_row: number;
  /** Sorted runs only: the process's CPU from the first run merged to the store closed, a row. */
  merge_and_store_us_per_row: number;
  wall_us_per_row: number;
  store_mib: number;
  spill_mib: number;
  load: string;
}

async function run(way: Way): Promise<WayRun> {
  const dir = mkdtempSync(join(tmpdir(), `zecrpc-key-order-${way}-`));
  const db = new ClassicLevel<Buffer, Buffer>(join(dir, 'db'), {
    keyEncoding: 'buffer',
    valueEncoding: 'buffer',
    ...CHAIN_INDEX_LEVEL_OPTIONS,
  });
  await db.open();
  const maker = new RowMaker();
  const spill = way === 'sorted-runs' ? openSync(join(dir, 'runs'), 'w+') : -1;
  const runs: { position: number; records: number }[] = [];
  let spillBytes = 0;
  let sortAndSpill = 0;
  const c0 = cpuMicros();
  const t0 = performance.now();
  try {
    for (let made = 0, height = 0; made < ROWS; made += ROWS_PER_GROUP, height += BLOCKS_PER_GROUP) {
      const keys = maker.group(Math.min(ROWS_PER_GROUP, ROWS - made), height);
      if (way === 'import') {
        await db.batch(keys.map((key) => ({ type: 'put' as const, key, value: VALUE })));
        continue;
      }
      const s0 = mainThreadCpuMicros();
      keys.sort(Buffer.compare);
      const out = Buffer.allocUnsafe(keys.length * RECORD_BYTES);
      keys.forEach((k, i) => {
        k.copy(out, i * RECORD_BYTES);
        VALUE.copy(out, i * RECORD_BYTES + KEY_BYTES);
      });
      writeSync(spill, out, 0, out.length, spillBytes);
      fsyncSync(spill);
      runs.push({ position: spillBytes, records: keys.length });
      spillBytes += out.length;
      sortAndSpill += mainThreadCpuMicros() - s0;
    }
    const m0 = cpuMicros();
    // Every row made reaches the store, or the comparison would flatter the sorted way.
    if (way === 'sorted-runs' && (await mergeRuns(db, spill, runs)) !== ROWS) throw new Error('the merge lost rows');
    await db.close();
    const mergeAndStore = cpuMicros() - m0;
    const cpu = cpuMicros() - c0 - maker.makingMicros;
    const wall = (performance.now() - t0) * 1000;
    return {
      way,
      cpu_us_per_row: cpu / ROWS,
      sort_and_spill_us_per_row: sortAndSpill / ROWS,
      merge_and_store_us_per_row: way === 'sorted-runs' ? mergeAndStore / ROWS : 0,
      wall_us_per_row: wall / ROWS,
      store_mib: diskBytes(join(dir, 'db')) / 2 ** 20,
      spill_mib: spillBytes / 2 ** 20,
      load: load(),
    };
  } finally {
    if (spill >= 0) closeSync(spill);
    rmSync(dir, { recursive: true, force: true });
  }
}

const order: Way[] = [];
for (let r = 0; r < ROUNDS; r++) order.push(...((r % 2 === 0 ? ['import', 'sorted-runs'] : ['sorted-runs', 'import']) as Way[]));
const runs: WayRun[] = [];
for (const way of order) {
  const r = await run(way);
  runs.push(r);
  console.log(
    `${way}: ${r.cpu_us_per_row.toFixed(2)} µs CPU a row (${r.wall_us_per_row.toFixed(2)} wall${
      way === 'sorted-runs'
        ? `; sorting and spilling ${r.sort_and_spill_us_per_row.toFixed(2)}, merging and storing ${r.merge_and_store_us_per_row.toFixed(2)}`
        : ''
    }), store ${fmt(r.store_mib)} MiB, spill ${fmt(r.spill_mib)} MiB (${r.load})`,
  );
}
const cpuOf = (way: Way): number => median(runs.filter((r) => r.way === way).map((r) => r.cpu_us_per_row));
const ratio = cpuOf('sorted-runs') / cpuOf('import');
console.log(`${fmt(ROWS)} rows: sorted runs merged at the end take ${ratio.toFixed(2)}× the CPU a row of the import's batches (medians)`);
if (!QUICK) {
  writeFileSync(
    RESULT,
    JSON.stringify(
      {
        generated_at: new Date().toISOString(),
        rows: ROWS,
        rows_per_group: ROWS_PER_GROUP,
        runs,
        median_cpu_us_per_row: { import: cpuOf('import'), 'sorted-runs': cpuOf('sorted-runs') },
        sorted_runs_over_import: ratio,
      },
      null,
      1,
    ) + '\n',
  );
}
