/**
 * The ZIP-221 chain history tree (a Merkle mountain range of per-block leaves, one tree per
 * network-upgrade epoch from Heartwood on) and the ZIP-244 block commitment, as zcashd v6.12.2
 * keeps them (src/main.cpp ConnectBlock, src/coins.cpp, src/zcash/History.cpp, and the
 * `zcash_history` crate). Pure functions over plain values: a tree is its epoch's branch id,
 * its leaf count and its peaks, so the store can persist one per block and restore it when a
 * block is disconnected.
 *
 * Node data (spec §6.1): V1 for the Heartwood and Canopy epochs, V2 (adds Orchard fields) for
 * NU5 to NU6.2, V3 (adds Ironwood fields, ZIP 229) from NU6.3. Hashing uses BLAKE2b-256 personalised "ZcashHistory" ‖ le32(branch
 * id of the tree's epoch).
 */
import { ByteReader, ByteWriter } from '../codec/bytes.js';
import type { Block } from '../codec/block.js';
import { blake2b256Of, personalization } from '../crypto/hash.js';
import { BRANCH_IDS, branchIdAt, isUpgradeActive, type NetworkParams } from '../chain/network.js';
import { blockWork } from '../chain/pow.js';

const ZERO32 = new Uint8Array(32);
const TWO_256 = 1n << 256n;

/** A shielded pool's fields in a node: its root after the first and last block, and its transaction count. */
export interface PoolNodeData {
  startRoot: Uint8Array;
  endRoot: Uint8Array;
  txCount: number;
}

/** One MMR node: a leaf (one block) or the combination of a range of blocks. */
export interface HistoryNode {
  /** Leaf: the block hash (internal order). Inner node: H(ser(left) ‖ ser(right)). */
  commitment: Uint8Array;
  startTime: number;
  endTime: number;
  /** Compact nBits, not expanded. */
  startTarget: number;
  endTarget: number;
  /** hashFinalSaplingRoot after the first / last block, raw field encoding. */
  startSaplingRoot: Uint8Array;
  endSaplingRoot: Uint8Array;
  /** Sum of the blocks' own work (GetBlockProof), not cumulative chain work. */
  work: bigint;
  startHeight: number;
  endHeight: number;
  /** Transactions with a Sapling bundle (≥ 1 spend or output). */
  saplingTxCount: number;
  /** V2 and V3 (NU5 onward); null in V1 nodes. */
  orchard: PoolNodeData | null;
  /** V3 (NU6.3 onward) only; null in V1 and V2 nodes. */
  ironwood: PoolNodeData | null;
}

/** A block's contribution to the tree (spec §6.1 "Leaf value"). */
export interface HistoryLeafFacts {
  /** Block hash, internal order. */
  hash: Uint8Array;
  height: number;
  time: number;
  bits: number;
  /** Sapling root after this block (raw). */
  saplingRoot: Uint8Array;
  saplingTxCount: number;
  /** Orchard root after this block (raw); required from NU5 on. */
  orchardRoot?: Uint8Array;
  orchardTxCount?: number;
  /** Ironwood root after this block (raw); required from NU6.3 on. */
  ironwoodRoot?: Uint8Array;
  ironwoodTxCount?: number;
}

/** One epoch's tree: peaks left to right; their sizes are the binary digits of leafCount. */
export interface HistoryTree {
  branchId: number;
  leafCount: number;
  peaks: readonly HistoryNode[];
}

export type HistoryNodeVersion = 1 | 2 | 3;

/** V1 node data for the Heartwood and Canopy epochs; V3 for NU6.3; V2 for the epochs between. */
export function historyNodeVersion(branchId: number): HistoryNodeVersion {
  if (branchId === BRANCH_IDS.Heartwood || branchId === BRANCH_IDS.Canopy) return 1;
  return branchId >>> 0 === BRANCH_IDS['NU6.3'] ? 3 : 2;
}

/** The version a node's fields make it: which pools it carries. */
function nodeVersionOf(node: HistoryNode): HistoryNodeVersion {
  return node.ironwood ? 3 : node.orchard ? 2 : 1;
}

function historyPersonal(branchId: number): Uint8Array {
  return personalization('ZcashHistory', branchId);
}

// ---------------------------------------------------------------------------------------------
// Serialization (spec §6.1).

/**
 * A node's serialization, made once: nodes are never modified, and a block's root bags peaks
 * that earlier blocks serialized already (and the chain-state record serializes them all again).
 */
const serializedNodes = new WeakMap<HistoryNode, Uint8Array>();

function nodeBytes(node: HistoryNode): Uint8Array {
  let bytes = serializedNodes.get(node);
  if (!bytes) {
    bytes = writeHistoryNode(node);
    serializedNodes.set(node, bytes);
  }
  return bytes;
}

/** The node's serialization: 155–171 bytes for V1, up to 244 for V2, up to 317 for V3. */
export function serializeHistoryNode(node: HistoryNode): Uint8Array {
  return nodeBytes(node).slice();
}

function writeHistoryNode(node: HistoryNode): Uint8Array {
  const w = new ByteWriter(317)
    .bytes(node.commitment)
    .u32(node.startTime)
    .u32(node.endTime)
    .u32(node.startTarget)
    .u32(node.endTarget)
    .bytes(node.startSaplingRoot)
    .bytes(node.endSaplingRoot)
    .bytes(workBytes(node.work))
    .compactSize(node.startHeight)
    .compactSize(node.endHeight)
    .compactSize(node.saplingTxCount);
  if (node.orchard) writePoolData(w, node.orchard);
  if (node.ironwood) writePoolData(w, node.ironwood);
  return w.finish();
}

function writePoolData(w: ByteWriter, data: PoolNodeData): void {
  w.bytes(data.startRoot).bytes(data.endRoot).compactSize(data.txCount);
}

function readPoolData(r: ByteReader): PoolNodeData {
  const startRoot = r.bytes(32).slice();
  const endRoot = r.bytes(32).slice();
  return { startRoot, endRoot, txCount: readCount(r) };
}

/** A 256-bit work value as 32 little-endian bytes. */
function workBytes(work: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let w = work;
  for (let i = 0; i < 32; i++) {
    out[i] = Number(w & 0xffn);
    w >>= 8n;
  }
  return out;
}

/** Heights and counts; ByteReader enforces canonical encoding (and zcashd's 2^25 bound, far above any height). */
function readCount(r: ByteReader): number {
  return r.compactSize();
}

/** Reads a node serialized by `serializeHistoryNode` (the reader advances past it). */
export function readHistoryNode(r: ByteReader, version: HistoryNodeVersion): HistoryNode {
  const commitment = r.bytes(32).slice();
  const startTime = r.u32();
  const endTime = r.u32();
  const startTarget = r.u32();
  const endTarget = r.u32();
  const startSaplingRoot = r.bytes(32).slice();
  const endSaplingRoot = r.bytes(32).slice();
  const workBytes = r.bytes(32);
  let work = 0n;
  for (let i = 31; i >= 0; i--) work = (work << 8n) | BigInt(workBytes[i]!);
  const startHeight = readCount(r);
  const endHeight = readCount(r);
  const saplingTxCount = readCount(r);
  const orchard = version >= 2 ? readPoolData(r) : null;
  const ironwood = version === 3 ? readPoolData(r) : null;
  return {
    commitment,
    startTime,
    endTime,
    startTarget,
    endTarget,
    startSaplingRoot,
    endSaplingRoot,
    work,
    startHeight,
    endHeight,
    saplingTxCount,
    orchard,
    ironwood,
  };
}

// ---------------------------------------------------------------------------------------------
// Leaves, combination, hashing (spec §6.2).

/** The leaf zcashd's ConnectBlock appends for a block of the epoch `branchId`. */
export function historyLeaf(facts: HistoryLeafFacts, branchId: number): HistoryNode {
  const version = historyNodeVersion(branchId);
  let orchard: PoolNodeData | null = null;
  let ironwood: PoolNodeData | null = null;
  if (version >= 2) {
    if (!facts.orchardRoot || facts.orchardTxCount === undefined) {
      throw new RangeError(`history leaf at ${facts.height}: V${version} epochs need the Orchard root and tx count`);
    }
    orchard = { startRoot: facts.orchardRoot, endRoot: facts.orchardRoot, txCount: facts.orchardTxCount };
  }
  if (version === 3) {
    if (!facts.ironwoodRoot || facts.ironwoodTxCount === undefined) {
      throw new RangeError(`history leaf at ${facts.height}: V3 epochs need the Ironwood root and tx count`);
    }
    ironwood = { startRoot: facts.ironwoodRoot, endRoot: facts.ironwoodRoot, txCount: facts.ironwoodTxCount };
  }
  return {
    commitment: facts.hash,
    startTime: facts.time,
    endTime: facts.time,
    startTarget: facts.bits,
    endTarget: facts.bits,
    startSaplingRoot: facts.saplingRoot,
    endSaplingRoot: facts.saplingRoot,
    work: blockWork(facts.bits),
    startHeight: facts.height,
    endHeight: facts.height,
    saplingTxCount: facts.saplingTxCount,
    orchard,
    ironwood,
  };
}

/**
 * Leaf facts of a decoded block: its hash, header time and bits, the tx counts from its
 * bundles; the roots after it come from the note commitment trees, which the block alone
 * does not give.
 */
export function historyLeafFacts(
  block: Block,
  height: number,
  roots: { saplingRoot: Uint8Array; orchardRoot?: Uint8Array; ironwoodRoot?: Uint8Array },
): HistoryLeafFacts {
  let saplingTxCount = 0;
  let orchardTxCount = 0;
  let ironwoodTxCount = 0;
  for (const tx of block.transactions) {
    // The decoder leaves a bundle null exactly when it has no spends/outputs (actions).
    if (tx.data.sapling) saplingTxCount++;
    if (tx.data.orchard) orchardTxCount++;
    if (tx.data.ironwood) ironwoodTxCount++;
  }
  const facts: HistoryLeafFacts = {
    hash: block.hash,
    height,
    time: block.header.time,
    bits: block.header.bits,
    saplingRoot: roots.saplingRoot,
    saplingTxCount,
  };
  if (roots.orchardRoot) {
    facts.orchardRoot = roots.orchardRoot;
    facts.orchardTxCount = orchardTxCount;
  }
  if (roots.ironwoodRoot) {
    facts.ironwoodRoot = roots.ironwoodRoot;
    facts.ironwoodTxCount = ironwoodTxCount;
  }
  return facts;
}

/** H_b(ser(node)): a node's hash, and the history root when the node is the tree's root. */
export function hashHistoryNode(node: HistoryNode, branchId: number): Uint8Array {
  return blake2b256Of(historyPersonal(branchId), nodeBytes(node));
}

/** The parent of two adjacent subtrees of one epoch's tree. */
export function combineHistoryNodes(left: HistoryNode, right: HistoryNode, branchId: number): HistoryNode {
  if (nodeVersionOf(left) !== nodeVersionOf(right)) {
    throw new RangeError(`combineHistoryNodes: V${nodeVersionOf(left)} and V${nodeVersionOf(right)} nodes cannot be combined`);
  }
  const commitment = blake2b256Of(historyPersonal(branchId), nodeBytes(left), nodeBytes(right));
  return {
    commitment,
    startTime: left.startTime,
    endTime: right.endTime,
    startTarget: left.startTarget,
    endTarget: right.endTarget,
    startSaplingRoot: left.startSaplingRoot,
    endSaplingRoot: right.endSaplingRoot,
    // U256 addition; a real chain is nowhere near 2^256 work.
    work: (left.work + right.work) % TWO_256,
    startHeight: left.startHeight,
    endHeight: right.endHeight,
    saplingTxCount: left.saplingTxCount + right.saplingTxCount,
    orchard: combinePoolData(left.orchard, right.orchard),
    ironwood: combinePoolData(left.ironwood, right.ironwood),
  };
}

function combinePoolData(left: PoolNodeData | null, right: PoolNodeData | null): PoolNodeData | null {
  return left && right ? { startRoot: left.startRoot, endRoot: right.endRoot, txCount: left.txCount + right.txCount } : null;
}

// ---------------------------------------------------------------------------------------------
// The MMR (spec §6.3).

export function emptyHistoryTree(branchId: number): HistoryTree {
  return { branchId, leafCount: 0, peaks: [] };
}

/** Leaf counts of the peaks, left to right: the set bits of leafCount, largest first. */
export function peakSizes(leafCount: number): number[] {
  const sizes: number[] = [];
  for (let bit = 2 ** Math.floor(Math.log2(Math.max(leafCount, 1))); bit >= 1; bit /= 2) {
    if (Math.floor(leafCount / bit) % 2 === 1) sizes.push(bit);
  }
  return sizes;
}

/** The tree with `leaf` appended (the input is not modified). */
export function appendHistoryLeaf(tree: HistoryTree, leaf: HistoryNode): HistoryTree {
  const peaks = tree.peaks.slice();
  let node = leaf;
  // Equal-sized neighbours merge: the trailing 1-bits of leafCount are the peaks to absorb.
  for (let count = tree.leafCount; count % 2 === 1; count = Math.floor(count / 2)) {
    node = combineHistoryNodes(peaks.pop()!, node, tree.branchId);
  }
  peaks.push(node);
  return { branchId: tree.branchId, leafCount: tree.leafCount + 1, peaks };
}

/**
 * Each peak's bag with the peaks left of it, as last computed: a leaf appended changes only the
 * peaks it merges, so the bag of the peaks before them is the root an earlier block computed. A
 * bag is reused only for the very node it was combined with, in the same epoch.
 */
const baggedWith = new WeakMap<HistoryNode, { left: HistoryNode; branchId: number; bag: HistoryNode }>();

/** The root node: the peaks bagged left to right (combine(combine(P0, P1), P2) …). */
export function historyRootNode(tree: HistoryTree): HistoryNode | null {
  if (tree.peaks.length === 0) return null;
  let root = tree.peaks[0]!;
  for (let i = 1; i < tree.peaks.length; i++) {
    const peak = tree.peaks[i]!;
    const known = baggedWith.get(peak);
    if (known && known.left === root && known.branchId === tree.branchId) {
      root = known.bag;
      continue;
    }
    const bag = combineHistoryNodes(root, peak, tree.branchId);
    baggedWith.set(peak, { left: root, branchId: tree.branchId, bag });
    root = bag;
  }
  return root;
}

/** The history root hash (internal order); all zero for an empty tree, as zcashd's null uint256. */
export function historyRoot(tree: HistoryTree | null): Uint8Array {
  const root = tree ? historyRootNode(tree) : null;
  return root ? hashHistoryNode(root, tree!.branchId) : ZERO32.slice();
}

// ---------------------------------------------------------------------------------------------
// Epochs (spec §6.4).

export interface HistoryStep {
  /**
   * The root as of the end of block h−1, in h−1's epoch (zero at Heartwood activation and
   * before): what the header commits to (h < NU5), or `chainhistoryroot` (h ≥ NU5).
   */
  prevRoot: Uint8Array;
  /** The tree after block h, to persist with it (null before Heartwood). */
  tree: HistoryTree | null;
}

/**
 * Connects block `height`: its prevRoot from `tree` (the tree after block h−1, null if none),
 * then its leaf appended to its own epoch's tree, which starts empty at each upgrade's
 * activation block.
 */
export function connectHistoryBlock(
  network: NetworkParams,
  tree: HistoryTree | null,
  height: number,
  facts: HistoryLeafFacts,
): HistoryStep {
  if (facts.height !== height) throw new RangeError(`connectHistoryBlock: leaf is for ${facts.height}, not ${height}`);
  if (!isUpgradeActive(network, 'Heartwood', height)) {
    if (tree) throw new RangeError(`connectHistoryBlock: a history tree before Heartwood (height ${height})`);
    return { prevRoot: ZERO32.slice(), tree: null };
  }
  const prevRoot = prevHistoryRoot(network, tree, height);
  const branchId = branchIdAt(network, height);
  const base = tree && tree.branchId === branchId ? tree : emptyHistoryTree(branchId);
  return { prevRoot, tree: appendHistoryLeaf(base, historyLeaf(facts, branchId)) };
}

/**
 * prevRoot(h): the root of the tree of CurrentEpochBranchId(h−1) before h's leaf. `tree` must be
 * the state after block h−1 (checked: same epoch, last leaf at h−1).
 */
export function prevHistoryRoot(network: NetworkParams, tree: HistoryTree | null, height: number): Uint8Array {
  if (!isUpgradeActive(network, 'Heartwood', height - 1)) {
    if (tree) throw new RangeError(`prevHistoryRoot: a history tree before Heartwood (height ${height - 1})`);
    return ZERO32.slice();
  }
  if (!tree || tree.leafCount === 0) {
    throw new RangeError(`prevHistoryRoot: the history tree after block ${height - 1} is needed`);
  }
  const expectedBranch = branchIdAt(network, height - 1);
  if (tree.branchId !== expectedBranch) {
    throw new RangeError(
      `prevHistoryRoot: tree is for branch ${tree.branchId.toString(16)}, block ${height - 1} is in ${expectedBranch.toString(16)}`,
    );
  }
  const lastHeight = tree.peaks[tree.peaks.length - 1]!.endHeight;
  if (lastHeight !== height - 1) {
    throw new RangeError(`prevHistoryRoot: tree ends at ${lastHeight}, not ${height - 1}`);
  }
  return historyRoot(tree);
}

export { hashBlockCommitments } from '../chain/commitment-era.js';

// ---------------------------------------------------------------------------------------------
// Persistence: branch id (le32) ‖ CompactSize leafCount ‖ the peaks' serializations.

export function encodeHistoryTree(tree: HistoryTree): Uint8Array {
  const w = new ByteWriter(16 + 317 * tree.peaks.length).u32(tree.branchId >>> 0).compactSize(tree.leafCount);
  for (const p of tree.peaks) w.bytes(nodeBytes(p));
  return w.finish();
}

export function decodeHistoryTree(bytes: Uint8Array): HistoryTree {
  const r = new ByteReader(bytes);
  const branchId = r.u32();
  const leafCount = readCount(r);
  const version = historyNodeVersion(branchId);
  const peaks: HistoryNode[] = [];
  const count = peakSizes(leafCount).length;
  for (let i = 0; i < count; i++) peaks.push(readHistoryNode(r, version));
  if (r.pos !== bytes.length) throw new RangeError('decodeHistoryTree: trailing bytes');
  return { branchId, leafCount, peaks };
}
