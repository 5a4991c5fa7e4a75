/**
 * The tree thread (tree-prefetch.ts): keeps its own note-commitment trees, starting from the
 * store's tip, and for each block the importer reads ahead appends the block's leaves to the
 * trees after its parent and posts the step back.
 *
 * A block whose parent it has not stepped (blocks read out of order, a block the importer never
 * handed it, a fork from before the tip) is answered `unlinked` at once, so that the main thread
 * never waits for it, and kept: when its parent is stepped, or the main thread seeds the trees
 * after it, the block and its kept descendants are stepped and answered again.
 */
import { parentPort } from 'node:worker_threads';
import { decodeBlock, decodeBlockHeader } from '../codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../codec/tx/acceptance.js';
import { precomputeBlockTrees } from '../state/block-trees.js';
import { treeOptions, type ShieldedPool } from '../state/chain-state.js';
import { defaultPoolHashers } from '../state/hashers.js';
import { treePools } from '../state/pools.js';
import { IncrementalMerkleTree } from '../state/trees/incremental.js';
import type { TreeThreadReply, TreeThreadRequest } from './tree-prefetch.js';

const port = parentPort;
if (!port) throw new Error('tree-worker.ts must run as a worker thread');

type Trees = Record<ShieldedPool, IncrementalMerkleTree>;
interface Kept {
  id: number;
  hash: Uint8Array;
  bytes: Uint8Array;
  /** Its parent's hash (latin1). */
  parent: string;
}

/** Trees after each block stepped (and each seed), by block hash (latin1), oldest first. */
const known = new Map<string, Trees>();
/** The importer reads a few hundred blocks ahead: a block's parent was stepped just before it. */
const MAX_KNOWN = 1024;
/** Blocks waiting for their parent's trees, by parent hash (latin1); and by request, oldest first. */
const waiting = new Map<string, Kept[]>();
const waitingInOrder = new Map<number, Kept>();
let waitingBytes = 0;
/** Blocks kept for a parent: more would be memory spent on blocks that mostly never link. */
const MAX_WAITING_BLOCKS = 512;
const MAX_WAITING_BYTES = 64 * 1024 * 1024;

const keyOf = (hash: Uint8Array): string => Buffer.from(hash.buffer, hash.byteOffset, hash.length).toString('latin1');
const reply = (r: TreeThreadReply): void => port.postMessage(r);

function remember(hash: Uint8Array, trees: Trees): void {
  const key = keyOf(hash);
  known.delete(key);
  if (known.size >= MAX_KNOWN) known.delete(known.keys().next().value!);
  known.set(key, trees);
}

/** Steps one block on its parent's trees and answers it; false when it cannot be stepped. */
function step(kept: Kept, parent: Trees): boolean {
  try {
    // The widest set of formats: the main thread decodes under its network's own, and adopts
    // a step only for exactly the leaves it decoded.
    const { trees, steps } = precomputeBlockTrees(parent, defaultPoolHashers(), decodeBlock(kept.bytes, CURRENT_CHAIN_ACCEPTANCE));
    remember(kept.hash, trees);
    reply({ id: kept.id, hash: kept.hash, steps });
    return true;
  } catch {
    // A block that does not decode, or fills a tree: the main thread finds out on its own.
    reply({ id: kept.id, hash: kept.hash, steps: null });
    return false;
  }
}

/** Steps the kept blocks that descend from `hash`, whose trees are now known. */
function release(hash: Uint8Array): void {
  const ready = [keyOf(hash)];
  while (ready.length > 0) {
    const parentKey = ready.pop()!;
    const children = waiting.get(parentKey);
    if (!children) continue;
    waiting.delete(parentKey);
    for (const kept of children) {
      waitingInOrder.delete(kept.id);
      waitingBytes -= kept.bytes.length;
      const parent = known.get(parentKey);
      if (parent && step(kept, parent)) ready.push(keyOf(kept.hash));
      else if (!parent) reply({ id: kept.id, hash: kept.hash, steps: null });
    }
  }
}

function keep(kept: Kept): void {
  const list = waiting.get(kept.parent) ?? [];
  list.push(kept);
  waiting.set(kept.parent, list);
  waitingInOrder.set(kept.id, kept);
  waitingBytes += kept.bytes.length;
  while (waitingInOrder.size > MAX_WAITING_BLOCKS || waitingBytes > MAX_WAITING_BYTES) {
    const oldest = waitingInOrder.values().next().value!;
    waitingInOrder.delete(oldest.id);
    const siblings = waiting.get(oldest.parent)!;
    siblings.splice(siblings.indexOf(oldest), 1);
    if (siblings.length === 0) waiting.delete(oldest.parent);
    waitingBytes -= oldest.bytes.length;
    reply({ id: oldest.id, hash: oldest.hash, steps: null });
  }
}

port.on('message', (m: TreeThreadRequest) => {
  if (m.type === 'seed') {
    const hashers = defaultPoolHashers();
    const trees = {} as Trees;
    for (const pool of treePools()) {
      const frontier = m.frontiers[pool];
      trees[pool] = frontier
        ? IncrementalMerkleTree.fromTreeState(hashers[pool], frontier, treeOptions(pool))
        : new IncrementalMerkleTree(hashers[pool], treeOptions(pool));
    }
    // Reading an empty root builds a lazy hasher (state/trees/lazy-hasher.ts).
    if (m.warm) for (const pool of treePools()) void hashers[pool].emptyRoots[0];
    remember(m.hash, trees);
    reply({ id: 0, hash: m.hash, steps: null, seeded: true });
    release(m.hash);
    return;
  }
  let kept: Kept;
  try {
    kept = { id: m.id, hash: m.hash, bytes: m.bytes, parent: keyOf(decodeBlockHeader(m.bytes).prevHash) };
  } catch {
    reply({ id: m.id, hash: m.hash, steps: null });
    return;
  }
  const parent = known.get(kept.parent);
  if (!parent) {
    reply({ id: m.id, hash: m.hash, steps: null, unlinked: true });
    keep(kept);
    return;
  }
  if (step(kept, parent)) release(m.hash);
});
