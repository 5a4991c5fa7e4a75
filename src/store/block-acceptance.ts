/**
 * Block acceptance: what a raw block must pass before anything of it is written, as zcashd's
 * AcceptBlock / CheckBlock / ContextualCheckBlock (without the coins, which the chain state
 * checks when the block is connected). A block the store already holds is answered as a
 * duplicate; a refused one throws BlockRejectedError (UnknownParentError for a missing parent).
 */
import { blockWork } from '../chain/pow.js';
import { lastCheckpointReached } from '../chain/checkpoints.js';
import { BRANCH_IDS, NETWORK_UPGRADES, type NetworkParams } from '../chain/network.js';
import { checkedMerkleRoot, decodeBlock, decodeBlockHeader, type Block, type BlockHeader } from '../codec/block.js';
import { acceptanceForNetwork, CURRENT_CHAIN_ACCEPTANCE } from '../codec/tx/acceptance.js';
import { bytesEqual, hexInt, toHexReversed } from '../codec/hex.js';
import type { EquihashResult } from '../crypto/equihash.js';
import { sha256d } from '../crypto/hash.js';
import type { ChainDb } from './chain-db.js';
import { BlockRejectedError, UnknownParentError } from './errors.js';
import { validateBlockHeader } from './header-validation.js';
import type { IndexRecord } from './layout.js';

/** zcashd's MAX_BLOCK_SIZE (2 MB since Sapling; larger blocks never existed). */
export const MAX_BLOCK_SIZE = 2_000_000;

/**
 * Equihash verdicts an importer computed ahead (sync/solution-prefetch.ts): the verdict on a
 * block's solution, taken once, or null when none was started for it.
 */
export interface SolutionVerdicts {
  take(hash: Uint8Array): Promise<EquihashResult | null> | null;
}

export interface AcceptanceRules {
  network: NetworkParams;
  genesisHash: Uint8Array;
  verifySolutions: boolean;
  now: () => number;
  log: (line: string) => void;
}

/** A block that passed every check that needs no coins, with where it goes in the block index. */
export interface AcceptedBlock {
  hash: Uint8Array;
  hashHex: string;
  header: BlockHeader;
  block: Block;
  txids: Uint8Array[];
  height: number;
  parentChainTx: number;
  chainWork: bigint;
}

export type Acceptance = { duplicate: { hash: Uint8Array; record: IndexRecord } } | { accepted: AcceptedBlock };

export async function acceptBlock(
  db: ChainDb,
  rules: AcceptanceRules,
  bytes: Uint8Array,
  solutions?: SolutionVerdicts,
): Promise<Acceptance> {
  const { network } = rules;
  if (bytes.length > MAX_BLOCK_SIZE) {
    throw new BlockRejectedError('too-large', `block rejected: ${bytes.length} bytes exceeds the ${MAX_BLOCK_SIZE}-byte maximum`, null);
  }
  let header: BlockHeader;
  try {
    header = decodeBlockHeader(bytes);
  } catch (e) {
    throw new BlockRejectedError('decode', `block rejected: its header does not decode (${(e as Error).message})`, null);
  }
  const hash = sha256d(header.bytes);
  const hashHex = toHexReversed(hash);
  const existing = (await db.mayBeStored(header)) ? await db.record(hash) : null;
  // A header-only record (a checkpoint start's headers) keeps its checkpoint values: its body is not taken.
  if (existing) return { duplicate: { hash, record: existing } };
  if (header.solution.length !== network.solutionSize) {
    throw new BlockRejectedError(
      'network',
      `block ${hashHex} rejected: its Equihash solution is ${header.solution.length} bytes, ${network.name} blocks have ${network.solutionSize}`,
      hash,
    );
  }
  let block: Block;
  try {
    block = decodeBlock(bytes, acceptanceForNetwork(network));
  } catch (e) {
    throw new BlockRejectedError(
      'decode',
      `block ${hashHex} rejected: it does not decode (${(e as Error).message})${unscheduledUpgradeHint(bytes, network)}`,
      hash,
    );
  }
  if (block.bytes.length !== bytes.length) {
    throw new BlockRejectedError(
      'decode',
      `block ${hashHex} rejected: ${bytes.length - block.bytes.length} unexpected bytes after the block`,
      hash,
    );
  }
  const txids = block.transactions.map((t) => t.txid);
  const { root: computedRoot, mutated } = checkedMerkleRoot(txids);
  // Refused before anything is stored, and the hash not marked invalid (zcashd's "corruption
  // possible"): the block without the repeats has this same hash and may still arrive.
  if (mutated) {
    throw new BlockRejectedError(
      'merkle-root',
      `block ${hashHex} rejected: bad-txns-duplicate: its transaction list repeats transactions in a way that keeps the merkle root of the list without them (CVE-2012-2459)`,
      hash,
      'bad-txns-duplicate',
    );
  }
  if (!bytesEqual(computedRoot, header.merkleRoot)) {
    throw new BlockRejectedError(
      'merkle-root',
      `block ${hashHex} rejected: header merkle root ${toHexReversed(header.merkleRoot)} does not match its transactions (${toHexReversed(computedRoot)})`,
      hash,
      'bad-txnmrklroot',
    );
  }

  let height: number;
  let parentWork: bigint;
  let parentChainTx: number;
  if (header.prevHash.every((b) => b === 0)) {
    if (!bytesEqual(hash, rules.genesisHash)) {
      throw new BlockRejectedError(
        'genesis',
        `block ${hashHex} rejected: it has no parent but is not the ${network.name} genesis block ${network.genesisHash}`,
        hash,
      );
    }
    height = 0;
    parentWork = 0n;
    parentChainTx = 0;
  } else {
    const parent = await db.record(header.prevHash);
    if (!parent) throw new UnknownParentError(hash, header.prevHash);
    height = parent.height + 1;
    parentWork = parent.chainWork;
    parentChainTx = db.requireChainTx(header.prevHash);
    if (db.isInvalid(header.prevHash)) {
      throw new BlockRejectedError(
        'invalid-parent',
        `block ${hashHex} rejected: its parent ${toHexReversed(header.prevHash)} is invalid`,
        hash,
      );
    }
  }
  const solutionResult = await solutions?.take(hash);
  const headerProblem = await validateBlockHeader(block, height, network, (count) => db.ancestorHeaders(header.prevHash, count), {
    verifySolutions: rules.verifySolutions,
    ...(solutionResult ? { solutionResult } : {}),
    now: rules.now,
    unverified: (line) => rules.log(`not verified: ${line}`),
    lastCheckpoint: db.best ? lastCheckpointReached(network.name, db.best.height) : undefined,
  });
  if (headerProblem && 'field' in headerProblem) {
    throw new BlockRejectedError(
      'header',
      `block ${hashHex} at height ${height} rejected (${headerProblem.rule}): ${headerProblem.message}; ${headerProblem.field}: expected ${headerProblem.expected}, found ${headerProblem.computed}`,
      hash,
      headerProblem.rule,
    );
  }
  if (headerProblem) {
    const where = headerProblem.tx ? ` in transaction ${headerProblem.tx.txid} (position ${headerProblem.tx.index})` : '';
    throw new BlockRejectedError(
      'transactions',
      `block ${hashHex} at height ${height} rejected (${headerProblem.rule})${where}: ${headerProblem.message}`,
      hash,
      headerProblem.rule,
    );
  }
  const chainWork = parentWork + blockWork(header.bits);
  return { accepted: { hash, hashHex, header, block, txids, height, parentChainTx, chainWork } };
}

/**
 * Why a block this node's schedule cannot read would decode on today's chain: the first
 * transaction carrying the branch id or the v6 format of an upgrade the schedule leaves out (a
 * `-compat=6.12.2` node, or regtest without those `-nuparams`), and how to follow it. Empty when
 * the block fails for another reason. Only a refused block pays for the second decode.
 */
function unscheduledUpgradeHint(bytes: Uint8Array, network: NetworkParams): string {
  const accepted = acceptanceForNetwork(network);
  if (accepted === CURRENT_CHAIN_ACCEPTANCE) return '';
  let block: Block;
  try {
    block = decodeBlock(bytes, CURRENT_CHAIN_ACCEPTANCE);
  } catch {
    return '';
  }
  for (const tx of block.transactions) {
    const id = tx.data.consensusBranchId;
    const v6 = tx.data.format === 'v6';
    if (!v6 && (id === null || accepted.acceptsBranchId(id))) continue;
    const upgrade = NETWORK_UPGRADES.find((u) => BRANCH_IDS[u] === id);
    const what = `${v6 ? 'is a v6 transaction with' : 'carries'} consensus branch id ${id === null ? 'none' : hexInt(id)}`;
    return (
      `: transaction ${tx.txidHex} ${what} (${upgrade ?? 'an unknown upgrade'}), which this node's ` +
      `network upgrade schedule does not include (-compat=6.12.2 reproduces zcashd v6.12.2, which knows no upgrade after NU6.1; ` +
      `-compat=current, the default, follows today's chain${network.name === 'regtest' ? ', with -nuparams for its upgrades' : ''})`
    );
  }
  return '';
}
