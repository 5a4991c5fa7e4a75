import { describe, expect, it } from 'vitest';
import { genesisBlock } from '../../src/chain/genesis.js';
import { MAINNET, REGTEST, TESTNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHexReversed } from '../../src/codec/hex.js';
import { regtestReorg } from '../support/store.js';
import { readFacts, readHexVector } from '../support/vectors.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('genesis blocks built from chainparams fields', () => {
  it.each([MAINNET, TESTNET])('$name: byte-identical to the real genesis block in the shared vectors', (net) => {
    expect(hex(genesisBlock(net.name))).toBe(hex(readHexVector('blocks', net.name, '0.hex')));
  });

  it.each([MAINNET, TESTNET, REGTEST])('$name: hashes to the network genesis hash, merkle root c4eaa588…', (net) => {
    const block = decodeBlock(genesisBlock(net.name));
    expect(block.hashHex).toBe(net.genesisHash);
    expect(toHexReversed(block.header.merkleRoot)).toBe('c4eaa58879081de3c24a7b117ed2b28300e7ec4c4c1dff1d3f1268b7857a4ddb');
    expect(toHexReversed(block.computeMerkleRoot())).toBe(toHexReversed(block.header.merkleRoot));
    expect(block.header.solution.length).toBe(net.solutionSize);
    expect(block.transactions).toHaveLength(1);
    expect(block.transactions[0]!.data.version).toBe(1);
  });

  it('mainnet matches facts.json (independent parser): hash, time, bits, nonce, size', () => {
    const fact = readFacts().blocks.find((b) => b.network === 'mainnet' && b.height === 0)!;
    const block = decodeBlock(genesisBlock('mainnet'));
    expect(block.hashHex).toBe(fact.hash);
    expect(block.size).toBe(fact.size);
    expect(block.header.time).toBe(fact.time);
    expect(block.header.bits.toString(16).padStart(8, '0')).toBe(fact.bits);
    expect(toHexReversed(block.header.nonce)).toBe(fact.nonce);
  });

  it('regtest: identical to the first block of the regtest-reorg chain', () => {
    expect(hex(genesisBlock('regtest'))).toBe(hex(regtestReorg().base[0]!));
  });

  it('returns a fresh copy each call', () => {
    const a = genesisBlock('regtest');
    a[0] = 0xff;
    expect(genesisBlock('regtest')[0]).toBe(4);
  });
});
