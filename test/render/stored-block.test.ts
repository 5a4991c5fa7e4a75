// getblock verbosity 1 of a connected block is rendered from the store's summary (header, size,
// txid list) instead of the decoded block: on every real block of the vectors, both must give
// the same bytes, with and without -legacyorchardroot.
import { describe, expect, it } from 'vitest';
import { MAINNET, TESTNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { blockToJson, storedBlockToJson, type BlockChainContext } from '../../src/render/block.js';
import type { BlockStateView } from '../../src/state/block-view.js';
import type { ValuePoolId } from '../../src/state/value-pools.js';
import { readHexVector, realBlockFiles, zcashd2019Heights } from '../support/vectors.js';

/** A chain state whose every member differs, so a swapped or dropped member shows. */
function distinctState(height: number): BlockStateView {
  const bytes = (seed: number): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => (seed * 31 + i) & 0xff);
  const pool = (id: ValuePoolId, n: number) => ({
    id,
    monitored: n !== 2,
    chainValue: 1000n * BigInt(n),
    valueDelta: n === 4 ? null : BigInt(n) - 3n,
  });
  return {
    finalSaplingRoot: bytes(1),
    finalOrchardRoot: height % 2 ? bytes(2) : null,
    chainHistoryRoot: bytes(3),
    authDataRoot: bytes(4),
    anchor: bytes(5),
    pools: {
      chainSupply: { monitored: true, chainValue: 21n * 10n ** 14n, valueDelta: 125n * 10n ** 6n },
      valuePools: [pool('transparent', 1), pool('sprout', 2), pool('sapling', 3), pool('orchard', 4), pool('lockbox', 5)],
    },
    saplingTreeSize: height,
    orchardTreeSize: height % 3 ? height * 2 : null,
  };
}

const cases = [
  ...realBlockFiles().map((f) => ({
    label: `${f.network} ${f.height}`,
    bytes: readHexVector(f.file),
    height: f.height,
    network: f.network === 'mainnet' ? MAINNET : TESTNET,
  })),
  ...zcashd2019Heights().map((h) => ({
    label: `zcashd-2019 ${h}`,
    bytes: readHexVector('zcashd-2019', `${h}.hex`),
    height: h,
    network: MAINNET,
  })),
];

describe('verbosity 1 from the stored summary', () => {
  it('covers blocks with many transactions and every era', () => {
    expect(cases.length).toBeGreaterThan(60);
    expect(Math.max(...cases.map((c) => decodeBlock(c.bytes).transactions.length))).toBeGreaterThan(40);
  });

  it.each(cases)('$label: the same bytes as the decoded block', ({ bytes, height, network }) => {
    const block = decodeBlock(bytes);
    for (const legacyOrchardRoot of [false, true]) {
      const ctx: BlockChainContext = {
        height,
        confirmations: 7,
        chainWork: 123456789n,
        previousBlockHash: block.header.prevHash,
        nextBlockHash: height % 2 ? block.header.merkleRoot : null,
        state: distinctState(height),
        legacyOrchardRoot,
      };
      const summary = { header: block.header, size: bytes.length, txids: block.transactions.map((t) => t.txid) };
      expect(storedBlockToJson(summary, ctx, network)).toBe(blockToJson(block, 1, ctx, network));
    }
  });
});
