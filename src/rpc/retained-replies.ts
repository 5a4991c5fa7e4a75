/**
 * Reply bytes that outlive the request sending them: a reply cache's entries, sent again and
 * again, and replies written into memory lent to them (methods/reply-memory.ts), which goes back
 * to be lent again. The memory release (http/memory-release.ts) asks V8 for a full collection once enough
 * reply bytes have been given back, to free them; a cached reply given back frees nothing, and
 * counted as garbage it made a server answering from its cache collect every few seconds, each
 * forced collection costing the requests after it far more CPU than its own pause
 * (bench/results/large-replies.md, round 9).
 */
const retained = new WeakSet<Uint8Array>();

/** Marks `bytes` as kept past the replies that send them (a cache's entry). */
export function markRetained(bytes: Uint8Array): void {
  retained.add(bytes);
}

/** Whether `bytes` are kept past the reply sending them, so that giving the reply back frees none of them. */
export function isRetained(bytes: Uint8Array): boolean {
  return retained.has(bytes);
}
