/**
 * The per-block state transition: (state after the parent, block) → (state after the block,
 * what getblock prints for it, the coins it spends and creates). Pure: the only input from
 * outside is a lookup of unspent outputs that existed before the block.
 *
 * It is zcashd's ConnectBlock for the parts zecrpc keeps (src/main.cpp): the transparent coins
 * view, the shielded requirements (nullifiers against the nullifier sets, anchors), signature
 * ops, fees and the coinbase amount (connect-checks.ts), value pools and the §3.1 supply
 * identity, the three note-commitment trees, the ZIP-221 history tree, and every root the
 * header commits to, checked against the header. Proofs, signatures and scripts are not run.
 */
import { branchIdAt, isUpgradeActive, type NetworkParams } from '../chain/network.js';
import { hasPrevHistoryRoot, headerDerivedRoots } from '../chain/commitment-era.js';
import { checkCommitmentField, type HeaderRuleError } from '../chain/header-rules.js';
import type { Block } from '../codec/block.js';
import { bytesEqual, toHex, toHexReversed } from '../codec/hex.js';
import { isUnspendable } from '../codec/script/opcodes.js';
import type { OutPoint } from '../codec/tx/types.js';
import { ConnectChecks, type ConnectRule, type ConnectViolation } from './connect-checks.js';
import { blockNullifiers, type RevealedNullifier } from './nullifiers.js';
import { advanceBlockTrees, blockLeaves, type PrecomputedTrees } from './block-trees.js';
import type { BlockChainState, ChainStateTip, PoolHashers, ShieldedPool } from './chain-state.js';
import { poolMembers, SHIELDED_POOL_ENTRIES, type ShieldedPoolId } from './pools.js';
import { checkShieldedRequirements, type ShieldedRequirementFailure } from './shielded-requirements.js';
import { appendHistoryLeaf, connectHistoryBlock, emptyHistoryTree, historyLeaf, historyLeafFacts } from './history-tree.js';
import type { IncrementalMerkleTree } from './trees/incremental.js';
import {
  addPoolTotals,
  blockPoolDeltas,
  CHAIN_SUPPLY_CHECKPOINTS,
  genesisPoolTotals,
  poolDeltaIdentityError,
  poolTotalsError,
  turnstileViolation,
  type TurnstileRule,
  PoolValueError,
} from './value-pools.js';

const ZERO32: Uint8Array = new Uint8Array(32);

/** An unspent transparent output, as the coins view keeps it. */
export interface Coin {
  value: number;
  scriptPubKey: Uint8Array;
  /** Height of the block that created it. */
  height: number;
  coinbase: boolean;
}

export interface SpentCoin {
  outpoint: OutPoint;
  coin: Coin;
}

export interface ApplyBlockInput {
  network: NetworkParams;
  hashers: PoolHashers;
  block: Block;
  height: number;
  /** State after the parent; null for the genesis block. */
  parent: ChainStateTip | null;
  /** Unspent outputs that existed before this block (the block's own are handled here). */
  coin(outpoint: OutPoint): Coin | null;
  /**
   * The Sprout tree whose root is `root` among the anchors before this block (zcashd's
   * GetSproutAnchorAt), or null. Without it, JoinSplit anchors are not checked.
   */
  sproutTreeAt?(root: Uint8Array): IncrementalMerkleTree | null;
  /**
   * Whether `root` is a root of a registered pool's tree (state/pools.ts) the chain had before
   * this block, the empty tree's included (GetSaplingAnchorAt, GetOrchardAnchorAt). Without it,
   * those anchors are not checked.
   */
  anchorKnown?(pool: ShieldedPoolId, root: Uint8Array): boolean;
  /** Whether a block before this one revealed the nullifier (GetNullifier). Without it, nullifiers are not checked. */
  nullifierSpent?(pool: ShieldedPool, nullifier: Uint8Array): boolean;
  /**
   * The block's tree steps as a tree thread computed them ahead (sync/tree-prefetch.ts): each is
   * taken only where it continues the parent's tree with this block's own leaves, else hashed here.
   */
  precomputedTrees?: PrecomputedTrees | null;
}

export interface ApplyBlockResult {
  tip: ChainStateTip;
  record: BlockChainState;
  /** Outputs this block spends, in input order (its undo data). */
  spent: SpentCoin[];
  /**
   * What each input spends, per transaction in block order (none for a coinbase), outputs of the
   * block itself included; null where a store started from a checkpoint does not know the output.
   */
  inputCoins: (Coin | null)[][];
  /** Outputs this block creates that stay unspent after it. */
  created: { outpoint: OutPoint; coin: Coin }[];
  /** Roots this block gave a tree (one per pool whose root changed). */
  newRoots: { pool: ShieldedPool; root: Uint8Array }[];
  completedSubtrees: { pool: ShieldedPoolId; index: number; root: Uint8Array }[];
  /** The nullifiers the block reveals, to record (zcashd's nullifier sets). */
  nullifiers: RevealedNullifier[];
  /** What could not be verified because the state before it is unknown (checkpoint starts). */
  unverified: string[];
  /** Of `precomputedTrees`' steps, how many were adopted and how many refused (hashed here instead). */
  treeSteps: { adopted: number; refused: number };
}

export type StateRule =
  | 'bad-txns-inputs-missingorspent'
  | 'bad-txns-value-pool'
  | 'value-pool-identity'
  /** zcashd's CheckShieldedRequirements: a nullifier revealed before, or an anchor the chain never had. */
  | `bad-txns-${ShieldedPool}-${'duplicate-nullifier' | 'unknown-anchor'}`
  /** ZIP 209, §4.17 and the supply checks: zcashd's reasons, a pool after zcashd's named as Orchard's. */
  | TurnstileRule
  /** The pool totals at the NU6.1 activation block differ from zcashd's hard-coded checkpoint. */
  | 'bad-chain-supply-checkpoint'
  | ConnectRule
  | HeaderRuleError['rule'];

/** A block that cannot be connected: the height, the field, both values. */
export class StateTransitionError extends Error {
  constructor(
    readonly rule: StateRule,
    readonly height: number,
    readonly blockHash: string,
    message: string,
  ) {
    super(`block ${blockHash} at height ${height} rejected (${rule}): ${message}`);
    this.name = 'StateTransitionError';
  }
}

/** An outpoint's key in the block's maps, from its txid's hex (internal order), which callers make once a transaction or input. */
const outpointKey = (txidKey: string, index: number): string => `${txidKey}:${index}`;

export function applyBlock(input: ApplyBlockInput): ApplyBlockResult {
  const { network, block, height, parent, hashers } = input;
  // A store started from a checkpoint lacks every output created before the start, so there a
  // missing coin makes the transparent and supply values unknown (not monitored, as zcashd
  // shows them) instead of rejecting the block.
  const coinsComplete = parent?.coinsComplete ?? true;
  const hashHex = block.hashHex;
  const fail = (rule: StateRule, message: string): never => {
    throw new StateTransitionError(rule, height, hashHex, message);
  };
  if (parent ? parent.height !== height - 1 || !bytesEqual(parent.hash, block.header.prevHash) : height !== 0) {
    throw new Error(`applyBlock: block ${hashHex} at ${height} does not follow the given parent state`);
  }

  // ---- transparent coins: spends look first at outputs created earlier in this block.
  const createdHere = new Map<string, { outpoint: OutPoint; coin: Coin }>();
  const spent: SpentCoin[] = [];
  const spentHere = new Set<string>();
  const inputCoins: (Coin | null)[][] = [];
  // The genesis block is not connected through these checks in zcashd either.
  const checks = height > 0 ? new ConnectChecks(block, height, network) : null;
  const failWith = (v: ConnectViolation | null): void => {
    if (v) fail(v.rule, v.message);
  };
  block.transactions.forEach((tx, t) => {
    const coins: (Coin | null)[] = [];
    failWith(checks?.beginTransaction(t) ?? null);
    if (!(t === 0 && tx.isCoinbase)) {
      tx.data.vin.forEach((txIn, i) => {
        const key = outpointKey(toHex(txIn.prevout.hash), txIn.prevout.index);
        // A second spend of an outpoint within the block is a double spend, an output of the block
        // included (the coins view never had one, which a store started from a checkpoint would
        // take for an output from before its start).
        if (spentHere.has(key))
          fail('bad-txns-inputs-missingorspent', `${toHexReversed(txIn.prevout.hash)}:${txIn.prevout.index} is spent twice in the block`);
        spentHere.add(key);
        const own = createdHere.get(key);
        let coin: Coin | null;
        if (own) {
          createdHere.delete(key);
          coin = own.coin;
        } else {
          coin = input.coin(txIn.prevout);
          if (!coin && !coinsComplete) {
            coins.push(null);
            return;
          }
          if (!coin) {
            fail(
              'bad-txns-inputs-missingorspent',
              `transaction ${tx.txidHex} input ${i} spends ${toHexReversed(txIn.prevout.hash)}:${txIn.prevout.index}, which is not an unspent output`,
            );
          }
          spent.push({ outpoint: txIn.prevout, coin: coin! });
        }
        coins.push(coin!);
      });
      // A spent output a store started from a checkpoint does not know leaves the fee unknown.
      if (checks && coins.includes(null)) checks.inputUnknown();
      else if (checks) failWith(checks.spends(t, coins as Coin[]));
    }
    inputCoins.push(coins);
    // The genesis coinbase never enters the coins view (zcashd's ConnectBlock returns first).
    if (height === 0) return;
    // A shielded-only transaction has no output to key.
    if (tx.data.vout.length === 0) return;
    const txidKey = toHex(tx.txid);
    tx.data.vout.forEach((out, index) => {
      if (isUnspendable(out.scriptPubKey)) return;
      const outpoint = { hash: tx.txid, index };
      createdHere.set(outpointKey(txidKey, index), {
        outpoint,
        coin: { value: out.value, scriptPubKey: out.scriptPubKey, height, coinbase: t === 0 && tx.isCoinbase },
      });
    });
  });
  // ---- shielded requirements (CheckShieldedRequirements), transaction by transaction: no
  // nullifier revealed before (by an earlier block or transaction), and every anchor a root the
  // chain had before this block (for JoinSplits, also a root the transaction's own earlier
  // JoinSplits reached). A store started from a checkpoint lacks the roots and nullifiers before
  // it: an unknown anchor is then reported, and only nullifiers it has seen are caught.
  const unverified: string[] = [];
  const revealed = new Set<string>();
  const spentBefore = (pool: ShieldedPool, nf: Uint8Array): boolean =>
    revealed.has(pool + toHex(nf)) || (input.nullifierSpent?.(pool, nf) ?? false);
  const unknownAnchor = (rule: StateRule, what: string, anchor: Uint8Array, kind: string): void => {
    if (!coinsComplete) {
      unverified.push(`${what}: its anchor ${toHexReversed(anchor)} predates the checkpoint this store started from`);
      return;
    }
    fail(rule, `${what} uses anchor ${toHexReversed(anchor)}, which is not a known ${kind} root`);
  };
  const requirementView = { nullifierRevealed: spentBefore, anchorKnown: input.anchorKnown };
  const revealedByPool: Uint8Array[] = [];
  // One report callback for the block, reading the transaction being checked.
  let checkedTx = block.transactions[0]!;
  const reportRequirement = (f: ShieldedRequirementFailure): boolean => {
    const what = `${f.part} of transaction ${checkedTx.txidHex}`;
    if (f.kind === 'duplicate-nullifier') fail(f.rule, `${what} reveals nullifier ${toHexReversed(f.value)} again`);
    unknownAnchor(f.rule, what, f.value, f.pool.name);
    return true;
  };
  for (const tx of block.transactions) {
    const d = tx.data;
    const intermediates = d.joinSplits.length > 0 ? new Map<string, IncrementalMerkleTree>() : null;
    d.joinSplits.forEach((js, j) => {
      for (const nf of js.nullifiers) {
        if (spentBefore('sprout', nf))
          fail(
            'bad-txns-sprout-duplicate-nullifier',
            `JoinSplit ${j} of transaction ${tx.txidHex} reveals nullifier ${toHexReversed(nf)} again`,
          );
      }
      if (!input.sproutTreeAt) return;
      const tree = intermediates!.get(toHex(js.anchor))?.clone() ?? input.sproutTreeAt(js.anchor)?.clone() ?? null;
      if (!tree) return unknownAnchor('bad-txns-sprout-unknown-anchor', `JoinSplit ${j} of transaction ${tx.txidHex}`, js.anchor, 'Sprout');
      tree.append(js.commitments[0]);
      tree.append(js.commitments[1]);
      intermediates!.set(toHex(tree.root()), tree);
    });
    checkedTx = tx;
    checkShieldedRequirements(d, requirementView, reportRequirement);
    // SetNullifiers after the transaction: a later transaction of the block may not reveal them again.
    for (const js of d.joinSplits) for (const nf of js.nullifiers) revealed.add('sprout' + toHex(nf));
    for (const pool of SHIELDED_POOL_ENTRIES) {
      pool.nullifiers(d, revealedByPool);
      for (const nf of revealedByPool) revealed.add(pool.id + toHex(nf));
      revealedByPool.length = 0;
    }
  }

  // ---- value pools (§3.1, §3.2)
  let deltas;
  try {
    deltas = blockPoolDeltas(block, network, height, (_txIn, t, i) => inputCoins[t]![i]?.value ?? null);
  } catch (e) {
    if (e instanceof PoolValueError) fail('bad-txns-value-pool', e.message);
    throw e;
  }
  if (checks) {
    failWith(checks.coinbaseAmount(deltas.lockbox));
    if (!checks.feesComplete) {
      unverified.push(
        `the coinbase amount of block ${hashHex} at ${height}: an output the block spends predates the checkpoint this store started from`,
      );
    }
  }
  const identity = poolDeltaIdentityError(deltas);
  if (identity) fail('value-pool-identity', identity);
  const totals = parent ? addPoolTotals(parent.totals, deltas) : genesisPoolTotals(deltas);
  const turnstile = turnstileViolation(totals, height);
  if (turnstile) fail(turnstile.rule, turnstile.message);
  const totalsProblem = poolTotalsError(totals, height);
  if (totalsProblem) fail('value-pool-identity', totalsProblem);
  // zcashd's hard-coded chain-supply checkpoint (§3.6): its own totals must equal it, or it stops.
  const checkpoint = CHAIN_SUPPLY_CHECKPOINTS[network.name];
  if (checkpoint && checkpoint.height === height) {
    for (const [pool, expected] of Object.entries(checkpoint.totals) as [keyof typeof totals, bigint][]) {
      const computed = totals[pool];
      if (computed !== null && computed !== expected) {
        fail(
          'bad-chain-supply-checkpoint',
          `the ${pool} total after the block is ${computed}; zcashd's checkpoint at height ${height} says ${expected}`,
        );
      }
    }
  }

  // ---- note-commitment trees, in block order: Sprout, then each registered pool's leaves
  const { trees, newRoots, completedSubtrees, adopted, refused } = advanceBlockTrees(
    parent?.trees ?? null,
    hashers,
    blockLeaves(block.transactions),
    input.precomputedTrees ?? null,
  );
  // ---- header commitments (§1.2, §2.4) and the history tree (§6)
  const heartwood = isUpgradeActive(network, 'Heartwood', height);
  const nu5 = isUpgradeActive(network, 'NU5', height);
  // Roots are only needed where a header or the history tree commits to them, or getblock
  // prints them: before Sapling neither tree can have leaves, and their hashers stay unbuilt.
  const saplingTreeRoot = height > 0 && isUpgradeActive(network, 'Sapling', height) ? trees.sapling.root() : ZERO32;
  const orchardTreeRoot = nu5 ? trees.orchard.root() : ZERO32;
  // V3 history nodes (NU6.3 on) carry the Ironwood root; before, the tree is not committed to.
  const nu63 = isUpgradeActive(network, 'NU6.3', height);
  const ironwoodTreeRoot = nu63 ? trees.ironwood.root() : null;
  let history = parent?.history ?? null;
  let chainHistoryRoot: Uint8Array = ZERO32;
  let authDataRoot: Uint8Array = ZERO32;
  if (height > 0) {
    if (nu5) authDataRoot = block.computeAuthDataRoot();
    const facts = historyLeafFacts(block, height, {
      saplingRoot: saplingTreeRoot,
      ...(nu5 ? { orchardRoot: orchardTreeRoot } : {}),
      ...(ironwoodTreeRoot ? { ironwoodRoot: ironwoodTreeRoot } : {}),
    });
    let prevRoot: Uint8Array | null;
    if (history === 'unknown') {
      // Without the epoch's earlier leaves prevRoot(h) cannot be computed; an upgrade's
      // activation block starts a fresh tree, which is known again from its own leaf on.
      prevRoot = null;
      const branchId = branchIdAt(network, height);
      const activation = heartwood && branchId !== branchIdAt(network, height - 1);
      history = activation ? appendHistoryLeaf(emptyHistoryTree(branchId), historyLeaf(facts, branchId)) : 'unknown';
    } else {
      const step = connectHistoryBlock(network, history, height, facts);
      history = step.tree;
      prevRoot = step.prevRoot;
    }
    if (prevRoot === null && hasPrevHistoryRoot(network, height)) {
      unverified.push(
        `the header commitment (hashBlockCommitments) of block ${hashHex} at ${height}: the history tree before it is unknown`,
      );
      // zcashd prints the header field between Heartwood and NU5 whatever it holds; from NU5 on
      // the root is not in the header, and unknown roots print as zeros (never-connected rule).
      if (!nu5) chainHistoryRoot = block.header.commitments.slice();
    } else {
      const problem = checkCommitmentField(block.header, height, network, {
        saplingRoot: saplingTreeRoot,
        prevHistoryRoot: prevRoot ?? ZERO32,
        authDataRoot,
      });
      if (problem) {
        throw new StateTransitionError(
          problem.rule,
          height,
          hashHex,
          `${problem.message}: ${problem.field} is ${problem.computed}, the computed value is ${problem.expected}`,
        );
      }
      // Heartwood < h < NU5 prints the header field, which was just checked equal to prevRoot.
      if (hasPrevHistoryRoot(network, height)) chainHistoryRoot = prevRoot!;
    }
  }

  const record = { height, deltas, totals, sproutRoot: trees.sprout.root() } as BlockChainState;
  // Each registered pool's final root from its upgrade on (null before: not printed), and its size.
  const fields = record as unknown as Record<string, Uint8Array | null | number>;
  for (const { entry, id, root, size } of poolMembers()) {
    const active = isUpgradeActive(network, entry.upgrade, height);
    // A pool after zcashd's is not a member of records before its upgrade (absent: nothing in it).
    if (!active && entry.listing === 'extension' && trees[id].size === 0) continue;
    fields[root] = active ? trees[id].root() : null;
    fields[size] = trees[id].size;
  }
  // Before Heartwood zcashd takes the header field verbatim (pre-Sapling it may be zero or the
  // empty root; from Sapling on it was just checked equal to the computed root).
  record.saplingRoot = headerDerivedRoots(network, height, block.header.commitments).finalSaplingRoot?.slice() ?? saplingTreeRoot;
  record.chainHistoryRoot = chainHistoryRoot;
  record.authDataRoot = authDataRoot;
  record.sproutSize = trees.sprout.size;
  return {
    tip: { hash: block.hash, height, trees, history, totals, coinsComplete },
    record,
    spent,
    inputCoins,
    created: [...createdHere.values()],
    newRoots,
    completedSubtrees,
    nullifiers: blockNullifiers(block),
    unverified,
    treeSteps: { adopted: adopted.length, refused: refused.length },
  };
}
