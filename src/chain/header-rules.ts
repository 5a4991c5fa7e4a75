/**
 * The header rules zcashd v6.12.2 applies before a block can join the chain, as pure
 * functions returning a precise error (or null):
 *  - CheckBlockHeader (src/main.cpp): version, Equihash solution, proof of work;
 *  - ContextualCheckBlockHeader: nBits = GetNextWorkRequired, time > median-time-past, time
 *    ≤ MTP + 90 min (from the future-timestamp soft-fork height), time ≤ now + 2 h, no fork
 *    below the last checkpoint, version ≥ 4 — plus the checkpoint and activation-block hashes;
 *  - the era's 32-byte commitment field (ConnectBlock / CheckBlockBodyAuthCommitment);
 *  - the coinbase height (ContextualCheckBlock: BIP34 prefix, and nExpiryHeight from NU5).
 * Rule names are zcashd's reject reasons where it has one.
 */
import { blockHeaderHash, type Block, type BlockHeader } from '../codec/block.js';
import { bytesEqual, hexInt, toHex, toHexReversed } from '../codec/hex.js';
import { verifyEquihash, type EquihashResult } from '../crypto/equihash.js';
import { declaredHeight } from '../codec/coinbase-height.js';
import { ACTIVATION_BLOCK_HASHES, checkpointAt } from './checkpoints.js';
import { MEDIAN_TIME_SPAN, medianTimePast, nextWorkRequired, powLimit, type HeaderTiming } from './difficulty.js';
import { commitmentEra, expectedCommitmentField, type CommitmentEra, type CommitmentInputs } from './commitment-era.js';
import { isUpgradeActive, NETWORK_UPGRADES, type NetworkParams } from './network.js';
import { compactToTarget } from './pow.js';

/** MIN_BLOCK_VERSION (consensus.h); ContextualCheckBlockHeader repeats the bound as "bad-version". */
export const MIN_BLOCK_VERSION = 4;
/** MAX_FUTURE_BLOCK_TIME_MTP (chain.h): 90 minutes past the median time past. */
export const MAX_FUTURE_BLOCK_TIME_MTP = 90 * 60;
/** MAX_FUTURE_BLOCK_TIME_LOCAL (chain.h): 2 hours past the local clock. */
export const MAX_FUTURE_BLOCK_TIME_LOCAL = 2 * 60 * 60;

export type HeaderRule =
  | 'version-too-low'
  | 'invalid-solution'
  | 'high-hash'
  | 'bad-diffbits'
  | 'time-too-old'
  | 'time-too-far-ahead-of-mtp'
  | 'time-too-new'
  | 'bad-version'
  /** zcashd: "forked chain older than last checkpoint" (no reject reason string). */
  | 'fork-before-last-checkpoint'
  /** Not a zcashd reject reason: a header at a checkpoint height with another hash. */
  | 'checkpoint-mismatch'
  /** Not a zcashd reject reason: zcashd shuts down when the chain's activation block differs. */
  | 'activation-block-mismatch'
  | 'bad-sapling-root-in-block'
  | 'bad-heartwood-root-in-block'
  | 'bad-block-commitments-hash'
  | 'bad-cb-height';

export interface HeaderRuleError {
  rule: HeaderRule;
  /** The block's height, null where the check ran without context. */
  height: number | null;
  /** Block hash, RPC (byte-reversed) hex. */
  hash: string;
  /** The header or transaction field at fault (zcashd's member names). */
  field: string;
  expected: string;
  computed: string;
  message: string;
}

function ruleError(
  rule: HeaderRule,
  height: number | null,
  hash: string,
  field: string,
  expected: string,
  computed: string,
  message: string,
): HeaderRuleError {
  return { rule, height, hash, field, expected, computed, message };
}

const uint256Hex = (v: bigint): string => v.toString(16).padStart(64, '0');

// ---------------------------------------------------------------------------------------------
// Context-free checks (CheckBlockHeader).

/** Equihash (n, k): (200, 9) on mainnet and testnet, (48, 5) on regtest. */
export function equihashParams(network: NetworkParams): { n: number; k: number } {
  return network.name === 'regtest' ? { n: 48, k: 5 } : { n: 200, k: 9 };
}

export type PowFailure = 'negative-target' | 'zero-target' | 'overflow-target' | 'target-above-pow-limit' | 'hash-above-target';

export type PowResult = { ok: true; target: bigint } | { ok: false; reason: PowFailure; target: bigint };

/**
 * CheckProofOfWork: nBits must encode a positive, non-overflowing target no higher than
 * powLimit, and the block hash read as a 256-bit little-endian number must not exceed it.
 */
export function checkProofOfWork(hash: Uint8Array, bits: number, network: NetworkParams): PowResult {
  const { target, negative, overflow } = compactToTarget(bits);
  // zcashd rejects these three alike; overflow is named before zero because an overflowing
  // target wraps (often to zero) and "overflow" is the cause.
  if (negative) return { ok: false, reason: 'negative-target', target };
  if (overflow) return { ok: false, reason: 'overflow-target', target };
  if (target === 0n) return { ok: false, reason: 'zero-target', target };
  if (target > powLimit(network)) return { ok: false, reason: 'target-above-pow-limit', target };
  if (BigInt('0x' + toHexReversed(hash)) > target) return { ok: false, reason: 'hash-above-target', target };
  return { ok: true, target };
}

/**
 * CheckBlockHeader with fCheckPOW: version ≥ 4, a valid Equihash solution over the 140-byte
 * header prefix, then proof of work. `height` only labels the error.
 */
export function checkBlockHeader(
  header: BlockHeader,
  network: NetworkParams,
  height: number | null = null,
  options: {
    verifySolution?: boolean;
    /** verifyEquihash's verdict on exactly these header bytes, computed ahead (on a worker thread). */
    solutionResult?: EquihashResult;
  } = {},
): HeaderRuleError | null {
  const hashBytes = blockHeaderHash(header);
  const hash = toHexReversed(hashBytes);
  if (header.version < MIN_BLOCK_VERSION) {
    return ruleError(
      'version-too-low',
      height,
      hash,
      'nVersion',
      `>= ${MIN_BLOCK_VERSION}`,
      String(header.version),
      'block version too low',
    );
  }
  const { n, k } = equihashParams(network);
  // An operator importing from a source they trust may skip the solution, the costliest check;
  // the proof-of-work target below is always checked.
  const eq =
    options.verifySolution === false
      ? ({ ok: true } as const)
      : (options.solutionResult ?? verifyEquihash(n, k, header.bytes.subarray(0, 140), header.solution));
  if (!eq.ok) {
    return ruleError(
      'invalid-solution',
      height,
      hash,
      'nSolution',
      `a valid Equihash (${n}, ${k}) solution`,
      `${eq.reason}: ${eq.detail}`,
      'Equihash solution invalid',
    );
  }
  const pow = checkProofOfWork(hashBytes, header.bits, network);
  if (!pow.ok) {
    const onHash = pow.reason === 'hash-above-target';
    return ruleError(
      'high-hash',
      height,
      hash,
      onHash ? 'hash' : 'nBits',
      onHash ? `<= ${uint256Hex(pow.target)}` : `a positive target <= powLimit ${uint256Hex(powLimit(network))}`,
      onHash ? hash : `${hexInt(header.bits)} (${pow.reason})`,
      'proof of work failed',
    );
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Contextual checks (ContextualCheckBlockHeader).

export interface HeaderContext {
  network: NetworkParams;
  /**
   * The previous headers, oldest first, at consecutive heights, ending with the parent: at least
   * NEXT_WORK_WINDOW (28) of them or back to genesis. Empty only for the genesis block.
   */
  chain: readonly HeaderTiming[];
  /** The local clock (GetTime()), Unix seconds. */
  now: number;
  /**
   * Height of the last checkpoint block already in the caller's index. zcashd rejects any header
   * below it; omit to skip that rule (e.g. when importing a single chain in order).
   */
  lastCheckpointInIndex?: number;
}

/** The height from which a block may be at most 90 minutes ahead of the median time past. */
export function futureTimestampSoftForkHeight(network: NetworkParams): number {
  // Testnet violated the rule before Blossom, so zcashd starts it 6 blocks after Blossom there.
  if (network.name === 'testnet') return network.activationHeights.Blossom! + 6;
  return 2;
}

/**
 * ContextualCheckBlockHeader, in zcashd's order, then the checkpoint and activation-block
 * hashes. The genesis block (hash = the network's genesis hash) passes unconditionally.
 */
export function contextualCheckBlockHeader(header: BlockHeader, ctx: HeaderContext): HeaderRuleError | null {
  const { network, chain } = ctx;
  const hash = toHexReversed(blockHeaderHash(header));
  if (hash === network.genesisHash) return null;
  if (chain.length === 0) throw new RangeError('contextualCheckBlockHeader: a non-genesis header needs its parent');
  const parent = chain[chain.length - 1]!;
  const height = parent.height + 1;
  requireMedianTimeSpan(chain);

  const required = nextWorkRequired(network, chain, header.time);
  if (header.bits >>> 0 !== required) {
    return ruleError('bad-diffbits', height, hash, 'nBits', hexInt(required), hexInt(header.bits), 'incorrect proof of work');
  }

  const mtp = medianTimePast(chain);
  if (header.time <= mtp) {
    return ruleError(
      'time-too-old',
      height,
      hash,
      'nTime',
      `> ${mtp}`,
      String(header.time),
      `timestamp ${header.time} is not later than median-time-past ${mtp}`,
    );
  }
  if (height >= futureTimestampSoftForkHeight(network) && header.time > mtp + MAX_FUTURE_BLOCK_TIME_MTP) {
    const limit = mtp + MAX_FUTURE_BLOCK_TIME_MTP;
    return ruleError(
      'time-too-far-ahead-of-mtp',
      height,
      hash,
      'nTime',
      `<= ${limit}`,
      String(header.time),
      `timestamp ${header.time} is too far ahead of median-time-past, limit is ${limit}`,
    );
  }
  const localLimit = ctx.now + MAX_FUTURE_BLOCK_TIME_LOCAL;
  if (header.time > localLimit) {
    return ruleError(
      'time-too-new',
      height,
      hash,
      'nTime',
      `<= ${localLimit}`,
      String(header.time),
      `timestamp ${header.time} is too far ahead of local time, limit is ${localLimit}`,
    );
  }

  if (ctx.lastCheckpointInIndex !== undefined && height < ctx.lastCheckpointInIndex) {
    return ruleError(
      'fork-before-last-checkpoint',
      height,
      hash,
      'height',
      `>= ${ctx.lastCheckpointInIndex}`,
      String(height),
      `forked chain older than last checkpoint (height ${height})`,
    );
  }
  if (header.version < MIN_BLOCK_VERSION) {
    return ruleError(
      'bad-version',
      height,
      hash,
      'nVersion',
      `>= ${MIN_BLOCK_VERSION}`,
      String(header.version),
      'rejected nVersion<4 block',
    );
  }
  return checkCheckpoint(network, height, hash);
}

/** The parent's median time past reads it and up to 10 ancestors: they must all be given. */
function requireMedianTimeSpan(chain: readonly HeaderTiming[]): void {
  const parent = chain[chain.length - 1]!;
  const needed = Math.min(MEDIAN_TIME_SPAN, parent.height + 1);
  if (chain.length < needed) {
    throw new RangeError(`contextualCheckBlockHeader: ${needed} headers ending at ${parent.height} are needed, ${chain.length} given`);
  }
  for (let i = chain.length - needed + 1; i < chain.length; i++) {
    if (chain[i]!.height !== chain[i - 1]!.height + 1) {
      throw new RangeError(`contextualCheckBlockHeader: heights not consecutive at ${chain[i - 1]!.height} → ${chain[i]!.height}`);
    }
  }
}

/** A header at a checkpoint or upgrade-activation height must carry the pinned hash. */
export function checkCheckpoint(network: NetworkParams, height: number, hash: string): HeaderRuleError | null {
  const pinned = checkpointAt(network.name, height);
  if (pinned !== undefined && pinned !== hash) {
    return ruleError('checkpoint-mismatch', height, hash, 'hash', pinned, hash, `block at checkpoint height ${height} has another hash`);
  }
  const activations = ACTIVATION_BLOCK_HASHES[network.name];
  for (const upgrade of NETWORK_UPGRADES) {
    const expected = activations[upgrade];
    if (expected !== undefined && network.activationHeights[upgrade] === height && expected !== hash) {
      return ruleError('activation-block-mismatch', height, hash, 'hash', expected, hash, `${upgrade} activation block has another hash`);
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The 32-byte commitment field (header bytes 68..100), by era (spec §1.2): what it means
// at a height is chain/commitment-era.ts'; the reject reason per era is zcashd's.

export { commitmentEra, expectedCommitmentField, type CommitmentEra, type CommitmentInputs } from './commitment-era.js';

const COMMITMENT_RULES: Record<Exclude<CommitmentEra, 'reserved'>, { rule: HeaderRule; what: string }> = {
  'final-sapling-root': { rule: 'bad-sapling-root-in-block', what: 'should be Sapling tree root' },
  'heartwood-activation': { rule: 'bad-heartwood-root-in-block', what: 'should be null' },
  'light-client-root': { rule: 'bad-heartwood-root-in-block', what: 'should be history tree root' },
  'block-commitments': { rule: 'bad-block-commitments-hash', what: 'should be ZIP 244 block commitment' },
};

/** The commitment field check of ConnectBlock / CheckBlockBodyAuthCommitment. */
export function checkCommitmentField(
  header: BlockHeader,
  height: number,
  network: NetworkParams,
  inputs: CommitmentInputs,
): HeaderRuleError | null {
  const expected = expectedCommitmentField(network, height, inputs);
  if (expected === null || bytesEqual(expected, header.commitments)) return null;
  const { rule, what } = COMMITMENT_RULES[commitmentEra(network, height) as Exclude<CommitmentEra, 'reserved'>];
  return ruleError(
    rule,
    height,
    toHexReversed(blockHeaderHash(header)),
    'hashBlockCommitments',
    toHexReversed(expected),
    toHexReversed(header.commitments),
    `block's hashBlockCommitments is incorrect (${what})`,
  );
}

// ---------------------------------------------------------------------------------------------
// Coinbase height (ContextualCheckBlock).

/** `CScript() << height`: OP_0, OP_1..OP_16, or a push of the minimal CScriptNum encoding. */
export function coinbaseHeightPrefix(height: number): Uint8Array {
  if (!Number.isSafeInteger(height) || height < 0) throw new RangeError(`coinbaseHeightPrefix: bad height ${height}`);
  if (height === 0) return Uint8Array.of(0x00);
  if (height <= 16) return Uint8Array.of(0x50 + height);
  const num: number[] = [];
  for (let v = height; v > 0; v = Math.floor(v / 256)) num.push(v % 256);
  // A set top bit would read as negative, so a sign byte follows.
  if (num[num.length - 1]! & 0x80) num.push(0);
  return Uint8Array.of(num.length, ...num);
}

/**
 * The coinbase must start with `CScript() << height` (every block after genesis), and from
 * NU5 its nExpiryHeight must equal the height (ZIP 203). Both are zcashd's "bad-cb-height".
 */
export function checkCoinbaseHeight(block: Block, height: number, network: NetworkParams): HeaderRuleError | null {
  if (height === 0) return null;
  const hash = block.hashHex;
  const coinbase = block.transactions[0];
  const scriptSig = coinbase?.isCoinbase ? coinbase.data.vin[0]!.scriptSig : null;
  const expected = coinbaseHeightPrefix(height);
  if (!scriptSig || scriptSig.length < expected.length || !bytesEqual(scriptSig.subarray(0, expected.length), expected)) {
    const declared = scriptSig ? declaredHeight(block) : null;
    const computed = scriptSig
      ? `${toHex(scriptSig.subarray(0, expected.length))} (declared height ${declared ?? 'unreadable'})`
      : 'no coinbase';
    return ruleError('bad-cb-height', height, hash, 'coinbase scriptSig', toHex(expected), computed, 'block height mismatch in coinbase');
  }
  if (isUpgradeActive(network, 'NU5', height) && coinbase!.data.expiryHeight !== height) {
    return ruleError(
      'bad-cb-height',
      height,
      hash,
      'nExpiryHeight',
      String(height),
      String(coinbase!.data.expiryHeight),
      'block height mismatch in nExpiryHeight',
    );
  }
  return null;
}
