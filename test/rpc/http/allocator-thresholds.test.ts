import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { raiseAllocatorThresholds, THRESHOLD_BLOCK_BYTES } from '../../../src/rpc/http/allocator-thresholds.js';

const CHILD = fileURLToPath(new URL('./allocator-thresholds-child.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime;

/**
 * The child's report: whether it raised the thresholds, and how much the brk heap (null when the
 * process has none) and the anonymous mappings grew for a 16 MiB buffer.
 */
interface Probe {
  raised: boolean;
  probeBytes: number;
  heapGrowth: number | null;
  mappedApart: number;
  /** The most one anonymous mapping grew by. */
  largestGrowth: number;
  /** Whether the mapping was heap malloc mapped elsewhere, the brk heap having no room for it. */
  heapMappedElsewhere: boolean;
}

/**
 * The child runs V8's collector on its main thread alone (--single-threaded-gc): the dead block's
 * memory is then freed inside the collections raiseAllocatorThresholds runs, not by a
 * background task that a loaded machine may leave waiting longer than the child's pauses.
 */
function probe(mode: 'raise' | 'plain'): Probe {
  const run = spawnSync(process.execPath, ['--single-threaded-gc', '--import', 'tsx', CHILD, mode], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`the child failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Probe;
}

describe('raiseAllocatorThresholds', () => {
  it('frees a block just under glibc’s 32 MiB cap on the dynamic threshold', () => {
    expect(THRESHOLD_BLOCK_BYTES).toBe(33_488_896);
    expect(THRESHOLD_BLOCK_BYTES + 4096).toBeLessThanOrEqual(32 * 1024 * 1024);
  });

  it('does nothing off Linux or without a collection to free the block', () => {
    let collections = 0;
    expect(raiseAllocatorThresholds(() => collections++, 'darwin')).toBe(false);
    expect(raiseAllocatorThresholds(null, 'linux')).toBe(false);
    expect(collections).toBe(0);
  });

  it('collects twice: once to find the block dead, once to wait until its memory is freed', () => {
    let collections = 0;
    expect(raiseAllocatorThresholds(() => collections++, 'linux')).toBe(true);
    expect(collections).toBe(2);
  });

  // Where malloc puts a 16 MiB block shows the threshold: in a fresh process glibc maps it
  // apart; once raised, it comes from the heap, as large request bodies' chunks then do (the brk
  // heap grows by it, or by nothing when its top already held that much free; or, when the
  // address space above the brk heap is taken, glibc maps the heap's next part elsewhere).
  it.runIf(process.platform === 'linux' && glibc !== undefined)(
    'makes glibc take a 16 MiB block from the heap rather than map it',
    () => {
      const plain = probe('plain');
      expect(plain).toMatchObject({ raised: false, probeBytes: 16 * 1024 * 1024 });
      expect(plain.mappedApart).toBeGreaterThanOrEqual(16 * 1024 * 1024);
      const raised = probe('raise');
      expect(raised).toMatchObject({ raised: true, probeBytes: 16 * 1024 * 1024 });
      expect(raised.heapGrowth).not.toBeNull();
      // Not the block's own mapping: the brk heap took it (V8 may map a little of its own
      // meanwhile), or, when a mapping sat just above the brk heap, heap malloc mapped elsewhere.
      if (raised.heapMappedElsewhere) {
        // The heap's next part, with malloc's 128 KiB top pad: more than the probe's own mapping.
        expect(raised.heapGrowth).toBe(0);
        expect(raised.largestGrowth).toBeGreaterThanOrEqual(16 * 1024 * 1024 + 128 * 1024);
      } else expect(raised.mappedApart).toBeLessThan(16 * 1024 * 1024);
    },
    300_000,
  );
});
