// Every transaction of the shared vectors: each block's and each raw transaction's, in any file
// under the vectors directory (hex lines, or JSON strings that decode). For the tests that compare
// byte output's WebAssembly writers with text output on real transactions.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MAINNET, TESTNET, type NetworkParams } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE, ZCASHD_6_12_2_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { decodeTransaction, type Transaction } from '../../src/codec/tx/transaction.js';
import { VECTORS_DIR } from './vectors.js';

/** Each vector file's transactions, with the network its path names. */
export function* vectorTransactions(): Generator<{ path: string; network: NetworkParams; transactions: Transaction[] }> {
  for (const path of filesUnder(VECTORS_DIR)) {
    yield { path, network: /testnet/.test(path) ? TESTNET : MAINNET, transactions: transactionsIn(path) };
  }
}

/** The transactions in a vector file: its blocks' and its raw transactions' (every hex line or JSON string that decodes). */
function transactionsIn(path: string): Transaction[] {
  const text = readFileSync(path, 'utf8');
  const candidates: string[] = [];
  if (path.endsWith('.json')) {
    const walk = (v: unknown): void => {
      if (typeof v === 'string') candidates.push(v);
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
    };
    try {
      walk(JSON.parse(text));
    } catch {
      return [];
    }
  } else candidates.push(...text.split('\n'));
  const out: Transaction[] = [];
  for (const c of candidates) {
    const hex = c.trim();
    if (hex.length < 20 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) continue;
    const bytes = new Uint8Array(Buffer.from(hex, 'hex'));
    out.push(...decodeAny(bytes));
  }
  return out;
}

function decodeAny(bytes: Uint8Array): Transaction[] {
  for (const acceptance of [CURRENT_CHAIN_ACCEPTANCE, ZCASHD_6_12_2_ACCEPTANCE]) {
    try {
      return decodeBlock(bytes, acceptance).transactions;
    } catch {
      // not a block under these rules
    }
    try {
      return [decodeTransaction(bytes, acceptance)];
    } catch {
      // not a transaction either
    }
  }
  return [];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
