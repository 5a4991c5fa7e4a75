// zcashd's TxToJSON has no v6 form yet: the renderer refuses a v6 transaction by name, before
// writing anything, and still renders the v5 and v4 transactions of the same real blocks.
import { describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { JsonWriter } from '../../src/json/writer.js';
import { txToJson, UnrenderableTransactionError, writeTxJson } from '../../src/render/tx.js';
import { readHexVector } from '../support/vectors.js';

const block = (height: number) => decodeBlock(readHexVector('nu6.3', 'blocks', 'mainnet', `${height}.hex`), CURRENT_CHAIN_ACCEPTANCE);

describe('rendering after NU6.3', () => {
  it('a v6 transaction (mainnet 3428144 #2, Orchard and Ironwood) is refused as unrenderable', () => {
    const tx = block(3428144).transactions[2]!;
    expect(() => txToJson(tx, MAINNET)).toThrow(UnrenderableTransactionError);
    expect(() => txToJson(tx, MAINNET)).toThrow('TxToJSON has no form for a v6 transaction');
    const w = new JsonWriter();
    expect(() => writeTxJson(w, tx, MAINNET)).toThrow(UnrenderableTransactionError);
  });

  it('the v4 transaction of the same block and a NU6.2 v5 transaction still render', () => {
    const v4 = block(3428144).transactions[1]!;
    expect(JSON.parse(txToJson(v4, MAINNET))).toMatchObject({ txid: v4.txidHex, version: 4 });
    const v5 = block(3428142).transactions[1]!;
    const json = JSON.parse(txToJson(v5, MAINNET)) as { version: number; orchard: { actions: unknown[] } };
    expect(json.version).toBe(5);
    expect(json.orchard.actions).toHaveLength(2);
  });
});
