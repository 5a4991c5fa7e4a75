import { describe, expect, it } from 'vitest';
import { blockWork, chainWorkHex, compactToTarget, difficultyFromBits } from '../../src/chain/pow.js';
import { MAINNET, REGTEST, TESTNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { readHexVector } from '../support/vectors.js';

/** zcashd prints doubles with %.16g; for these magnitudes toPrecision(16) minus trailing zeros is that. */
const g16 = (d: number): string => d.toPrecision(16).replace(/\.?0+$/, '');

describe('compactToTarget', () => {
  it('decodes mainnet powLimit 0x1f07ffff to 0007ffff…', () => {
    const { target, negative, overflow } = compactToTarget(0x1f07ffff);
    expect(target).toBe(0x07ffffn << (8n * 28n));
    expect(negative).toBe(false);
    expect(overflow).toBe(false);
  });
  it('shifts right for exponents ≤ 3', () => {
    expect(compactToTarget(0x01123456).target).toBe(0x12n);
    expect(compactToTarget(0x02123456).target).toBe(0x1234n);
    expect(compactToTarget(0x03123456).target).toBe(0x123456n);
  });
  it('flags negative and overflowing encodings', () => {
    expect(compactToTarget(0x04923456).negative).toBe(true);
    expect(compactToTarget(0x04800000).negative).toBe(false); // zero mantissa is never negative
    expect(compactToTarget(0xff123456).overflow).toBe(true);
    expect(compactToTarget(0x22000100).overflow).toBe(true); // m > 0xff and e > 33
    expect(compactToTarget(0x21010000).overflow).toBe(true); // m > 0xffff and e > 32
    expect(compactToTarget(0x21000001).overflow).toBe(false);
  });
});

describe('blockWork', () => {
  it('matches the spec examples', () => {
    expect(blockWork(0x1f07ffff)).toBe(0x2000n);
    expect(blockWork(0x2007ffff)).toBe(32n);
    expect(blockWork(0x200f0f0f)).toBe(17n);
    expect(blockWork(0x1c02954a)).toBe(0x631a78f844n);
  });
  it('is zero for negative, overflowing or zero targets', () => {
    expect(blockWork(0x04923456)).toBe(0n);
    expect(blockWork(0xff123456)).toBe(0n);
    expect(blockWork(0x00000000)).toBe(0n);
    expect(blockWork(0x01003456)).toBe(0n); // mantissa shifted away to zero
  });
  it('gives the mainnet genesis and block 1 chainwork from the real headers', () => {
    const g = decodeBlock(readHexVector('blocks', 'mainnet', '0.hex'));
    const b1 = decodeBlock(readHexVector('blocks', 'mainnet', '1.hex'));
    const genesisWork = blockWork(g.header.bits);
    expect(chainWorkHex(genesisWork)).toBe('0'.repeat(60) + '2000');
    expect(chainWorkHex(genesisWork + blockWork(b1.header.bits))).toBe('0'.repeat(60) + '4000');
    const tg = decodeBlock(readHexVector('blocks', 'testnet', '0.hex'));
    expect(chainWorkHex(blockWork(tg.header.bits))).toBe('0'.repeat(62) + '20');
  });
});

describe('difficultyFromBits', () => {
  it.each([
    [MAINNET, 0x1f07ffff, '1'],
    [MAINNET, 0x1e3936f6, '35.79493399601346'],
    [MAINNET, 0x1c02954a, '51958628.65492351'],
    [MAINNET, 0x1c01aee4, '79741054.54719512'],
    [TESTNET, 0x2007ffff, '1'],
    [TESTNET, 0x1f0173eb, '1409.684511243449'],
    [REGTEST, 0x200f0f0f, '1'],
  ] as const)('%#: bits %s', (network, bits, expected) => {
    expect(g16(difficultyFromBits(bits, network))).toBe(expected);
  });
  it('uses the real block 202 header bits', () => {
    const b = decodeBlock(readHexVector('blocks', 'mainnet', '202.hex'));
    expect(b.header.bits).toBe(0x1e3936f6);
    expect(g16(difficultyFromBits(b.header.bits, MAINNET))).toBe('35.79493399601346');
  });
});
