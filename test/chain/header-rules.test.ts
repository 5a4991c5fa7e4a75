import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACTIVATION_BLOCK_HASHES, BLOCK_CHECKPOINTS, checkpointAt } from '../../src/chain/checkpoints.js';
import { NEXT_WORK_WINDOW, medianTimePast, nextWorkRequired, type HeaderTiming } from '../../src/chain/difficulty.js';
import {
  checkBlockHeader,
  checkCheckpoint,
  checkCoinbaseHeight,
  checkCommitmentField,
  checkProofOfWork,
  coinbaseHeightPrefix,
  commitmentEra,
  contextualCheckBlockHeader,
  expectedCommitmentField,
  futureTimestampSoftForkHeight,
} from '../../src/chain/header-rules.js';
import { BRANCH_IDS, MAINNET, NETWORK_UPGRADES, REGTEST, TESTNET, type NetworkParams } from '../../src/chain/network.js';
import { blockHeaderHash, decodeBlock, decodeBlockHeader, encodeBlockHeader, type BlockHeader } from '../../src/codec/block.js';
import { toHex, toHexReversed } from '../../src/codec/hex.js';
import { hashBlockCommitments, hashHistoryNode, historyLeaf } from '../../src/state/history-tree.js';
import { readFacts, readHexVector, readJsonVector, realBlockFiles, vectorPath } from '../support/vectors.js';

const params = (network: string): NetworkParams => (network === 'mainnet' ? MAINNET : TESTNET);
const files = realBlockFiles();
const decoded = new Map(files.map((f) => [`${f.network}/${f.height}`, decodeBlock(readHexVector(f.file))]));
const blockAt = (network: string, height: number) => decoded.get(`${network}/${height}`)!;
const facts = readFacts().blocks;
const fact = (network: string, height: number) => facts.find((b) => b.network === network && b.height === height)!;

/** The header with some fields replaced, re-encoded so `bytes` and the hash follow. */
function withFields(h: BlockHeader, changes: Partial<Omit<BlockHeader, 'bytes'>>): BlockHeader {
  return decodeBlockHeader(encodeBlockHeader({ ...h, ...changes }));
}

/** Mainnet 0..20 (lightwalletd mainnet_genesis), the one run of real consecutive headers long enough for a window. */
const early = readFileSync(vectorPath('lightwalletd', 'mainnet_genesis'), 'utf8')
  .trim()
  .split('\n')
  .map((hex) => decodeBlock(new Uint8Array(Buffer.from(hex.trim(), 'hex'))).header);
const earlyTimings: HeaderTiming[] = early.map((h, height) => ({ height, time: h.time, bits: h.bits }));

describe('CheckBlockHeader on every real block', () => {
  for (const f of files) {
    it(`${f.network} ${f.height} passes (Equihash, PoW, version)`, () => {
      const h = blockAt(f.network, f.height).header;
      expect(checkBlockHeader(h, params(f.network), f.height)).toBeNull();
      const pow = checkProofOfWork(blockHeaderHash(h), h.bits, params(f.network));
      expect(pow.ok).toBe(true);
    });
  }
});

describe('CheckBlockHeader rejects mutated headers precisely', () => {
  const h1 = blockAt('mainnet', 1).header;
  const hashOf = (h: BlockHeader) => toHexReversed(blockHeaderHash(h));

  it('nVersion 3: version-too-low', () => {
    const h = withFields(h1, { version: 3 });
    expect(checkBlockHeader(h, MAINNET, 1)).toEqual({
      rule: 'version-too-low',
      height: 1,
      hash: hashOf(h),
      field: 'nVersion',
      expected: '>= 4',
      computed: '3',
      message: 'block version too low',
    });
  });

  const flips: [string, Partial<Omit<BlockHeader, 'bytes'>>][] = [
    ['hashPrevBlock', { prevHash: h1.prevHash.map((b, i) => (i === 0 ? b ^ 1 : b)) }],
    ['hashMerkleRoot', { merkleRoot: h1.merkleRoot.map((b, i) => (i === 31 ? b ^ 0x80 : b)) }],
    ['hashBlockCommitments', { commitments: h1.commitments.map((b, i) => (i === 7 ? b ^ 4 : b)) }],
    ['nTime', { time: h1.time ^ 1 }],
    ['nBits (off by one)', { bits: h1.bits - 1 }],
    ['nNonce', { nonce: h1.nonce.map((b, i) => (i === 31 ? b ^ 0x40 : b)) }],
    ['nSolution', { solution: h1.solution.map((b, i) => (i === 700 ? b ^ 2 : b)) }],
  ];
  for (const [field, change] of flips) {
    it(`a bit flipped in ${field}: invalid-solution`, () => {
      const h = withFields(h1, change);
      const err = checkBlockHeader(h, MAINNET, 1);
      expect(err).toMatchObject({
        rule: 'invalid-solution',
        height: 1,
        hash: hashOf(h),
        field: 'nSolution',
        expected: 'a valid Equihash (200, 9) solution',
      });
      expect(err!.computed).toMatch(/^(invalid-collision|out-of-order|duplicate-indices|nonzero-root): /);
    });
  }

  it('a truncated solution: invalid-solution, wrong size', () => {
    const h = withFields(h1, { solution: h1.solution.subarray(0, 1340) });
    expect(checkBlockHeader(h, MAINNET, 1)!.computed).toBe('wrong-solution-size: 1340 bytes, expected 1344');
  });

  it('a real testnet header (bits 2007ffff) judged by mainnet rules: high-hash on nBits', () => {
    const h = blockAt('testnet', 1).header;
    expect(checkBlockHeader(h, MAINNET, 1)).toEqual({
      rule: 'high-hash',
      height: 1,
      hash: hashOf(h),
      field: 'nBits',
      expected: 'a positive target <= powLimit 0007ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
      computed: '2007ffff (target-above-pow-limit)',
      message: 'proof of work failed',
    });
  });

  it('regtest uses (48, 5): a (200, 9) header is refused for its solution size', () => {
    expect(checkBlockHeader(h1, REGTEST)!.computed).toBe('wrong-solution-size: 1344 bytes, expected 36');
  });
});

describe('CheckProofOfWork', () => {
  const h = blockAt('mainnet', 903000).header;
  const hash = blockHeaderHash(h);
  it('accepts the real header and rejects each bad target', () => {
    expect(checkProofOfWork(hash, 0x1c02954a, MAINNET)).toMatchObject({ ok: true });
    expect(checkProofOfWork(hash, 0x1c82954a, MAINNET)).toMatchObject({ ok: false, reason: 'negative-target' });
    expect(checkProofOfWork(hash, 0x1c000000, MAINNET)).toMatchObject({ ok: false, reason: 'zero-target' });
    expect(checkProofOfWork(hash, 0x23010000, MAINNET)).toMatchObject({ ok: false, reason: 'overflow-target' });
    expect(checkProofOfWork(hash, 0x2007ffff, MAINNET)).toMatchObject({ ok: false, reason: 'target-above-pow-limit' });
    // Target 1: no real hash is that small.
    expect(checkProofOfWork(hash, 0x03000001, MAINNET)).toMatchObject({ ok: false, reason: 'hash-above-target', target: 1n });
  });

  it('compares the hash as a little-endian number: the displayed hash must not exceed the target', () => {
    const shown = BigInt('0x' + fact('mainnet', 903000).hash);
    const result = checkProofOfWork(hash, 0x1c02954a, MAINNET);
    expect(shown <= result.target).toBe(true);
    // The same bytes read big-endian are far above the target.
    expect(BigInt('0x' + toHex(hash)) > result.target).toBe(true);
  });
});

describe('ContextualCheckBlockHeader', () => {
  const ctx = (height: number, now = early[height]!.time) => ({
    network: MAINNET,
    chain: earlyTimings.slice(Math.max(0, height - NEXT_WORK_WINDOW), height),
    now,
  });

  for (let h = 1; h <= 20; h++) {
    it(`real mainnet block ${h} passes`, () => {
      expect(contextualCheckBlockHeader(early[h]!, ctx(h))).toBeNull();
    });
  }

  it('refuses a chain too short for the median time past', () => {
    const h = blockAt('testnet', 299188).header;
    const prev = fact('testnet', 299187);
    const chain = [{ height: 299187, time: prev.time, bits: parseInt(prev.bits, 16) }];
    expect(() => contextualCheckBlockHeader(h, { network: TESTNET, chain, now: h.time })).toThrow(/11 headers/);
  });

  it('genesis passes without a parent', () => {
    expect(contextualCheckBlockHeader(early[0]!, { network: MAINNET, chain: [], now: 0 })).toBeNull();
  });

  it('nBits off by one: bad-diffbits', () => {
    const h = withFields(early[20]!, { bits: 0x1f06a821 });
    expect(contextualCheckBlockHeader(h, ctx(20))).toMatchObject({
      rule: 'bad-diffbits',
      height: 20,
      field: 'nBits',
      expected: '1f06a820',
      computed: '1f06a821',
    });
  });

  it('time equal to the median time past: time-too-old', () => {
    const mtp = medianTimePast(ctx(20).chain);
    const h = withFields(early[20]!, { time: mtp });
    expect(contextualCheckBlockHeader(h, ctx(20))).toMatchObject({
      rule: 'time-too-old',
      height: 20,
      field: 'nTime',
      expected: `> ${mtp}`,
      computed: String(mtp),
    });
  });

  it('more than 90 minutes past the MTP: time-too-far-ahead-of-mtp (from height 2 on mainnet)', () => {
    const mtp = medianTimePast(ctx(20).chain);
    const late = withFields(early[20]!, { time: mtp + 5401 });
    expect(contextualCheckBlockHeader(late, ctx(20, mtp + 10 ** 6))).toMatchObject({
      rule: 'time-too-far-ahead-of-mtp',
      expected: `<= ${mtp + 5400}`,
      computed: String(mtp + 5401),
    });
    expect(contextualCheckBlockHeader(withFields(early[20]!, { time: mtp + 5400 }), ctx(20, mtp + 10 ** 6))).toBeNull();
    // Real block 1 came 30236 s after genesis: height 1 is below the soft-fork height.
    expect(futureTimestampSoftForkHeight(MAINNET)).toBe(2);
    expect(early[1]!.time - early[0]!.time).toBeGreaterThan(5400);
  });

  it('testnet starts the MTP rule 6 blocks after Blossom', () => {
    expect(futureTimestampSoftForkHeight(TESTNET)).toBe(584006);
    expect(futureTimestampSoftForkHeight(REGTEST)).toBe(2);
  });

  it('more than 2 hours past the local clock: time-too-new', () => {
    const t = early[20]!.time;
    expect(contextualCheckBlockHeader(early[20]!, ctx(20, t - 7201))).toMatchObject({
      rule: 'time-too-new',
      expected: `<= ${t - 1}`,
      computed: String(t),
    });
    expect(contextualCheckBlockHeader(early[20]!, ctx(20, t - 7200))).toBeNull();
  });

  it('below the last checkpoint already indexed: fork-before-last-checkpoint', () => {
    expect(contextualCheckBlockHeader(early[20]!, { ...ctx(20), lastCheckpointInIndex: 2500 })).toMatchObject({
      rule: 'fork-before-last-checkpoint',
      height: 20,
    });
    expect(contextualCheckBlockHeader(early[20]!, { ...ctx(20), lastCheckpointInIndex: 0 })).toBeNull();
  });

  it('nVersion 3 with everything else right: bad-version', () => {
    expect(contextualCheckBlockHeader(withFields(early[20]!, { version: 3 }), ctx(20))).toMatchObject({
      rule: 'bad-version',
      computed: '3',
    });
  });

  describe("testnet's minimum-difficulty blocks", () => {
    /** The real parent, preceded by 27 stand-in ancestors 150 s apart (the vectors hold only the parent). */
    const chainTo = (parent: HeaderTiming): HeaderTiming[] => [
      ...Array.from({ length: 27 }, (_, i) => ({ height: parent.height - 27 + i, time: parent.time - 150 * (27 - i), bits: 0x1f0fffff })),
      parent,
    ];
    for (const height of [299188, 299189, 299202]) {
      it(`${height} passes with powLimit bits`, () => {
        const prev = fact('testnet', height - 1);
        const chain = chainTo({ height: height - 1, time: prev.time, bits: parseInt(prev.bits, 16) });
        const h = blockAt('testnet', height).header;
        expect(contextualCheckBlockHeader(h, { network: TESTNET, chain, now: h.time })).toBeNull();
      });
    }

    it('the same header right after its parent would need the averaged target: bad-diffbits', () => {
      const h = blockAt('testnet', 299188).header;
      const chain = chainTo({ height: 299187, time: h.time - 600, bits: 0x1f0fffff });
      const err = contextualCheckBlockHeader(h, { network: TESTNET, chain, now: h.time });
      expect(err).toMatchObject({
        rule: 'bad-diffbits',
        expected: (nextWorkRequired(TESTNET, chain) >>> 0).toString(16).padStart(8, '0'),
        computed: '2007ffff',
      });
      expect(err!.expected).not.toBe('2007ffff');
    });
  });
});

describe('checkpoints', () => {
  it('every activation block in the vectors has the pinned hash', () => {
    let checked = 0;
    for (const network of ['mainnet', 'testnet'] as const) {
      const p = params(network);
      for (const upgrade of NETWORK_UPGRADES) {
        const height = p.activationHeights[upgrade];
        const pinned = ACTIVATION_BLOCK_HASHES[network][upgrade];
        const f = height === null ? undefined : facts.find((b) => b.network === network && b.height === height);
        if (!f || !pinned) continue;
        expect(f.hash).toBe(pinned);
        expect(checkCheckpoint(p, height!, f.hash)).toBeNull();
        checked++;
      }
    }
    // Mainnet Overwinter..Canopy (5), testnet Overwinter..Heartwood (4).
    expect(checked).toBe(9);
  });

  it('genesis hashes are checkpoint 0', () => {
    expect(checkpointAt('mainnet', 0)).toBe(MAINNET.genesisHash);
    expect(checkpointAt('testnet', 0)).toBe(TESTNET.genesisHash);
    expect(BLOCK_CHECKPOINTS.mainnet.length).toBe(26);
    expect(BLOCK_CHECKPOINTS.mainnet.at(-1)).toEqual({
      height: 3000000,
      hash: '0000000000573729e4db33678233e5dc0cc721c9c09977c64dcaa3f6344de8e9',
    });
  });

  it('another hash at a checkpoint or activation height is refused', () => {
    const other = fact('mainnet', 1).hash;
    expect(checkCheckpoint(MAINNET, 2500, other)).toMatchObject({
      rule: 'checkpoint-mismatch',
      height: 2500,
      field: 'hash',
      expected: '00000006dc968f600be11a86cbfbf7feb61c7577f45caced2e82b6d261d19744',
      computed: other,
    });
    expect(checkCheckpoint(MAINNET, 419200, other)).toMatchObject({
      rule: 'activation-block-mismatch',
      expected: fact('mainnet', 419200).hash,
    });
    expect(checkCheckpoint(MAINNET, 2501, other)).toBeNull();
  });
});

describe('the commitment field by era', () => {
  it('era boundaries on mainnet', () => {
    const eras = [419199, 419200, 902999, 903000, 903001, 1687103, 1687104].map((h) => commitmentEra(MAINNET, h));
    expect(eras).toEqual([
      'reserved',
      'final-sapling-root',
      'final-sapling-root',
      'heartwood-activation',
      'light-client-root',
      'light-client-root',
      'block-commitments',
    ]);
  });

  interface RootEntry {
    network: string;
    height: number;
    pool: string;
    internal_hex: string;
  }
  const roots = readJsonVector<{ roots: RootEntry[] }>('roots.json').roots;
  const saplingRoot = (network: string, height: number) => {
    const e = roots.find((r) => r.network === network && r.height === height && r.pool === 'sapling');
    return e && new Uint8Array(Buffer.from(e.internal_hex, 'hex'));
  };

  it('every Sapling-era real block commits to its Sapling root (roots.json)', () => {
    let checked = 0;
    for (const f of files) {
      const p = params(f.network);
      if (commitmentEra(p, f.height) !== 'final-sapling-root') continue;
      const root = saplingRoot(f.network, f.height);
      if (!root) continue;
      expect(checkCommitmentField(blockAt(f.network, f.height).header, f.height, p, { saplingRoot: root })).toBeNull();
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it('pre-Sapling fields are unchecked, whatever they hold', () => {
    expect(checkCommitmentField(blockAt('testnet', 279999).header, 279999, TESTNET, {})).toBeNull();
    expect(expectedCommitmentField(TESTNET, 279999, {})).toBeNull();
  });

  it('a wrong Sapling root: bad-sapling-root-in-block with both values', () => {
    const h = blockAt('mainnet', 419201).header;
    const wrong = saplingRoot('mainnet', 419200)!;
    expect(checkCommitmentField(h, 419201, MAINNET, { saplingRoot: wrong })).toEqual({
      rule: 'bad-sapling-root-in-block',
      height: 419201,
      hash: fact('mainnet', 419201).hash,
      field: 'hashBlockCommitments',
      expected: toHexReversed(wrong),
      computed: fact('mainnet', 419201).blockcommitments,
      message: "block's hashBlockCommitments is incorrect (should be Sapling tree root)",
    });
  });

  it('Heartwood activation blocks hold zeros; the next block holds the one-leaf root', () => {
    for (const [network, height] of [
      ['mainnet', 903000],
      ['testnet', 903800],
    ] as const) {
      const p = params(network);
      expect(checkCommitmentField(blockAt(network, height).header, height, p, {})).toBeNull();
      const leaf = historyLeaf(
        {
          hash: blockAt(network, height).hash,
          height,
          time: blockAt(network, height).header.time,
          bits: blockAt(network, height).header.bits,
          saplingRoot: saplingRoot(network, height)!,
          saplingTxCount: fact(network, height).transactions.filter((t) => t.sapling_spends + t.sapling_outputs > 0).length,
        },
        BRANCH_IDS.Heartwood,
      );
      const prev = hashHistoryNode(leaf, BRANCH_IDS.Heartwood);
      expect(checkCommitmentField(blockAt(network, height + 1).header, height + 1, p, { prevHistoryRoot: prev })).toBeNull();
      expect(
        checkCommitmentField(blockAt(network, height + 1).header, height + 1, p, { prevHistoryRoot: new Uint8Array(32) }),
      ).toMatchObject({
        rule: 'bad-heartwood-root-in-block',
        expected: '0'.repeat(64),
        computed: fact(network, height + 1).blockcommitments,
      });
    }
  });

  it('NU5: the header must equal hashBlockCommitments(prevRoot, authDataRoot)', () => {
    // prevRoot of 1687107 needs the NU5 leaves of 1687104..1687106 (two are not in the vectors),
    // so only a wrong prevRoot can be shown to fail, with the exact expected value.
    const b = blockAt('mainnet', 1687107);
    const zero = new Uint8Array(32);
    const expected = hashBlockCommitments(zero, b.computeAuthDataRoot());
    expect(
      checkCommitmentField(b.header, 1687107, MAINNET, { prevHistoryRoot: zero, authDataRoot: b.computeAuthDataRoot() }),
    ).toMatchObject({
      rule: 'bad-block-commitments-hash',
      expected: toHexReversed(expected),
      computed: fact('mainnet', 1687107).blockcommitments,
    });
    expect(() => expectedCommitmentField(MAINNET, 1687107, { prevHistoryRoot: zero })).toThrow(/authDataRoot/);
  });
});

describe('coinbase height (BIP34, and nExpiryHeight from NU5)', () => {
  it('CScript() << height', () => {
    const cases: [number, string][] = [
      [1, '51'],
      [16, '60'],
      [17, '0111'],
      [127, '017f'],
      [128, '028000'],
      [202, '02ca00'],
      [255, '02ff00'],
      [256, '020001'],
      [32767, '02ff7f'],
      [32768, '03008000'],
      [903000, '0358c70d'],
      [8388608, '0400008000'],
    ];
    for (const [h, hex] of cases) expect(toHex(coinbaseHeightPrefix(h))).toBe(hex);
  });

  it('every real block from height 1 carries its height (and from NU5 its expiry height)', () => {
    let checked = 0;
    for (const f of files) {
      if (f.height === 0) continue;
      expect(checkCoinbaseHeight(blockAt(f.network, f.height), f.height, params(f.network))).toBeNull();
      checked++;
    }
    expect(checked).toBe(70);
  });

  it("Zebra's bad block 202 (height pushed as 01 ca) is refused", () => {
    const bad = decodeBlock(readHexVector('blocks', 'invalid', 'mainnet-202-bad-coinbase-height.hex'));
    expect(checkCoinbaseHeight(bad, 202, MAINNET)).toEqual({
      rule: 'bad-cb-height',
      height: 202,
      hash: fact('mainnet', 202).hash,
      field: 'coinbase scriptSig',
      expected: '02ca00',
      computed: '01ca04 (declared height unreadable)',
      message: 'block height mismatch in coinbase',
    });
  });

  it('a block at the wrong height is refused', () => {
    expect(checkCoinbaseHeight(blockAt('mainnet', 10), 11, MAINNET)).toMatchObject({
      rule: 'bad-cb-height',
      expected: '5b',
      computed: '5a (declared height 10)',
    });
  });

  it('from NU5 the coinbase nExpiryHeight must equal the height', () => {
    const b = decodeBlock(readHexVector('blocks', 'mainnet', '1687106.hex'));
    b.transactions[0]!.data.expiryHeight = 1687105;
    expect(checkCoinbaseHeight(b, 1687106, MAINNET)).toMatchObject({
      rule: 'bad-cb-height',
      field: 'nExpiryHeight',
      expected: '1687106',
      computed: '1687105',
    });
  });
});
