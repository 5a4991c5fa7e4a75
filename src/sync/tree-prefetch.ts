/**
 * Note-commitment trees stepped ahead on a thread (tree-worker.ts), for the blocks an importer
 * has read but not added yet: appending a block's Sapling and Orchard leaves and computing the
 * new roots (32 Pedersen or Sinsemilla hashes a tree a block) is the largest part of a shielded
 * block's connect, and depends only on the trees after its parent. The importer prefetches each
 * block it reads ahead, as for the Equihash solutions (solution-prefetch.ts), and hands the
 * store the steps when it adds the block (ChainStore.addBlock's `trees`); the state transition
 * adopts a step only where it continues its own trees with the leaves it decoded itself
 * (state/block-trees.ts), so a step can make a block cheaper, never different.
 */
import type { Worker } from 'node:worker_threads';
import { decodeBlockHeader } from '../codec/block.js';
import { sha256d } from '../crypto/hash.js';
import type { PrecomputedTrees } from '../state/block-trees.js';
import type { IncrementalMerkleTree } from '../state/trees/incremental.js';
import type { ChainStore, TreeSteps } from '../store/chain.js';
import { startModuleWorker } from '../workers/module-worker.js';

export type TreeThreadRequest =
  | { type: 'seed'; hash: Uint8Array; frontiers: Partial<Record<string, Uint8Array>> }
  | { type: 'block'; id: number; hash: Uint8Array; bytes: Uint8Array };

export interface TreeThreadReply {
  id: number;
  steps: PrecomputedTrees | null;
  /**
   * The thread has not stepped the block's parent: it keeps the block and answers again if the
   * parent's trees arrive (stepped, or seeded by `seedAfterGap`). Not final.
   */
  unlinked?: true;
}

/** Steps kept for blocks not yet added (an importer reads a few hundred ahead at most). */
const MAX_PREFETCHED = 4096;
/**
 * Most block bytes handed to the thread and not yet answered. The blk importer reads ahead within
 * one 16 MiB window, and the upstream one a window of heights, so this is a ceiling against
 * runaway memory rather than a pace: past it a block's trees are hashed on the main thread.
 */
const MAX_IN_FLIGHT_BYTES = 256 * 1024 * 1024;

interface Pending {
  id: number;
  promise: Promise<PrecomputedTrees | null>;
  resolve: (steps: PrecomputedTrees | null) => void;
  bytes: number;
  /** The thread answered `unlinked`: it has not stepped the block's parent (yet). */
  unlinked: boolean;
  /** The store asked for the step (`take`). */
  taken: boolean;
  /** Resolves at the thread's first answer, final or `unlinked`. */
  answered: Promise<void>;
  answer: () => void;
}

/** Steps the trees of blocks read ahead on a thread, so that connecting a block finds its trees ready. */
export class TreePrefetcher implements TreeSteps {
  private readonly worker: Worker;
  /** Steps of prefetched blocks, by block hash (latin1), oldest first. */
  private readonly prefetched = new Map<string, Pending>();
  /** Requests posted and not finally answered, by id. */
  private readonly posted = new Map<number, Pending>();
  private nextId = 1;
  private inFlightBytes = 0;
  private failed = false;
  /** A block was added without the thread's step, so the thread may lack the trees after it. */
  private gap = false;
  /**
   * Blocks handed to the thread, those it stepped (the rest: a parent it had not stepped, or a
   * block that does not decode), and those left to the main thread because too many bytes were in flight.
   */
  readonly counts = { posted: 0, stepped: 0, skipped: 0 };

  private constructor() {
    this.worker = startModuleWorker(new URL('./tree-worker.js', import.meta.url));
    this.worker.on('message', (r: TreeThreadReply) => {
      const p = this.posted.get(r.id);
      if (!p) return;
      if (!p.unlinked) this.inFlightBytes -= p.bytes;
      p.answer();
      if (r.unlinked && !p.taken) {
        // The store has not asked yet: the parent's trees may still come.
        p.unlinked = true;
        return;
      }
      this.settle(p, r.steps);
    });
    const fail = (): void => {
      this.failed = true;
      this.settleAll();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', fail);
    // An idle thread must not keep the process alive (a posted block refs it until answered).
    this.worker.unref();
  }

  /**
   * A thread whose trees start as the store's tip's; an empty store's are the empty trees before
   * a genesis block (whose parent hash is all zeros).
   */
  static async start(store: Pick<ChainStore, 'chainStateTip'>): Promise<TreePrefetcher> {
    const prefetcher = new TreePrefetcher();
    const tip = await store.chainStateTip();
    prefetcher.seed(tip ? tip.hash : new Uint8Array(32), tip ? tip.trees : {});
    return prefetcher;
  }

  private seed(hash: Uint8Array, trees: Partial<Record<string, IncrementalMerkleTree>>): void {
    const frontiers: Partial<Record<string, Uint8Array>> = {};
    for (const [pool, tree] of Object.entries(trees)) frontiers[pool] = tree!.toTreeStateBytes('padded');
    this.post({ type: 'seed', hash, frontiers });
  }

  /**
   * Starts stepping the trees of a block the caller will add soon, after the blocks prefetched
   * before it. Bytes that are not a block are left to addBlock to refuse.
   */
  prefetch(bytes: Uint8Array): void {
    if (this.failed || this.inFlightBytes + bytes.length > MAX_IN_FLIGHT_BYTES) {
      this.counts.skipped++;
      return;
    }
    let hash: Uint8Array;
    try {
      hash = sha256d(decodeBlockHeader(bytes).bytes);
    } catch {
      return;
    }
    const key = Buffer.from(hash).toString('latin1');
    if (this.prefetched.has(key)) return;
    if (this.prefetched.size >= MAX_PREFETCHED) this.prefetched.delete(this.prefetched.keys().next().value!);
    let resolve!: (steps: PrecomputedTrees | null) => void;
    const promise = new Promise<PrecomputedTrees | null>((r) => (resolve = r));
    const id = this.nextId++;
    let answer!: () => void;
    const answered = new Promise<void>((r) => (answer = r));
    const pending: Pending = { id, promise, resolve, bytes: bytes.length, unlinked: false, taken: false, answered, answer };
    this.prefetched.set(key, pending);
    this.posted.set(id, pending);
    this.inFlightBytes += bytes.length;
    this.counts.posted++;
    // A copy of the block alone (the caller's bytes may be a view into a larger read; a
    // Buffer's slice() would be a view too), moved to the thread rather than copied again.
    const copy = new Uint8Array(bytes);
    this.post({ type: 'block', id, hash, bytes: copy }, [copy.buffer]);
  }

  take(hash: Uint8Array): Promise<PrecomputedTrees | null> | null {
    const key = Buffer.from(hash).toString('latin1');
    const pending = this.prefetched.get(key);
    if (!pending) {
      this.gap = !this.failed;
      return null;
    }
    this.prefetched.delete(key);
    pending.taken = true;
    // A block waiting for its parent's trees is not waited for: its own are hashed now.
    if (pending.unlinked) this.settle(pending, null);
    return pending.promise.then((steps) => {
      // Hashed on the main thread: the thread may not have the trees after this block.
      if (!steps) this.gap = !this.failed;
      return steps;
    });
  }

  /**
   * After the store added a block: when it was added without a step, hands the thread the trees
   * after the store's tip, so that the blocks read after it (kept by the thread, waiting for
   * their parent) are stepped again. Call it after every addBlock.
   */
  async seedAfterGap(store: Pick<ChainStore, 'chainStateTip'>): Promise<void> {
    if (!this.gap || this.failed) return;
    this.gap = false;
    const tip = await store.chainStateTip();
    if (tip) this.seed(tip.hash, tip.trees);
  }

  /** Resolves once the thread has answered every block prefetched so far, if only `unlinked` (for measurements and tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.posted.values()].map((p) => p.answered));
  }

  async close(): Promise<void> {
    this.failed = true;
    this.settleAll();
    this.prefetched.clear();
    await this.worker.terminate();
  }

  private post(message: TreeThreadRequest, transfer: ArrayBuffer[] = []): void {
    if (this.posted.size > 0) this.worker.ref();
    this.worker.postMessage(message, transfer);
  }

  private settle(p: Pending, steps: PrecomputedTrees | null): void {
    this.posted.delete(p.id);
    if (this.posted.size === 0) this.worker.unref();
    if (steps) this.counts.stepped++;
    p.resolve(steps);
  }

  /** Every unanswered block gets no step: its trees are hashed on the main thread. */
  private settleAll(): void {
    for (const p of this.posted.values()) {
      p.answer();
      p.resolve(null);
    }
    this.posted.clear();
    this.inFlightBytes = 0;
  }
}
