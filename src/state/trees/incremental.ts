/**
 * The incremental note-commitment tree of zcashd (`src/zcash/IncrementalMerkleTree.*`) over any
 * `MerkleHasher`: a fixed-depth tree filled left to right, kept as its frontier.
 *
 * Internal form. With n ≥ 1 leaves, `last` is the newest leaf (position p = n − 1) and
 * `ommers[h]` is present exactly when bit h of p is set: the completed subtrees of the first p
 * leaves, one per set bit, each a left sibling on the newest leaf's path. This is zcashd's
 * (left, right, parents) state in another shape: zcashd also keeps the newest leaf uncombined
 * (right = last when p is odd, with left = ommers[0]; otherwise left = last) and
 * parents[i] = ommers[i + 1]. Keeping the newest leaf apart is what lets the serialized
 * frontier name both leaves of the last pair, exactly as zcashd prints it.
 *
 * `appendMany` hashes a whole batch level by level with one `combineMany` call per level, so
 * a batched hasher (Pedersen, Sinsemilla) pays per level rather than per leaf.
 */
import type { MerkleHasher } from './hasher.js';
import { decodeTreeState, encodeTreeState, encodeTreeStateHex, type FrontierParts, type ParentsLayout } from './tree-state.js';

/** zcashd `TRACKED_SUBTREE_HEIGHT`: `z_getsubtreesbyindex` reports roots of 2^16-leaf subtrees. */
export const TRACKED_SUBTREE_HEIGHT = 16;

/** A 2^subtreeHeight-leaf subtree completed by an append. */
export interface CompletedSubtree {
  /** Subtree index: its first leaf is at position index × 2^subtreeHeight. */
  index: number;
  /** Its root (internal byte order; zcashd prints it with HexStr, not reversed). */
  root: Uint8Array;
  /**
   * Which leaf of the append call completed it (0-based within that call's leaves). The block
   * holding that leaf is the subtree's `end_height`.
   */
  batchOffset: number;
}

/** How a serialized frontier is read back (`fromTreeState`, `fromParts`). */
export interface FrontierOptions extends IncrementalMerkleTreeOptions {
  /**
   * The frontier's root as this package computed it from the same frontier elsewhere (a tree
   * thread): kept as the cached root instead of hashed again. Not checked.
   */
  knownRoot?: Uint8Array;
}

export interface IncrementalMerkleTreeOptions {
  /**
   * Height of the subtrees to report as they complete. Default: TRACKED_SUBTREE_HEIGHT when it
   * is below the tree depth, otherwise none. `null` turns reporting off.
   */
  subtreeHeight?: number | null;
}

/** Thrown when an append would exceed 2^depth leaves (zcashd: "tree is full"). */
export class TreeFullError extends Error {
  constructor(depth: number, size: number, adding: number) {
    super(`tree is full: a depth-${depth} tree holds ${2 ** depth} leaves; it has ${size} and ${adding} more were appended`);
    this.name = 'TreeFullError';
  }
}

const NODE = 32;
/** Positions are JS numbers; 2^52 leaves keeps every position and size exact. */
const MAX_DEPTH = 52;

export class IncrementalMerkleTree {
  readonly hasher: MerkleHasher;
  readonly depth: number;
  /** null: no subtree reporting. */
  readonly subtreeHeight: number | null;
  private n = 0;
  private last: Uint8Array | null = null;
  private ommers: (Uint8Array | null)[];
  private rootCache: Uint8Array | null = null;
  /** The last serialized frontier: a pool no block touched is serialized again with every chain-state record. */
  private stateBytesCache: { layout: ParentsLayout; bytes: Uint8Array } | null = null;

  constructor(hasher: MerkleHasher, options: IncrementalMerkleTreeOptions = {}) {
    const depth = hasher.depth;
    if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH)
      throw new RangeError(`tree depth must be 1..${MAX_DEPTH}, got ${depth}`);
    if (hasher.emptyRoots.length !== depth + 1) {
      throw new RangeError(`hasher has ${hasher.emptyRoots.length} empty roots; depth ${depth} needs ${depth + 1}`);
    }
    const subtreeHeight =
      options.subtreeHeight === undefined ? (TRACKED_SUBTREE_HEIGHT < depth ? TRACKED_SUBTREE_HEIGHT : null) : options.subtreeHeight;
    if (subtreeHeight !== null && (!Number.isInteger(subtreeHeight) || subtreeHeight < 1 || subtreeHeight >= depth)) {
      throw new RangeError(`subtree height must be 1..${depth - 1} for a depth-${depth} tree, got ${subtreeHeight}`);
    }
    this.hasher = hasher;
    this.depth = depth;
    this.subtreeHeight = subtreeHeight;
    this.ommers = new Array<Uint8Array | null>(depth).fill(null);
  }

  /** Number of leaves appended (= the position the next leaf takes). */
  get size(): number {
    return this.n;
  }

  /** 2^depth. */
  get capacity(): number {
    return 2 ** this.depth;
  }

  /** The index of the subtree the next leaf goes into (zcashd `current_subtree_index`). */
  get currentSubtreeIndex(): number | null {
    return this.subtreeHeight === null ? null : Math.floor(this.n / 2 ** this.subtreeHeight);
  }

  /**
   * Appends one leaf (32 bytes, internal order). Returns the subtree this leaf completed, if any.
   * Throws TreeFullError on a full tree, leaving the tree unchanged.
   */
  append(leaf: Uint8Array): CompletedSubtree | null {
    checkLeaf(leaf, 0);
    if (this.n >= this.capacity) throw new TreeFullError(this.depth, this.n, 1);
    if (this.last !== null) {
      // Fold the previous newest leaf into the completed subtrees: a binary carry over p.
      // Hash first, then update, so a throwing hasher leaves the tree as it was.
      let cur = this.last;
      let p = this.n - 1;
      let h = 0;
      while (p % 2 === 1) {
        cur = this.hasher.combine(h, this.ommers[h]!, cur);
        p = (p - 1) / 2;
        h++;
      }
      this.ommers.fill(null, 0, h);
      this.ommers[h] = cur;
    }
    this.last = leaf.slice();
    this.n++;
    this.rootCache = null;
    this.stateBytesCache = null;
    return this.subtreeCompletedByLast(0);
  }

  /**
   * Appends leaves in order: an array of 32-byte leaves or one buffer of k × 32 bytes. Equivalent
   * to calling `append` on each, with one `combineMany` per tree level. Returns every subtree
   * completed during the batch, in index order. Throws TreeFullError (tree unchanged) if the
   * batch does not fit.
   */
  appendMany(leaves: readonly Uint8Array[] | Uint8Array): CompletedSubtree[] {
    const k = leaves instanceof Uint8Array ? leaves.length / NODE : leaves.length;
    if (leaves instanceof Uint8Array) {
      if (!Number.isInteger(k)) throw new RangeError(`appendMany: ${leaves.length} bytes is not a whole number of 32-byte leaves`);
    } else {
      for (let i = 0; i < k; i++) checkLeaf(leaves[i]!, i);
    }
    if (k === 0) return [];
    if (this.n + k > this.capacity) throw new TreeFullError(this.depth, this.n, k);

    const leafAt = (i: number): Uint8Array => (leaves instanceof Uint8Array ? leaves.subarray(i * NODE, (i + 1) * NODE) : leaves[i]!);

    // Level 0 run: the nodes that become part of completed subtrees in this batch, i.e. the
    // previous newest leaf and all new leaves but the last. One spare slot in front takes a
    // waiting left sibling without another copy.
    const carried = this.last === null ? 0 : 1;
    let count = carried + k - 1;
    let run: Uint8Array = new Uint8Array((count + 1) * NODE);
    let base = NODE;
    if (this.last !== null) run.set(this.last, base);
    if (leaves instanceof Uint8Array) {
      run.set(leaves.subarray(0, (k - 1) * NODE), base + carried * NODE);
    } else {
      for (let i = 0; i < k - 1; i++) run.set(leaves[i]!, base + (carried + i) * NODE);
    }
    // Position (at the current level) of the run's first node.
    let start = this.n - carried;

    // Updated on a copy and committed at the end, so a throwing hasher leaves the tree as it was.
    const ommers = this.ommers.slice();
    const completed: CompletedSubtree[] = [];
    const sh = this.subtreeHeight;
    const firstNewSubtree = sh === null ? 0 : Math.floor(this.n / 2 ** sh);
    const sizeBefore = this.n;

    for (let h = 0; count > 0; h++) {
      if (start % 2 === 1) {
        // The run starts on a right child: its left sibling is the waiting subtree at this level.
        if (base === 0) {
          const grown = new Uint8Array((count + 1) * NODE);
          grown.set(run.subarray(0, count * NODE), NODE);
          run = grown;
          base = NODE;
        }
        base -= NODE;
        run.set(ommers[h]!, base);
        ommers[h] = null;
        start -= 1;
        count += 1;
      }
      if (h === sh) {
        for (let j = 0; j < count; j++) {
          const index = start + j;
          if (index < firstNewSubtree) continue; // completed and reported by an earlier call
          const lastLeafPosition = (index + 1) * 2 ** sh - 1;
          completed.push({ index, root: run.slice(base + j * NODE, base + (j + 1) * NODE), batchOffset: lastLeafPosition - sizeBefore });
        }
      }
      if (count % 2 === 1) {
        // An unpaired node on the right end is a left child still waiting for its sibling.
        ommers[h] = run.slice(base + (count - 1) * NODE, base + count * NODE);
        count -= 1;
      }
      if (count === 0) break;
      run = this.hasher.combineMany(h, run.subarray(base, base + count * NODE), count / 2);
      base = 0;
      count /= 2;
      start /= 2;
    }

    this.ommers = ommers;
    this.last = leafAt(k - 1).slice();
    this.n += k;
    this.rootCache = null;
    this.stateBytesCache = null;
    const byLast = this.subtreeCompletedByLast(k - 1);
    if (byLast !== null) completed.push(byLast);
    return completed;
  }

  /** The tree root (internal byte order), computed over 2^depth leaves; cached until the next append. */
  root(): Uint8Array {
    if (this.rootCache !== null) return this.rootCache;
    this.rootCache = this.n === 0 ? this.hasher.emptyRoots[this.depth]! : this.foldLast(this.depth, true);
    return this.rootCache;
  }

  /** An independent copy (stored nodes are never mutated, so they are shared). */
  clone(): IncrementalMerkleTree {
    const copy = new IncrementalMerkleTree(this.hasher, { subtreeHeight: this.subtreeHeight });
    copy.n = this.n;
    copy.last = this.last;
    copy.ommers = this.ommers.slice();
    copy.rootCache = this.rootCache;
    copy.stateBytesCache = this.stateBytesCache;
    return copy;
  }

  /** The frontier in zcashd's (left, right, parents) form with the given parent-list layout. */
  toParts(layout: ParentsLayout = 'trimmed'): FrontierParts {
    if (this.n === 0) return { left: null, right: null, parents: [] };
    const p = this.n - 1;
    const odd = p % 2 === 1;
    const parentCount = layout === 'padded' ? this.depth - 1 : highestSetBit(p);
    const parents: (Uint8Array | null)[] = [];
    for (let i = 0; i < parentCount; i++) parents.push(this.ommers[i + 1] ?? null);
    return { left: odd ? this.ommers[0]! : this.last, right: odd ? this.last : null, parents };
  }

  /**
   * zcashd's serialized frontier as hex (`z_gettreestate … finalState`). Use 'trimmed' for Sprout
   * and Sapling (zcashd's C++ tree) and 'padded' for Orchard (zcashd's Rust frontier).
   */
  toTreeState(layout: ParentsLayout = 'trimmed'): string {
    return encodeTreeStateHex(this.toParts(layout));
  }

  toTreeStateBytes(layout: ParentsLayout = 'trimmed'): Uint8Array {
    if (this.stateBytesCache?.layout !== layout) this.stateBytesCache = { layout, bytes: encodeTreeState(this.toParts(layout)) };
    // A copy: callers may hand it to another thread (a transfer detaches it) or keep it.
    return this.stateBytesCache.bytes.slice();
  }

  /**
   * Rebuilds a tree from a serialized frontier (hex or bytes; either parent-list layout).
   * Throws TreeStateError for malformed input.
   */
  static fromTreeState(hasher: MerkleHasher, state: string | Uint8Array, options: FrontierOptions = {}): IncrementalMerkleTree {
    return IncrementalMerkleTree.fromParts(hasher, decodeTreeState(state, hasher.depth), options);
  }

  /** Rebuilds a tree from zcashd's (left, right, parents) form, already checked by `decodeTreeState`. */
  static fromParts(hasher: MerkleHasher, parts: FrontierParts, options: FrontierOptions = {}): IncrementalMerkleTree {
    const { knownRoot, ...treeOptions } = options;
    const tree = new IncrementalMerkleTree(hasher, treeOptions);
    if (parts.left === null) return tree;
    if (parts.parents.length >= tree.depth) throw new RangeError(`a depth-${tree.depth} tree has at most ${tree.depth - 1} parents`);
    let p = 0;
    if (parts.right !== null) {
      tree.ommers[0] = parts.left;
      tree.last = parts.right;
      p = 1;
    } else {
      tree.last = parts.left;
    }
    parts.parents.forEach((parent, i) => {
      if (parent === null) return;
      tree.ommers[i + 1] = parent;
      p += 2 ** (i + 1);
    });
    tree.n = p + 1;
    if (knownRoot) tree.rootCache = knownRoot;
    return tree;
  }

  /**
   * Hashes the newest leaf up `levels` levels along its path: with its waiting left siblings,
   * and (when `padWithEmpty`) with empty subtrees where it is a left child itself.
   */
  private foldLast(levels: number, padWithEmpty: boolean): Uint8Array {
    const { hasher } = this;
    let cur = this.last!;
    let p = this.n - 1;
    for (let h = 0; h < levels; h++) {
      if (p % 2 === 1) cur = hasher.combine(h, this.ommers[h]!, cur);
      else if (padWithEmpty) cur = hasher.combine(h, cur, hasher.emptyRoots[h]!);
      else throw new Error('foldLast: the newest leaf does not end a complete subtree');
      p = Math.floor(p / 2);
    }
    return cur;
  }

  /** The subtree completed by the newest leaf, if its position ends one (zcashd `complete_subtree_root`). */
  private subtreeCompletedByLast(batchOffset: number): CompletedSubtree | null {
    const sh = this.subtreeHeight;
    if (sh === null) return null;
    const leavesPerSubtree = 2 ** sh;
    if (this.n % leavesPerSubtree !== 0) return null;
    return { index: this.n / leavesPerSubtree - 1, root: this.foldLast(sh, false), batchOffset };
  }
}

/** Index of the highest set bit of p (0 for p < 2): how many parents zcashd's C++ tree has pushed. */
function highestSetBit(p: number): number {
  let bit = 0;
  while (p >= 2) {
    p = Math.floor(p / 2);
    bit++;
  }
  return bit;
}

function checkLeaf(leaf: Uint8Array, i: number): void {
  if (!(leaf instanceof Uint8Array) || leaf.length !== NODE) {
    throw new RangeError(`leaf ${i} must be a 32-byte Uint8Array`);
  }
}
