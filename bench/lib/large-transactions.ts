/**
 * The real large transactions bench/large-tx.ts serves, and distinct copies of them whose
 * replies no cache holds and whose addresses the address table has not encoded.
 *
 * The vectors hold no Sapling- or Orchard-heavy transaction of 50–100 kB: the largest are
 * transparent-input-heavy (testnet 141042's 244-input JoinSplit transactions, 97.5 kB; mainnet
 * 106598 #40, 447 inputs, 66 kB), output-heavy (mainnet 171059 #3, 1,500 outputs and 2
 * JoinSplits, 54.7 kB), and the largest Orchard one is v6 (mainnet 3428145 #3, 13 actions,
 * 43.9 kB, read under the `current` profile).
 */
import { MAINNET, TESTNET, type NetworkParams } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE, type TxAcceptance } from '../../src/codec/tx/acceptance.js';
import { isPayToPubkeyHash, isPayToScriptHash } from '../../src/codec/script/solver.js';
import { decodeTransaction, type Transaction } from '../../src/codec/tx/transaction.js';
import type { TxOut } from '../../src/codec/tx/types.js';
import { readHexVector } from '../../test/support/vectors.js';
import { byteStream } from './byte-stream.js';

export interface LargeTx {
  name: string;
  network: 'mainnet' | 'testnet';
  /** `-compat=` the server needs to read it (v6). */
  compat: string | null;
  content: string;
  tx: Transaction;
  block: { hashHex: string; transactions: readonly Transaction[] };
  params: NetworkParams;
  acceptance: TxAcceptance | undefined;
}

function fromBlock(
  name: string,
  network: LargeTx['network'],
  file: string[],
  index: number,
  size: number,
  content: string,
  current = false,
): LargeTx {
  const acceptance = current ? CURRENT_CHAIN_ACCEPTANCE : undefined;
  const block = decodeBlock(readHexVector(...file), acceptance);
  const tx = block.transactions[index]!;
  if (tx.size !== size) throw new Error(`${name}: expected a ${size}-byte transaction, found ${tx.size}`);
  return {
    name,
    network,
    compat: current ? 'current' : null,
    content,
    tx,
    block: { hashHex: block.hashHex, transactions: block.transactions },
    params: network === 'mainnet' ? MAINNET : TESTNET,
    acceptance,
  };
}

export function largeTransactions(): LargeTx[] {
  return [
    fromBlock('test-141042#1', 'testnet', ['blocks', 'testnet', '141042.hex'], 1, 97548, 'v2, 244 inputs, 1 JoinSplit'),
    fromBlock('main-106598#40', 'mainnet', ['zcashd-2019', '106598.hex'], 40, 66017, 'v1, 447 inputs'),
    fromBlock('main-171059#3', 'mainnet', ['zcashd-2019', '171059.hex'], 3, 54713, 'v2, 1,500 outputs, 2 JoinSplits'),
    fromBlock('main-3428145#3', 'mainnet', ['nu6.3', 'blocks', 'mainnet', '3428145.hex'], 3, 43916, 'v6, 13 Orchard actions', true),
  ];
}

/**
 * Rewrites, in `bytes` (the encoding `vout` was decoded from), every P2PKH/P2SH output's hash but
 * its first two bytes with bytes from `next`: those two choose the hash's slot in the address
 * table, so a copy varied so evicts the previous copy's address from the slot it looks in.
 * Returns how many outputs it varied.
 */
export function varyOutputAddresses(bytes: Uint8Array, vout: readonly TxOut[], next: () => number): number {
  let varied = 0;
  for (const o of vout) {
    const pushAt = isPayToPubkeyHash(o.scriptPubKey) ? 3 : isPayToScriptHash(o.scriptPubKey) ? 2 : -1;
    if (pushAt < 0) continue;
    const at = o.scriptPubKey.byteOffset - bytes.byteOffset;
    for (let i = pushAt + 2; i < pushAt + 20; i++) bytes[at + i] = next();
    varied++;
  }
  return varied;
}

/**
 * `count` copies of `t.tx`, each different from the others and from the original where its
 * reply shows it and its length does not change: the first input's prevout txid, the first
 * Orchard action's encrypted ciphertext, and every P2PKH/P2SH output's hash except its first two
 * bytes. Those two bytes choose the hash's slot in the address table, so each copy evicts the
 * previous copy's address from the very slot the next copy looks in: every address lookup is a
 * miss, over slots spread as the real transaction's are.
 */
export function distinctCopies(t: LargeTx, count: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  const next = byteStream();
  for (let k = 0; k < count; k++) {
    const bytes = new Uint8Array(t.tx.bytes);
    const d = decodeTransaction(bytes, t.acceptance).data;
    const at = (view: Uint8Array): number => view.byteOffset - bytes.byteOffset;
    let changed = 0;
    const first = d.vin[0];
    if (first) {
      // The prevout (32-byte txid, 4-byte index) precedes the scriptSig's CompactSize length.
      const lengthBytes = first.scriptSig.length < 253 ? 1 : first.scriptSig.length <= 0xffff ? 3 : 5;
      const txidAt = at(first.scriptSig) - lengthBytes - 36;
      for (let i = 0; i < 4; i++) bytes[txidAt + i] = next();
      changed++;
    }
    const action = d.orchard?.actions[0];
    if (action) {
      for (let i = 0; i < 4; i++) bytes[at(action.encCiphertext) + i] = next();
      changed++;
    }
    changed += varyOutputAddresses(bytes, d.vout, next);
    if (changed === 0) throw new Error(`${t.name}: nothing to vary`);
    if (decodeTransaction(bytes, t.acceptance).txidHex === t.tx.txidHex) throw new Error(`${t.name}: a copy kept the txid`);
    out.push(bytes);
  }
  return out;
}
