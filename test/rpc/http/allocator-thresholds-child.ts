/**
 * Run by allocator-thresholds.test.ts in a process of its own (glibc's thresholds are the
 * process's, and a test process has moved them already): with the argument `raise`, raises
 * them first. Then allocates a 16 MiB buffer, never written, and prints as JSON how much the
 * heap's brk region and the anonymous mappings grew meanwhile: malloc gives a block above its
 * mmap threshold a mapping of its own, and takes a smaller one from the heap (whose top may
 * already hold it free, so the heap need not grow).
 */
import { readFileSync } from 'node:fs';
import { raiseAllocatorThresholds } from '../../../src/rpc/http/allocator-thresholds.js';
import { exposeGc } from '../../../src/rpc/http/memory-release.js';

const PROBE_BYTES = 16 * 1024 * 1024;

/**
 * The process's mapped bytes: the brk heap's (`[heap]`; null before it exists) and those of
 * anonymous mappings, where malloc puts a block it maps apart.
 */
function mappedBytes(): { heap: number | null; anonymous: number } {
  let heap: number | null = null;
  let anonymous = 0;
  for (const line of readFileSync('/proc/self/maps', 'utf8').split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 5) continue;
    const [start, end] = fields[0]!.split('-');
    const bytes = parseInt(end!, 16) - parseInt(start!, 16);
    if (fields[5] === '[heap]') heap = bytes;
    else if (fields.length === 5) anonymous += bytes;
  }
  return { heap, anonymous };
}

const raised = process.argv[2] === 'raise' ? raiseAllocatorThresholds(exposeGc()) : false;
// V8 frees a dead buffer's memory beside the main thread; on a loaded machine that free (and so
// the raise) may land well after raiseAllocatorThresholds returns. A probe mapped apart is kept,
// never freed (freeing it would raise the thresholds by itself), and another taken after a
// pause twice as long as the last, up to 2 s: about 50 s in all before the child gives up, with
// at most 30 probes kept (address space only: they are never written).
const kept: Buffer[] = [];
let report: { heapGrowth: number | null; mappedApart: number } = { heapGrowth: null, mappedApart: 0 };
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
  };
  if (report.mappedApart < PROBE_BYTES) break;
}
process.stdout.write(JSON.stringify({ raised, probeBytes: kept.at(-1)!.length, ...report }) + '\n');
