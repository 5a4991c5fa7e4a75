import { describe, expect, it } from 'vitest';
import { MAINNET, networkParams } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { declaredHeight } from '../../src/codec/coinbase-height.js';
import { blockToJson, decodedBlockToJson } from '../../src/render/block.js';
import { parseJson } from '../../src/json/reader.js';
import { writePretty } from '../../src/json/pretty.js';
import { JsonObject, type JsonValue } from '../../src/json/value.js';
import { readFileSync } from 'node:fs';
import { readHexVector, readJsonVector, vectorPath, zcashd2019Heights } from '../support/vectors.js';

/** Members of getblock that depend on the block bytes alone (zcashd-2019 README). */
const INTRINSIC = ['hash', 'size', 'version', 'merkleroot', 'finalsaplingroot', 'tx', 'time', 'nonce', 'solution', 'bits', 'difficulty'];

function project(v: JsonValue, keys: readonly string[]): JsonObject {
  if (!(v instanceof JsonObject)) throw new Error('expected an object');
  const out = new JsonObject();
  for (const [k, val] of v.entries) if (keys.includes(k)) out.entries.push([k, val]);
  return out;
}

describe('zcashd-2019 golden getblock outputs, block-intrinsic members byte for byte (pretty form)', () => {
  for (const height of zcashd2019Heights()) {
    it(`mainnet ${height}`, () => {
      const golden = readFileSync(vectorPath('zcashd-2019', `${height}.getblock.json`), 'utf8');
      const goldenObj = parseJson(golden);
      const block = decodeBlock(readHexVector('zcashd-2019', `${height}.hex`));
      expect(declaredHeight(block)).toBe(height);
      const ours = blockToJson(
        block,
        1,
        { height, confirmations: 1, chainWork: 0n, previousBlockHash: height > 0 ? block.header.prevHash : null, nextBlockHash: null },
        MAINNET,
      );
      const expectedText = writePretty(project(goldenObj, INTRINSIC));
      expect(writePretty(project(parseJson(ours), INTRINSIC))).toBe(expectedText);
      // decode-block prints the same members (tx as full objects) from the bytes alone
      const decoded = parseJson(decodedBlockToJson(block, MAINNET));
      const decodedIntrinsic = project(
        decoded,
        INTRINSIC.filter((k) => k !== 'tx'),
      );
      expect(writePretty(decodedIntrinsic)).toBe(
        writePretty(
          project(
            goldenObj,
            INTRINSIC.filter((k) => k !== 'tx'),
          ),
        ),
      );
      const txs = (decoded as JsonObject).get('tx') as JsonValue[];
      expect(txs.map((t) => (t as JsonObject).get('txid'))).toEqual((goldenObj as JsonObject).get('tx'));
      // the golden text is zcash-cli's pretty form of the same members in the same order
      expect(golden.trimEnd().startsWith('{')).toBe(true);
    });
  }
});

describe('decode-block member order and era rules', () => {
  it('orders members as zcashd and omits chain-state members', () => {
    const block = decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex'));
    const o = parseJson(decodedBlockToJson(block, MAINNET)) as JsonObject;
    expect(o.entries.map(([k]) => k)).toEqual([
      'hash',
      'size',
      'version',
      'merkleroot',
      'blockcommitments',
      'authdataroot',
      'tx',
      'time',
      'nonce',
      'solution',
      'bits',
      'difficulty',
    ]);
  });

  it('prints finalsaplingroot from the header before Heartwood (419201: real root)', () => {
    const block = decodeBlock(readHexVector('blocks', 'mainnet', '419201.hex'));
    const o = parseJson(decodedBlockToJson(block, MAINNET)) as JsonObject;
    expect(o.get('finalsaplingroot')).toBe('638d7e5ba37ab7921c51a4f3ae1b32d71c605a0ed9be7477928111a637f7421b');
    expect(o.get('authdataroot')).toBe('0'.repeat(64));
  });

  it('computes the ZIP-244 authdataroot for NU5 blocks and commits to it in hashBlockCommitments', () => {
    const facts = readJsonVector<{ blocks: { network: string; height: number; file: string }[] }>('facts.json').blocks;
    for (const f of facts.filter((b) => b.height >= 1687104 && b.network === 'mainnet')) {
      const block = decodeBlock(readHexVector(f.file));
      const o = parseJson(decodedBlockToJson(block, networkParams('mainnet'))) as JsonObject;
      expect(o.get('authdataroot')).toMatch(/^[0-9a-f]{64}$/);
      expect(o.get('authdataroot')).not.toBe('0'.repeat(64));
    }
  });
});
