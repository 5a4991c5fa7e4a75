/**
 * The blocks bench/store-serve.ts asks for: real blocks from the shared vectors, large ones
 * included. None of them can be chained onto the vectors' short runs from genesis (their parents'
 * headers are not in the vectors, so neither a regtest chain nor a checkpoint start can reach
 * them), so each store holds its network's genesis run as the best chain and these blocks as
 * side blocks (test/support/memory-store.ts), which getblock serves like any other block.
 */
import { MAINNET, TESTNET, type NetworkParams } from '../../src/chain/network.js';
import { decodeBlock, encodeBlock, merkleRoot } from '../../src/codec/block.js';
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

/** The store one server process serves: the network's genesis run plus that network's served blocks. */
export function servedStore(network: ServedNetwork): MemoryChainStore {
  const side: SideBlock[] = SERVED_BLOCKS.filter((b) => b.network === network).map((b) =>
    b.network === 'mainnet' && b.height === 106598
      ? zcashd2019Side(106598)
      : { bytes: servedBlockBytes(b), height: b.height, chainWork: 1n },
  );
  return new MemoryChainStore(networkParams(network), network === 'mainnet' ? mainnetGenesisRun() : testnetChain(), side);
}

/**
 * A block of at most `targetBytes`, filled as far as its transactions allow, made of mainnet
 * 106598's transactions: its coinbase, then its other transactions over and over, each taken
 * while it fits (9,250 inputs in 1.39 MB, the most input-heavy shape the vectors hold), under
 * 106598's header with the merkle root of that list. Its repeated txids make it invalid on any
 * chain; it only measures decoding and rendering at full block size.
 */
export function blockOf106598Shape(targetBytes: number): Uint8Array {
  const real = decodeBlock(servedBlockBytes(SERVED_BLOCKS[0]!));
  const [coinbase, ...rest] = real.transactions;
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
