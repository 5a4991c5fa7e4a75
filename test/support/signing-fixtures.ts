// Real mainnet transactions whose spent outputs are in the shared vectors (so their real
// signatures can be verified, ZIP 243 and ZIP 244 alike), and keys from zcashd's
// base58_keys_valid.json, for the signrawtransaction tests.
import { readdirSync } from 'node:fs';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex, toHexReversed } from '../../src/codec/hex.js';
import { decodeSecretKey, type SecretKey } from '../../src/codec/script/secret-key.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import type { Transaction } from '../../src/codec/tx/transaction.js';
import { readHexVector, readJsonVector, vectorPath } from './vectors.js';

/** Every transaction of the mainnet block vectors, by txid as zcashd prints it. */
export function mainnetVectorTransactions(): Map<string, Transaction> {
  const txs = new Map<string, Transaction>();
  for (const file of readdirSync(vectorPath('blocks', 'mainnet'))) {
    const block = decodeBlock(readHexVector('blocks', 'mainnet', file), CURRENT_CHAIN_ACCEPTANCE);
    for (const tx of block.transactions) txs.set(tx.txidHex, tx);
  }
  return txs;
}

/** `prevtxs` for every input of `tx`, from the transactions that created the outputs it spends. */
export function previousOutputsOf(
  tx: Transaction,
  all: Map<string, Transaction>,
): { txid: string; vout: number; scriptPubKey: string; amount: string }[] {
  return tx.data.vin.map((i) => {
    const txid = toHexReversed(i.prevout.hash);
    const out = all.get(txid)!.data.vout[i.prevout.index]!;
    return { txid, vout: i.prevout.index, scriptPubKey: toHex(out.scriptPubKey), amount: (out.value / 1e8).toFixed(8) };
  });
}

type KeyRow = [string, string, { isPrivkey: boolean; isCompressed?: boolean; chain: string }];

/** The mainnet WIF keys of base58_keys_valid.json, compressed and not. */
export function mainnetWifKeys(): { wif: string; key: SecretKey }[] {
  return readJsonVector<KeyRow[]>('zcashd', 'base58_keys_valid.json')
    .filter((r) => r[2].isPrivkey && r[2].chain === 'mainnet')
    .map((r) => ({ wif: r[0], key: decodeSecretKey(r[0], MAINNET)! }));
}
