/**
 * Writes `test-vectors/v6-json/skeletons.json`: the TxToJSON of every v6 transaction in the real
 * NU6.3 blocks (../shared/test-vectors/nu6.3), as skeletons (test/support/tx-json-skeleton.ts):
 * member names and order, numbers, flags and scripts as rendered, and each byte-copied member as
 * the range of the transaction's bytes it was checked against.
 *
 *   npx tsx test-vectors/v6-json/make.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAINNET, TESTNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { txToJson } from '../../src/render/tx.js';
import { txJsonSkeleton } from '../../test/support/tx-json-skeleton.js';
import { readHexVector, readJsonVector } from '../../test/support/vectors.js';

interface FactBlock {
  network: 'mainnet' | 'testnet';
  height: number;
}

const facts = readJsonVector<{ blocks: Record<string, FactBlock> }>('nu6.3', 'facts.json').blocks;
const transactions: Record<string, unknown> = {};
for (const b of Object.values(facts)) {
  const block = decodeBlock(readHexVector('nu6.3', 'blocks', b.network, `${b.height}.hex`), CURRENT_CHAIN_ACCEPTANCE);
  block.transactions.forEach((tx, i) => {
    if (tx.data.version !== 6) return;
    const json = JSON.parse(txToJson(tx, b.network === 'mainnet' ? MAINNET : TESTNET)) as Parameters<typeof txJsonSkeleton>[0];
    transactions[`${b.network}/${b.height}#${i}`] = txJsonSkeleton(json, tx.bytes);
  });
}
const about =
  'TxToJSON of the 23 v6 transactions in ../shared/test-vectors/nu6.3 (key: network/height#index in the block), ' +
  'with hex and every Orchard/Ironwood hex member replaced by the byte range tx[start:end] it was checked against ' +
  '(test/support/v6-layout.ts, read from ZIP 229). Made by test-vectors/v6-json/make.ts.';
writeFileSync(join(import.meta.dirname, 'skeletons.json'), JSON.stringify({ about, transactions }, null, 1) + '\n');
