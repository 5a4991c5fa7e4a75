/**
 * Keeps glibc's allocator from handing the heap's top back to the kernel after every collection
 * while large request bodies arrive.
 *
 * Node's HTTP parser copies each chunk of a request body (up to 64 kB, one socket read) into a
 * buffer of its own, allocated with malloc and freed only when V8 collects it. A server receiving
 * 100–200 kB bodies back to back thus frees megabytes of such chunks at each collection, together,
 * at the top of the heap. With glibc's initial thresholds (a block of 128 kB or more is mmapped;
 * 128 kB or more free at the heap's top is trimmed) that freed top goes back to the kernel every
 * time, and the next chunks fault every page in again, each fault paid in the kernel: for a
 * cached reply to a large body, more CPU than the rest of its request (bench/results/
 * large-replies.md, round 10).
 *
 * glibc raises both thresholds on its own once a large mmapped block is freed (mallopt(3):
 * the mmap threshold becomes that block's size, up to 32 MiB, and the trim threshold twice that),
 * so a server that has built and dropped replies of tens of megabytes trims far less; one that
 * has not may stay in the faulting state for as long as it runs. At start-up the server frees
 * one such block itself, reaching at once the state glibc reaches after its largest replies. The
 * block is never written, so it costs no resident memory; other allocators only see an unused
 * block come and go. The trade: up to twice the block's size of freed memory at the heap's top
 * stays with the process, so after a burst of large request bodies the idle trim gives back
 * less of it than with the initial thresholds.
 */

/**
 * Just under glibc's largest dynamic mmap threshold (32 MiB on 64-bit systems): a freed mmapped
 * block moves the thresholds only if its whole size, header and page rounding included, is at
 * most that.
 */
export const THRESHOLD_BLOCK_BYTES = 32 * 1024 * 1024 - 64 * 1024;

/**
 * Allocates and drops a THRESHOLD_BLOCK_BYTES block outside V8's heap, then runs `collect` (a
 * full collection) twice: the first finds the block dead, and V8 frees dead buffers' memory
 * beside the main thread; the second waits for most of that, so the block is usually freed, and
 * the thresholds raised, when this returns (on a loaded machine the free may land a moment
 * later, before any request could be served). Returns whether it ran: on Linux, where glibc is
 * the usual allocator, and with a collection to free the block at once.
 */
export function raiseAllocatorThresholds(collect: (() => void) | null, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux' || collect === null) return false;
  dropBlock();
  collect();
  collect();
  return true;
}

/** A separate frame, so that nothing in the caller's keeps the block alive through the collection. */
function dropBlock(): void {
  Buffer.allocUnsafeSlow(THRESHOLD_BLOCK_BYTES);
}
