/**
 * The blocks bench/store-serve.ts asks for: real blocks from the shared vectors, large ones
 * included. None of them can be chained onto the vectors' short runs from genesis (their parents'
 * headers are not in the vectors, so neither a regtest chain nor a checkpoint start can reach
 * them), so each store holds its network's genesis run as the best chain and these blocks as
 * side blocks (test/support/memory-store.ts), which getblock serves like any other block.
 */
import { MAINNET, TESTNET, type NetworkParams } from '../../src/chain/network.js';
import { decodeBlock, encodeBlock, merkleRoot, type Block } from '../../src/codec/block.js';
import { isPayToPubkeyHash, isPayToScriptHash } from '../../src/codec/script/solver.js';
import type { Transaction } from '../../src/codec/tx/transaction.js';
import { MemoryChainStore, mainnetGenesisRun, zcashd2019Side, type SideBlock } from '../../test/support/memory-store.js';
import { testnetChain } from '../../test/support/store.js';
import { readHexVector } from '../../test/support/vectors.js';

export type ServedNetwork = 'mainnet' | 'testnet';

export interface ServedBlock {
  /** Short name used in the bench's output lines. */
  name: string;
  network: ServedNetwork;
  height: number;
  /** What the block holds, for the output. */
  content: string;
  /** Compared at every connection count (the others at 10 connections only, to keep the run short). */
  full: boolean;
}

export const SERVED_BLOCKS: readonly ServedBlock[] = [
  { name: 'main-106598', network: 'mainnet', height: 106598, content: 'zcashd-2019 vector: 9,250 transparent inputs', full: true },
  {
    name: 'test-141042',
    network: 'testnet',
    height: 141042,
    content: '21 txs, 20 Sprout JoinSplits (the largest vector block)',
    full: false,
  },
  { name: 'main-1687118', network: 'mainnet', height: 1687118, content: 'NU5: v4 + 7 v5 txs, Sapling and Orchard', full: false },
];

export function servedBlockBytes(b: ServedBlock): Uint8Array {
  return b.network === 'mainnet' && b.height === 106598
    ? zcashd2019Side(106598).bytes
    : readHexVector('blocks', b.network, `${b.height}.hex`);
}

export function networkParams(n: ServedNetwork): NetworkParams {
  return n === 'mainnet' ? MAINNET : TESTNET;
}

/**
 * The store one server process serves: the network's genesis run plus that network's served
 * blocks, and `extra` side blocks.
 */
export function servedStore(network: ServedNetwork, extra: readonly SideBlock[] = []): MemoryChainStore {
  const side: SideBlock[] = SERVED_BLOCKS.filter((b) => b.network === network).map((b) =>
    b.network === 'mainnet' && b.height === 106598
      ? zcashd2019Side(106598)
      : { bytes: servedBlockBytes(b), height: b.height, chainWork: 1n },
  );
  return new MemoryChainStore(networkParams(network), network === 'mainnet' ? mainnetGenesisRun() : testnetChain(), [...side, ...extra]);
}

/**
 * A mainnet side block of 106598's shape filled to at most `targetBytes` (blockOf106598Shape), at
 * 106598's height (its coinbase's): a full-size block for the large-reply measurements.
 */
export function largeMainnetSide(targetBytes: number): SideBlock {
  return { bytes: blockOf106598Shape(targetBytes), height: 106598, chainWork: 1n };
}

/**
 * A block of at most `targetBytes`, filled as far as its transactions allow, made of mainnet
 * 106598's transactions: its coinbase, then its other transactions over and over, each taken
 * while it fits (9,250 inputs in 1.39 MB, the most input-heavy shape the vectors hold), under
 * 106598's header with the merkle root of that list. Its repeated txids make it invalid on any
 * chain; it only measures decoding and rendering at full block size.
 */
export function blockOf106598Shape(targetBytes: number): Uint8Array {
  return filledBlock(decodeBlock(servedBlockBytes(SERVED_BLOCKS[0]!)), () => true, targetBytes);
}

/**
 * The output-heavy counterpart: mainnet 419201's coinbase, then its pool payout transactions
 * (those with 100 outputs or more; one pays 501 addresses) repeated the same way, ≈ 57,800
 * outputs in 2 MB. Every output prints an address, so rendering it is mostly address encoding
 * unless `renewAddressHashes` runs before each rendering.
 */
export function blockOf419201Payouts(targetBytes: number): Uint8Array {
  return filledBlock(decodeBlock(readHexVector('blocks', 'mainnet', '419201.hex')), (tx) => tx.data.vout.length >= 100, targetBytes);
}

/** The real block whose fully shielded transactions blockOfSaplingShape repeats. */
export const SAPLING_SHAPE_HEIGHT = 653601;

/**
 * The Sapling-heavy counterpart: mainnet 653601's coinbase, then its fully shielded transactions
 * (v4, no transparent input or output, one or two Sapling spends and one to four outputs: the
 * most Sapling-dense transactions the vectors hold) repeated the same way: Sapling spends,
 * outputs, their proofs and ciphertexts, nearly byte for byte. The vectors hold no block from
 * the 2022 Sapling spam; this is the closest shape they allow.
 */
export function blockOfSaplingShape(targetBytes: number): Uint8Array {
  const real = decodeBlock(readHexVector('blocks', 'mainnet', `${SAPLING_SHAPE_HEIGHT}.hex`));
  const fullyShielded = (tx: Transaction) =>
    tx.data.vin.length === 0 &&
    tx.data.vout.length === 0 &&
    (tx.data.sapling?.spends.length ?? 0) + (tx.data.sapling?.outputs.length ?? 0) > 0;
  return filledBlock(real, fullyShielded, targetBytes);
}

/** A mainnet side block of blockOfSaplingShape(targetBytes), at 653601's height (its coinbase's). */
export function largeSaplingSide(targetBytes: number): SideBlock {
  return { bytes: blockOfSaplingShape(targetBytes), height: SAPLING_SHAPE_HEIGHT, chainWork: 1n };
}

function filledBlock(real: Block, pick: (tx: Transaction) => boolean, targetBytes: number): Uint8Array {
  const [coinbase, ...all] = real.transactions;
  const rest = all.filter(pick);
  const txs = [coinbase!];
  // The transaction count's CompactSize is at most 3 bytes for any block this size.
  let size = real.header.bytes.length + 3 + coinbase!.size;
  for (let i = 0, misses = 0; misses < rest.length; i++) {
    const tx = rest[i % rest.length]!;
    if (size + tx.size > targetBytes) {
      misses++;
      continue;
    }
    misses = 0;
    txs.push(tx);
    size += tx.size;
  }
  const header = { ...real.header, merkleRoot: merkleRoot(txs.map((t) => t.txid)) };
  return encodeBlock(
    header,
    txs.map((t) => t.bytes),
  );
}

/**
 * Gives every P2PKH and P2SH output of `block` (in place) a hash no earlier call gave, so that
 * its rendering encodes every address afresh, as an explorer reading each block once does. The
 * hashes are pseudo-random like real hash160s, so they spread over the address table as real
 * ones do (a counter in their first bytes would give each its own slot, in order). Returns how
 * many outputs it changed.
 */
let renewed = 0;
export function renewAddressHashes(block: Uint8Array): number {
  let changed = 0;
  for (const tx of decodeBlock(block).transactions) {
    for (const out of tx.data.vout) {
      const script = out.scriptPubKey;
      const pushAt = isPayToPubkeyHash(script) ? 3 : isPayToScriptHash(script) ? 2 : -1;
      if (pushAt < 0) continue;
      // A view of `block`: the hash's 20 bytes from an xorshift generator seeded by a counter.
      let x = Math.imul(++renewed, 0x9e3779b1) | 1;
      for (let i = pushAt; i < pushAt + 20; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        script[i] = x & 0xff;
      }
      changed++;
    }
  }
  return changed;
}
