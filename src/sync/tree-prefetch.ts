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
  | {
      type: 'seed';
      hash: Uint8Array;
      frontiers: Partial<Record<string, Uint8Array>>;
      /** Build every pool's hasher before acknowledging (their tables are otherwise built on first use). */
      warm?: true;
    }
  | { type: 'block'; id: number; hash: Uint8Array; bytes: Uint8Array };

export interface TreeThreadReply {
  /** The block's request (0 for a seed's acknowledgement). */
  id: number;
  /** The block's hash, or the seeded one. */
  hash: Uint8Array;
  steps: PrecomputedTrees | null;
  /** The thread now holds the trees after `hash`, as seeded (before it answers the blocks kept for it). */
  seeded?: true;
  /**
   * The thread has not stepped the block's parent: it keeps the block and answers again if the
   * parent's trees arrive (stepped, or seeded by `seedAfterGap`). Not final.
   */
  unlinked?: true;
}

export interface TreePrefetcherOptions {
  /**
   * Resolve `start` only once the thread is ready and has built every pool's hasher (Orchard's
   * table is ≈ 1 s of CPU): a measurement can then time the thread's start apart from the blocks,
   * which would otherwise charge it to the first shielded ones. An import leaves it off, so that
   * a chain that never reaches a pool never builds its table.
   */
  warm?: boolean;
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
  /** The block's hash and its parent's (latin1). */
  key: string;
  parentKey: string;
  promise: Promise<PrecomputedTrees | null>;
  resolve: (steps: PrecomputedTrees | null) => void;
  bytes: number;
  /** The thread answered `unlinked` and nothing says its parent's trees will come: not waited for. */
  unlinked: boolean;
  /** The thread has answered at least once (final or `unlinked`). */
  answeredOnce: boolean;
  /** Resolves at the thread's first answer. */
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
  /** Pending blocks answered `unlinked`, by parent hash: released when the parent's trees are known to come. */
  private readonly unlinkedByParent = new Map<string, Set<Pending>>();
  /**
   * Seeds posted and not acknowledged, oldest first (the thread acknowledges them in order): the
   * blocks it kept for them will be answered again, and each resolves its promise when acknowledged.
   */
  private readonly seedsInFlight: { key: string; acknowledged: () => void }[] = [];
  private nextId = 1;
  private inFlightBytes = 0;
  /**
   * Posted blocks whose answer is awaited: not yet answered at all, or released after an
   * `unlinked` answer. They, and only they, keep the thread (and so the process) alive: a block
   * the thread merely keeps must not, and one the store waits for must.
   */
  private awaited = 0;
  private failed = false;
  /** A block was added without the thread's step: the thread may lack the trees after it. */
  private gap = false;
  /**
   * Blocks handed to the thread; those it stepped (the rest: a parent it never had, or a block
   * that does not decode); pools whose step the store adopted, and refused; and blocks not handed
   * over, because too many bytes were in flight or the thread had failed or was closed.
   */
  readonly counts = { posted: 0, stepped: 0, adopted: 0, refused: 0, skipped: 0 };

  private constructor() {
    this.worker = startModuleWorker(new URL('./tree-worker.js', import.meta.url));
    this.worker.on('message', (r: TreeThreadReply) => this.onReply(r));
    this.worker.on('error', () => this.stop());
    this.worker.on('exit', () => this.stop());
    this.worker.unref();
  }

  /**
   * A thread whose trees start as the store's tip's; an empty store's are the empty trees before
   * a genesis block (whose parent hash is all zeros).
   */
  static async start(store: Pick<ChainStore, 'chainStateTip'>, options: TreePrefetcherOptions = {}): Promise<TreePrefetcher> {
    const prefetcher = new TreePrefetcher();
    const tip = await store.chainStateTip();
    const seeded = prefetcher.seed(tip ? tip.hash : new Uint8Array(32), tip ? tip.trees : {}, options.warm === true);
    if (options.warm) {
      // The thread is unreferenced while no block is awaited: held until it answers.
      prefetcher.await(+1);
      await seeded;
      if (!prefetcher.failed) prefetcher.await(-1);
    }
    return prefetcher;
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
    let parentKey: string;
    try {
      const header = decodeBlockHeader(bytes);
      hash = sha256d(header.bytes);
      parentKey = keyOf(header.prevHash);
    } catch {
      return;
    }
    const key = keyOf(hash);
    if (this.prefetched.has(key)) return;
    if (this.prefetched.size >= MAX_PREFETCHED) this.prefetched.delete(this.prefetched.keys().next().value!);
    let resolve!: (steps: PrecomputedTrees | null) => void;
    const promise = new Promise<PrecomputedTrees | null>((r) => (resolve = r));
    let answer!: () => void;
    const answered = new Promise<void>((r) => (answer = r));
    const id = this.nextId++;
    const pending: Pending = {
      id,
      key,
      parentKey,
      promise,
      resolve,
      bytes: bytes.length,
      unlinked: false,
      answeredOnce: false,
      answered,
      answer,
    };
    this.prefetched.set(key, pending);
    this.posted.set(id, pending);
    this.inFlightBytes += bytes.length;
    this.await(+1);
    this.counts.posted++;
    // A copy of the block alone (the caller's bytes may be a view into a larger read; a
    // Buffer's slice() would be a view too), moved to the thread rather than copied again.
    const copy = new Uint8Array(bytes);
    this.worker.postMessage({ type: 'block', id, hash, bytes: copy } satisfies TreeThreadRequest, [copy.buffer]);
  }

  take(hash: Uint8Array): Promise<PrecomputedTrees | null> | null {
    const key = keyOf(hash);
    const pending = this.prefetched.get(key);
    if (!pending) {
      this.gap = !this.failed;
      return null;
    }
    this.prefetched.delete(key);
    // A block waiting for a parent whose trees nothing says will come is not waited for.
    if (pending.unlinked) this.settle(pending, null);
    return pending.promise.then((steps) => {
      // Hashed on the main thread: the thread may not have the trees after this block.
      if (!steps) this.gap = !this.failed;
      return steps;
    });
  }

  used(_hash: Uint8Array, outcome: { adopted: number; refused: number }): void {
    this.counts.adopted += outcome.adopted;
    this.counts.refused += outcome.refused;
    // A refused step means the thread's trees differ from the store's (the same code on the same
    // blocks should never give that), and the steps it made since rest on them: it is not asked
    // again, and the import goes on without it.
    if (outcome.refused > 0) this.stop();
  }

  /**
   * After the store added a block: when it was added without the thread's step, hands the thread
   * the trees after the store's tip, so that the blocks read after it (kept by the thread, waiting
   * for their parent) are stepped again. Call it after every addBlock.
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
    this.stop();
    await this.worker.terminate();
  }

  /** No more blocks go to the thread, every one not answered gets no step, and the thread ends. */
  private stop(): void {
    this.failed = true;
    this.settleAll();
    this.prefetched.clear();
    // Frees what it holds (the blocks it keeps) without waiting for close().
    void this.worker.terminate();
  }

  /** Resolves when the thread acknowledges the seed, or stops. */
  private seed(hash: Uint8Array, trees: Partial<Record<string, IncrementalMerkleTree>>, warm = false): Promise<void> {
    // A thread that has stopped (it may end while start() reads the tip) acknowledges nothing.
    if (this.failed) return Promise.resolve();
    const frontiers: Partial<Record<string, Uint8Array>> = {};
    for (const [pool, tree] of Object.entries(trees)) frontiers[pool] = tree!.toTreeStateBytes('padded');
    this.worker.postMessage({ type: 'seed', hash, frontiers, ...(warm ? { warm } : {}) } satisfies TreeThreadRequest);
    // Blocks already answered `unlinked` for this parent were kept, and the thread reads the seed
    // after them: they will be stepped. Those whose answer is still coming are waited for too.
    const key = keyOf(hash);
    const acknowledged = new Promise<void>((resolve) => this.seedsInFlight.push({ key, acknowledged: resolve }));
    this.release(key);
    return acknowledged;
  }

  private onReply(r: TreeThreadReply): void {
    // The thread answers in order: the blocks it kept for these trees are answered after this.
    if (r.seeded && this.seedsInFlight[0]?.key === keyOf(r.hash)) this.seedsInFlight.shift()!.acknowledged();
    if (r.seeded || r.steps) this.release(keyOf(r.hash));
    const p = this.posted.get(r.id);
    if (!p) return;
    if (!p.answeredOnce) {
      p.answeredOnce = true;
      this.inFlightBytes -= p.bytes;
      p.answer();
    }
    if (!r.unlinked) return this.settle(p, r.steps);
    // The thread keeps the block and answers it again if its parent's trees come: they do when a
    // seed for the parent is on its way; otherwise the store does not wait for it.
    if (this.seedsInFlight.some((seed) => seed.key === p.parentKey)) return;
    if (!this.prefetched.has(p.key)) return this.settle(p, null); // taken already: the store is waiting
    p.unlinked = true;
    this.await(-1);
    const siblings = this.unlinkedByParent.get(p.parentKey) ?? new Set<Pending>();
    siblings.add(p);
    this.unlinkedByParent.set(p.parentKey, siblings);
  }

  /**
   * The thread now holds the trees after block `key`, and next answers the blocks it kept for
   * them: those are waited for again.
   */
  private release(key: string): void {
    const waiting = this.unlinkedByParent.get(key);
    if (!waiting) return;
    this.unlinkedByParent.delete(key);
    for (const p of waiting) {
      p.unlinked = false;
      this.await(+1);
    }
  }

  private await(change: 1 | -1): void {
    this.awaited += change;
    if (change > 0 && this.awaited === 1) this.worker.ref();
    if (change < 0 && this.awaited === 0) this.worker.unref();
  }

  private settle(p: Pending, steps: PrecomputedTrees | null): void {
    if (!this.posted.delete(p.id)) return;
    if (p.unlinked) {
      const siblings = this.unlinkedByParent.get(p.parentKey);
      siblings?.delete(p);
      if (siblings?.size === 0) this.unlinkedByParent.delete(p.parentKey);
    } else this.await(-1);
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
    this.unlinkedByParent.clear();
    for (const seed of this.seedsInFlight.splice(0)) seed.acknowledged();
    this.inFlightBytes = 0;
    this.awaited = 0;
    this.worker.unref();
  }
}

const keyOf = (hash: Uint8Array): string => Buffer.from(hash.buffer, hash.byteOffset, hash.length).toString('latin1');
