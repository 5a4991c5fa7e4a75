/**
 * Run by allocator-thresholds.test.ts in a process of its own (glibc's thresholds are the
 * process's, and a test process has moved them already): with the argument `raise`, raises
 * them first. Then allocates a 16 MiB buffer, never written, and prints as JSON how much the
 * heap's brk region grew meanwhile: by the whole block when malloc took it from the heap, by
 * nothing like it when malloc gave it a mapping of its own.
 */
import { readFileSync } from 'node:fs';
import { raiseAllocatorThresholds } from '../../../src/rpc/http/allocator-thresholds.js';
import { exposeGc } from '../../../src/rpc/http/memory-release.js';

const PROBE_BYTES = 16 * 1024 * 1024;

/** The size of the process's `[heap]` mapping (the brk heap), 0 before it exists. */
function brkHeapBytes(): number {
  for (const line of readFileSync('/proc/self/maps', 'utf8').split('\n')) {
    if (!line.endsWith('[heap]')) continue;
    const [start, end] = line.split(' ', 1)[0]!.split('-');
    return parseInt(end!, 16) - parseInt(start!, 16);
  }
  return 0;
}

const raised = process.argv[2] === 'raise' ? raiseAllocatorThresholds(exposeGc()) : false;
const before = brkHeapBytes();
const probe = Buffer.allocUnsafeSlow(PROBE_BYTES);
const grown = brkHeapBytes() - before;
process.stdout.write(JSON.stringify({ raised, probeBytes: probe.length, heapGrowth: grown }) + '\n');
