/**
 * Synthetic regtest blocks built with the project's own encoder (encodeTransaction, encodeBlock,
 * merkleRoot). Used to generate test-vectors/regtest-reorg/ and, at run time, larger chains for the
 * benchmark and the kill -9 reliability script.
 *
 * The chain starts from the *real* regtest genesis block, rebuilt from zcashd v6.12.2 chainparams.cpp
 * values (CreateGenesisBlock: the shared genesis coinbase, nTime 1296688602, nBits 0x200f0f0f, nonce 9,
 * the 36-byte Equihash solution); `regtestGenesis()` checks its hash against REGTEST.genesisHash, so the
 * store's genesis check stays strict for regtest too. Later blocks are coinbase-only (optionally with
 * extra transaction bytes). Each coinbase pays the miner 6.25 ZEC (less where the subsidy left to the
 * miner is smaller) and every output the consensus rules require at its height on its network (the
 * founders' reward on regtest before Canopy), so it stays within zcashd's coinbase amount: blocks
 * carrying fees pay less than they could, which zcashd accepts before NU6 (from NU6 it wants the
 * exact amount, and these builders make no NU6 chain). They pass zcashd's header rules: valid merkle roots, the BIP34 height
 * first in the coinbase, bits 0x200f0f0f (regtest never retargets, so every block repeats the
 * genesis bits), times 150 s apart (strictly increasing, so always above the median time past and
 * far below its 90-minute limit), and a real Equihash (48, 5) solution whose block hash meets the
 * target: each block is mined (see `mine`). A network of regtest's rules with mainnet's solution
 * size gets stand-in solutions of that size instead (`standInSolution`, `standInGenesis`).
 */
import { blockRewardSplit, addressScript } from '../src/chain/funding-streams.js';
import { branchIdAt, REGTEST, type NetworkParams } from '../src/chain/network.js';
import { compactToTarget } from '../src/chain/pow.js';
import { encodeBlock, encodeBlockHeader, HEADER_PREFIX_SIZE, merkleRoot, type BlockHeader } from '../src/codec/block.js';
import { compactSizeLength } from '../src/codec/bytes.js';
import { sha256, sha256d } from '../src/crypto/hash.js';
import { hexToBytes, reversedHexToBytes, toHexReversed } from '../src/codec/hex.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../src/codec/tx/acceptance.js';
import { decodeTransaction, encodeTransaction } from '../src/codec/tx/transaction.js';
import {
  NU5_VERSION_GROUP_ID,
  NU6_3_VERSION_GROUP_ID,
  SAPLING_VERSION_GROUP_ID,
  type TransactionData,
  type TxOut,
} from '../src/codec/tx/types.js';
import { solveEquihash } from './equihash-solver.js';

export const REGTEST_BITS = 0x200f0f0f;
const GENESIS_TIME = 1296688602;
/** chainparams.cpp: the genesis timestamp string and output public key shared by all three networks. */
const GENESIS_TIMESTAMP = 'Zcash0b9c4eef8b7cc417ee5001e3500984b6fea35683a7cac141a043c42064835d34';
const GENESIS_PUBKEY =
  '04678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5f';
const REGTEST_GENESIS_SOLUTION = '01936b7db1eb4ac39f151b8704642d0a8bda13ec547d54cd5e43ba142fc6d8877cab07b3';
/** Regtest's Equihash parameters (chainparams.cpp: nEquihashN = 48, nEquihashK = 5). */
const EQUIHASH_N = 48;
const EQUIHASH_K = 5;
const SOLUTION_SIZE = 36;
/** Header bytes hashed for the block hash: the prefix, CompactSize(solution size), the solution. */
const headerSize = (solutionSize: number): number => HEADER_PREFIX_SIZE + compactSizeLength(solutionSize) + solutionSize;
/** Where nNonce starts in the header (after version, prevHash, merkleRoot, commitments, time, bits). */
const NONCE_OFFSET = HEADER_PREFIX_SIZE - 32;

export interface BuiltBlock {
  height: number;
  hash: Uint8Array;
  hashHex: string;
  bytes: Uint8Array;
}

function push(data: Uint8Array): Uint8Array {
  if (data.length >= 0x4c) throw new Error('push too long for this helper');
  return Uint8Array.of(data.length, ...data);
}

/** CScriptNum serialization: minimal little-endian, sign bit in the top byte. */
function scriptNum(n: number): Uint8Array {
  const out: number[] = [];
  let v = Math.abs(n);
  while (v > 0) {
    out.push(v & 0xff);
    v = Math.floor(v / 256);
  }
  if (out.length && out[out.length - 1]! & 0x80) out.push(n < 0 ? 0x80 : 0);
  else if (out.length && n < 0) out[out.length - 1]! |= 0x80;
  return Uint8Array.from(out);
}

/** `CScript() << n`: OP_0, OP_1..OP_16, or a minimal push (as BIP34 coinbase heights are written). */
function pushNumber(n: number): Uint8Array {
  if (n === 0) return Uint8Array.of(0x00);
  if (n >= 1 && n <= 16) return Uint8Array.of(0x50 + n);
  return push(scriptNum(n));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts));
}

/** The coinbase formats the builders make: v1 before Overwinter, then v4, v5 (NU5) or v6 (NU6.3). */
export type CoinbaseFormat = 'v1' | 'v4' | 'v5' | 'v6';

const COINBASE_HEADERS: Readonly<Record<CoinbaseFormat, { version: number; versionGroupId: number }>> = {
  v1: { version: 1, versionGroupId: 0 },
  v4: { version: 4, versionGroupId: SAPLING_VERSION_GROUP_ID },
  v5: { version: 5, versionGroupId: NU5_VERSION_GROUP_ID },
  v6: { version: 6, versionGroupId: NU6_3_VERSION_GROUP_ID },
};

/**
 * A coinbase: v5 and v6 carry the epoch's branch id (`branchId`) and, as ZIP 203 asks of a
 * coinbase from NU5, the block's height as expiry height.
 */
function coinbaseTx(
  scriptSig: Uint8Array,
  vout: TxOut[],
  format: CoinbaseFormat = 'v1',
  at?: { height: number; branchId: number },
  edit?: (tx: TransactionData) => void,
): Uint8Array {
  const withBranch = format === 'v5' || format === 'v6';
  if (withBranch && !at) throw new Error(`a ${format} coinbase needs its height and branch id`);
  const tx: TransactionData = {
    format,
    overwintered: format !== 'v1',
    ...COINBASE_HEADERS[format],
    consensusBranchId: withBranch ? at!.branchId : null,
    lockTime: 0,
    expiryHeight: withBranch ? at!.height : 0,
    vin: [{ prevout: { hash: new Uint8Array(32), index: 0xffffffff }, scriptSig, sequence: 0xffffffff }],
    vout,
    joinSplits: [],
    joinSplitPubKey: null,
    joinSplitSig: null,
    sapling: null,
    orchard: null,
    ...(format === 'v6' ? { ironwood: null } : {}),
  };
  edit?.(tx);
  return encodeTransaction(tx);
}

function header(
  prevHash: Uint8Array,
  txBytes: readonly Uint8Array[],
  time: number,
  nonce: Uint8Array,
  solution: Uint8Array,
): Omit<BlockHeader, 'bytes'> {
  return {
    version: 4,
    prevHash,
    merkleRoot: merkleRoot(txBytes.map((t) => decodeTransaction(t, CURRENT_CHAIN_ACCEPTANCE).txid)),
    commitments: new Uint8Array(32),
    time,
    bits: REGTEST_BITS,
    nonce,
    solution,
  };
}

function finish(height: number, bytes: Uint8Array, solutionSize = SOLUTION_SIZE): BuiltBlock {
  const hash = sha256d(bytes.subarray(0, headerSize(solutionSize)));
  return { height, hash, hashHex: toHexReversed(hash), bytes };
}

/** The target of REGTEST_BITS as 32 little-endian bytes, the byte order of a block hash. */
const TARGET_LE = (() => {
  const out = new Uint8Array(32);
  let t = compactToTarget(REGTEST_BITS).target;
  for (let i = 0; i < 32; i++, t >>= 8n) out[i] = Number(t & 0xffn);
  return out;
})();

/** CheckProofOfWork's comparison: the hash, read as a little-endian number, is at most the target. */
function meetsTarget(hash: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) if (hash[i] !== TARGET_LE[i]) return hash[i]! < TARGET_LE[i]!;
  return true;
}

/**
 * A stand-in solution of `size` bytes for the seed nonce `seed`: SHA-256 of seed ‖ counter, as
 * uniform as a real solution's packed indices. For chains whose headers must have mainnet's size,
 * 1,344 bytes for Equihash (200, 9), where finding a real solution takes far longer than a bench
 * can spend on each of 100,000 headers: such a block passes every check but the solution's, so a
 * store takes it only with solutions unchecked (`verifySolutions: false`,
 * `zecrpc import --no-verify-equihash`).
 */
function standInSolution(seed: Uint8Array, size: number): Uint8Array {
  const solution = new Uint8Array(size);
  for (let at = 0, counter = 0; at < size; at += 32, counter++) {
    const block = sha256(Buffer.concat([seed, Uint8Array.of(counter & 0xff, counter >>> 8)]));
    solution.set(block.subarray(0, Math.min(32, size - at)), at);
  }
  return solution;
}

/**
 * Mines `fields` (whose nonce is the seed and whose solution is ignored) with a solution of
 * `solutionSize` bytes: for attempt 0, 1, 2, … the nonce is the seed with its first four bytes
 * replaced by le32(attempt), each attempt's candidate solutions are tried in turn, and the first
 * whose block hash meets the target wins. Regtest's 36 bytes get real Equihash (48, 5)
 * solutions, in the solver's sorted order: an input has about 0.75 of them and a solution's hash
 * meets 0x200f0f0f's target with probability ≈ 1/17, so a block takes ~23 attempts on average.
 * Any other size gets one stand-in for every attempt (`standInSolution`), ~17 attempts.
 * Deterministic: the same fields always give the same nonce and solution.
 */
function mine(fields: Omit<BlockHeader, 'bytes'>, solutionSize: number): { nonce: Uint8Array; solution: Uint8Array } {
  const bytes = encodeBlockHeader({ ...fields, solution: new Uint8Array(solutionSize) });
  const prefix = bytes.subarray(0, HEADER_PREFIX_SIZE);
  const solutionAt = HEADER_PREFIX_SIZE + compactSizeLength(solutionSize);
  const standIn = solutionSize === SOLUTION_SIZE ? null : [standInSolution(fields.nonce, solutionSize)];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let attempt = 0; attempt <= 0xffffffff; attempt++) {
    view.setUint32(NONCE_OFFSET, attempt, true);
    for (const solution of standIn ?? solveEquihash(EQUIHASH_N, EQUIHASH_K, prefix)) {
      bytes.set(solution, solutionAt);
      if (meetsTarget(sha256d(bytes))) return { nonce: bytes.slice(NONCE_OFFSET, HEADER_PREFIX_SIZE), solution };
    }
  }
  throw new Error('mine: no nonce meets the target');
}

/** The genesis coinbase all three networks share (CreateGenesisBlock). */
function genesisCoinbase(): Uint8Array {
  const scriptSig = concat(push(scriptNum(520617983)), push(scriptNum(4)), push(Buffer.from(GENESIS_TIMESTAMP, 'ascii')));
  const scriptPubKey = concat(Uint8Array.of(0x41), hexToBytes(GENESIS_PUBKEY), Uint8Array.of(0xac));
  return coinbaseTx(scriptSig, [{ value: 0, scriptPubKey }]);
}

/** The regtest genesis nonce (chainparams.cpp: 9). */
const GENESIS_NONCE = reversedHexToBytes('0000000000000000000000000000000000000000000000000000000000000009');

/** The real regtest genesis block (hash 029f11d8…e327), rebuilt from chainparams values. */
export function regtestGenesis(): BuiltBlock {
  const coinbase = genesisCoinbase();
  const bytes = encodeBlock(header(new Uint8Array(32), [coinbase], GENESIS_TIME, GENESIS_NONCE, hexToBytes(REGTEST_GENESIS_SOLUTION)), [
    coinbase,
  ]);
  const built = finish(0, bytes);
  if (built.hashHex !== REGTEST.genesisHash)
    throw new Error(`rebuilt regtest genesis hashes to ${built.hashHex}, expected ${REGTEST.genesisHash}`);
  return built;
}

/**
 * Regtest's genesis block with a stand-in solution of `solutionSize` bytes (`standInSolution`) in
 * place of its real 36-byte one: the genesis of a network whose headers have another size, so
 * its hash is that network's own `genesisHash`.
 */
export function standInGenesis(solutionSize: number): BuiltBlock {
  const coinbase = genesisCoinbase();
  const fields = header(new Uint8Array(32), [coinbase], GENESIS_TIME, GENESIS_NONCE, new Uint8Array(solutionSize));
  return finish(0, encodeBlock({ ...fields, ...mine(fields, solutionSize) }, [coinbase]), solutionSize);
}

/** A P2PKH-shaped script to a fixed, keyless hash: coinbase outputs only need to decode. */
const PAYOUT_SCRIPT = concat(
  Uint8Array.of(0x76, 0xa9, 0x14),
  sha256(Buffer.from('zecrpc regtest payout')).subarray(0, 20),
  Uint8Array.of(0x88, 0xac),
);

export interface BlockSpec {
  parent: BuiltBlock;
  /** Distinguishes competing branches (goes into the coinbase and the nonce). */
  tag: string;
  /** Extra transaction bytes after the coinbase. */
  extraTxs?: readonly Uint8Array[];
  /** A Sapling (v4) coinbase instead of a v1 one, as once Overwinter is active. */
  saplingCoinbase?: boolean;
  /** The coinbase's format (overrides `saplingCoinbase`): v5 and v6 carry the network's branch id at the height. */
  coinbaseFormat?: CoinbaseFormat;
  /**
   * The header's 32-byte commitment field (zeros unless given), or how to compute it from the
   * block's transactions (coinbase first), for fields that commit to them (hashBlockCommitments).
   */
  commitments?: Uint8Array | ((txs: readonly Uint8Array[]) => Uint8Array | null);
  /** Changes the coinbase before it is encoded (shielded outputs in it, or a rule it breaks). */
  editCoinbase?: (tx: TransactionData) => void;
  /**
   * Whose reward rules the coinbase follows (regtest unless given), and whose solution size the
   * header has: regtest's 36 bytes get a real (48, 5) solution, any other size a stand-in (`mine`).
   */
  network?: NetworkParams;
}

/** What the builders' coinbases pay their miner at most. */
export const MINER_PAYOUT = 625_000_000;

/** The coinbase outputs at `height`: the miner's, then every payment the consensus rules require. */
function coinbaseOutputs(height: number, network: NetworkParams): TxOut[] {
  const split = blockRewardSplit(height, network);
  const miner = Math.min(MINER_PAYOUT, Number(split.minerSubsidy));
  return [
    { value: miner, scriptPubKey: PAYOUT_SCRIPT },
    ...split.requiredPayments.map((p) => ({ value: Number(p.amount), scriptPubKey: addressScript(p.address, network) })),
  ];
}

export function buildBlock({
  parent,
  tag,
  extraTxs = [],
  saplingCoinbase = false,
  coinbaseFormat,
  commitments,
  editCoinbase,
  network = REGTEST,
}: BlockSpec): BuiltBlock {
  const height = parent.height + 1;
  const scriptSig = concat(pushNumber(height), push(Buffer.from(tag, 'utf8')));
  const format = coinbaseFormat ?? (saplingCoinbase ? 'v4' : 'v1');
  const at = { height, branchId: branchIdAt(network, height) };
  const coinbase = coinbaseTx(scriptSig, coinbaseOutputs(height, network), format, at, editCoinbase);
  const txs = [coinbase, ...extraTxs];
  const seed = sha256(Buffer.from(`${tag}/${height}`, 'utf8'));
  const time = GENESIS_TIME + 150 * height + (tag.length % 7);
  const field = typeof commitments === 'function' ? commitments(txs) : commitments;
  const fields = { ...header(parent.hash, txs, time, seed, new Uint8Array(SOLUTION_SIZE)), ...(field ? { commitments: field } : {}) };
  return finish(height, encodeBlock({ ...fields, ...mine(fields, network.solutionSize) }, txs), network.solutionSize);
}

/** `count` blocks on top of `parent`. */
export function buildChain(
  parent: BuiltBlock,
  count: number,
  tag: string,
  extraTxs?: (height: number) => readonly Uint8Array[],
): BuiltBlock[] {
  const out: BuiltBlock[] = [];
  let prev = parent;
  for (let i = 0; i < count; i++) {
    prev = buildBlock({ parent: prev, tag, extraTxs: extraTxs?.(prev.height + 1) });
    out.push(prev);
  }
  return out;
}
