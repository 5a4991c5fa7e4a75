/**
 * Run by allocator-thresholds.test.ts in a process of its own (glibc's thresholds are the
 * process's, and a test process has moved them already): with the argument `raise`, raises
 * them first. Then allocates a 16 MiB buffer, never written, and prints as JSON how much the
 * heap's brk region and the anonymous mappings grew meanwhile, and how far the brk heap could
 * still grow: malloc gives a block above its mmap threshold a mapping of its own, and takes a
 * smaller one from the heap (whose top may already hold it free, so the heap need not grow).
 * When a mapping sits just above the brk heap, so that it cannot grow by the block, malloc
 * maps its heap's next part elsewhere instead, with its top pad (128 KiB) besides: a mapping
 * that is heap, not the block's own.
 */
import { readFileSync } from 'node:fs';
import { raiseAllocatorThresholds } from '../../../src/rpc/http/allocator-thresholds.js';
import { exposeGc } from '../../../src/rpc/http/memory-release.js';

const PROBE_BYTES = 16 * 1024 * 1024;
/** glibc's default M_TOP_PAD: what malloc asks of the system beyond a block its heap lacks room for. */
const TOP_PAD_BYTES = 128 * 1024;

type Range = [start: bigint, end: bigint];

/**
 * The process's mapped bytes: the brk heap's (`[heap]`; null before it exists) and those of
 * anonymous mappings (their ranges too), where malloc puts a block it maps apart; and the room
 * between the brk heap's end and the next mapping (null without a heap), which is as far as the
 * heap can grow.
 */
function mappedBytes(): { heap: number | null; anonymous: number; ranges: Range[]; brkRoom: number | null } {
  let heap: number | null = null;
  let heapEnd: bigint | null = null;
  let brkRoom: number | null = null;
  let anonymous = 0;
  const ranges: Range[] = [];
  // /proc/self/maps lists mappings by address, so the first after the heap is its neighbour.
  for (const line of readFileSync('/proc/self/maps', 'utf8').split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 5) continue;
    const [start, end] = fields[0]!.split('-').map((hex) => BigInt(`0x${hex}`)) as Range;
    if (heapEnd !== null && brkRoom === null) brkRoom = Number(start - heapEnd);
    const bytes = Number(end - start);
    if (fields[5] === '[heap]') {
      heap = bytes;
      heapEnd = end;
    } else if (fields.length === 5) {
      anonymous += bytes;
      ranges.push([start, end]);
    }
  }
  return { heap, anonymous, ranges, brkRoom };
}

/**
 * The most one anonymous mapping grew by between two readings: its bytes less those of the
 * earlier mappings it covers (the kernel merges a new mapping with a neighbour of the same kind).
 * One mapping, not the sum of all, so that what V8 maps elsewhere meanwhile is not added to it.
 */
function largestGrowth(before: Range[], after: Range[]): number {
  let largest = 0;
  for (const [start, end] of after) {
    let covered = 0n;
    for (const [s, e] of before) if (s >= start && e <= end) covered += e - s;
    largest = Math.max(largest, Number(end - start - covered));
  }
  return largest;
}

/** The kernel keeps a guard page above the brk heap, and malloc asks for a little beyond the pad. */
const BRK_SLACK_BYTES = 2 * 4096;

/**
 * The probe's mapping was heap: the brk heap did not grow and had no room for the probe and
 * the top pad, and one mapping grew by at least that much.
 */
function heapMappedElsewhere(probe: { heapGrowth: number | null; largestGrowth: number; brkRoom: number | null }): boolean {
  return (
    probe.heapGrowth === 0 &&
    probe.brkRoom !== null &&
    probe.brkRoom < PROBE_BYTES + TOP_PAD_BYTES + BRK_SLACK_BYTES &&
    probe.largestGrowth >= PROBE_BYTES + TOP_PAD_BYTES
  );
}

const raised = process.argv[2] === 'raise' ? raiseAllocatorThresholds(exposeGc()) : false;
// V8 frees a dead buffer's memory beside the main thread; on a loaded machine that free (and so
// the raise) may land well after raiseAllocatorThresholds returns. A probe mapped apart (its own
// mapping, not heap mapped elsewhere) is kept, never freed (freeing it would raise the
// thresholds by itself), and another taken after a pause twice as long as the last, up to 2 s:
// about 50 s in all before the child gives up, with at most 30 probes kept (address space only:
// they are never written).
const kept: Buffer[] = [];
let report: { heapGrowth: number | null; mappedApart: number; largestGrowth: number; brkRoom: number | null } = {
  heapGrowth: null,
  mappedApart: 0,
  largestGrowth: 0,
  brkRoom: null,
};
let pauseMs = 50;
for (let attempt = 0; attempt < (raised ? 30 : 1); attempt++) {
  if (attempt > 0) {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    pauseMs = Math.min(2 * pauseMs, 2000);
  }
  const before = mappedBytes();
  kept.push(Buffer.allocUnsafeSlow(PROBE_BYTES));
  const after = mappedBytes();
  report = {
    heapGrowth: before.heap === null || after.heap === null ? null : after.heap - before.heap,
    mappedApart: after.anonymous - before.anonymous,
    largestGrowth: largestGrowth(before.ranges, after.ranges),
    brkRoom: before.brkRoom,
  };
  if (report.mappedApart < PROBE_BYTES || heapMappedElsewhere(report)) break;
}
process.stdout.write(
  JSON.stringify({ raised, probeBytes: kept.at(-1)!.length, ...report, heapMappedElsewhere: heapMappedElsewhere(report) }) + '\n',
);
