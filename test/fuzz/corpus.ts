// Real transactions to test against (every tx of every real block under blocks/ and
// zcashd-2019/, and separately today's chain: nu6.3/'s blocks with v4, v5 and v6 transactions), plus an independent field-layout walker for v1–v5 transactions written
// straight from transaction-format.md §1.4–§1.8 — it shares no code with src/codec, so tests can
// use it as an oracle for "which section does byte k fall in" and "where is field X".
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import type { Transaction } from '../../src/codec/tx/transaction.js';
import { nu63BlockBytes, nu63Facts } from '../support/nu63-facts.js';
import { readHexVector, realBlockFiles, zcashd2019Heights } from '../support/vectors.js';

export interface RealTx {
  label: string;
  tx: Transaction;
}

export interface RealBlock {
  label: string;
  bytes: Uint8Array;
}

let blocksCache: RealBlock[] | undefined;

/** All real blocks: blocks/mainnet, blocks/testnet and zcashd-2019 (the invalid block is excluded). */
export function realBlocks(): RealBlock[] {
  if (blocksCache) return blocksCache;
  const out: RealBlock[] = [];
  for (const f of realBlockFiles()) out.push({ label: `${f.network} ${f.height}`, bytes: readHexVector(f.file) });
  for (const h of zcashd2019Heights()) out.push({ label: `zcashd-2019 ${h}`, bytes: readHexVector('zcashd-2019', `${h}.hex`) });
  return (blocksCache = out);
}

/** The real blocks around NU6.3 (nu6.3/blocks, mainnet and testnet), which only today's chain's acceptance reads. */
export function currentChainBlocks(): RealBlock[] {
  return Object.values(nu63Facts).map((f) => ({ label: `${f.network} ${f.height}`, bytes: nu63BlockBytes(f) }));
}

/** Every transaction of those blocks (v4, v5 and v6), decoded as today's chain reads them. */
export function currentChainTransactions(): RealTx[] {
  const out: RealTx[] = [];
  for (const b of currentChainBlocks()) {
    decodeBlock(b.bytes, CURRENT_CHAIN_ACCEPTANCE).transactions.forEach((tx, i) => out.push({ label: `${b.label} tx ${i}`, tx }));
  }
  return out;
}

/** Every transaction of every real block (decoded once, cached). */
export function realTransactions(): RealTx[] {
  const out: RealTx[] = [];
  for (const b of realBlocks()) {
    decodeBlock(b.bytes).transactions.forEach((tx, i) => out.push({ label: `${b.label} tx ${i}`, tx }));
  }
  return out;
}

/** One real transaction's bytes (a fresh copy, safe to mutate). */
export function realTxBytes(network: 'mainnet' | 'testnet', height: number, index: number): Uint8Array {
  const block = decodeBlock(readHexVector('blocks', network, `${height}.hex`));
  const tx = block.transactions[index];
  if (!tx) throw new Error(`no tx ${index} in ${network} ${height}`);
  return tx.bytes.slice();
}

/** Which zcashd parser reads a field: C++ directly, or one of the three Rust sub-parsers. */
export type Parser = 'cpp' | 'sapling-v4' | 'sapling-v5' | 'orchard';

export interface Field {
  name: string;
  start: number;
  end: number;
  parser: Parser;
}

/** Walks a valid transaction and lists every field with its byte range and parser. */
export function txLayout(b: Uint8Array): Field[] {
  const fields: Field[] = [];
  let p = 0;
  let parser: Parser = 'cpp';
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const take = (name: string, n: number): number => {
    if (p + n > b.length) throw new Error(`layout: ${name} runs past the end`);
    fields.push({ name, start: p, end: p + n, parser });
    p += n;
    return p - n;
  };
  const u32 = (name: string) => view.getUint32(take(name, 4), true);
  const cs = (name: string): number => {
    const first = b[p]!;
    const len = first < 0xfd ? 1 : first === 0xfd ? 3 : first === 0xfe ? 5 : 9;
    const at = take(name, len);
    if (len === 1) return first;
    if (len === 3) return view.getUint16(at + 1, true);
    if (len === 5) return view.getUint32(at + 1, true);
    return Number(view.getBigUint64(at + 1, true));
  };
  const transparent = () => {
    const nIn = cs('vin count');
    for (let i = 0; i < nIn; i++) {
      take(`vin ${i} prevout`, 36);
      take(`vin ${i} scriptSig`, cs(`vin ${i} scriptSig length`));
      take(`vin ${i} sequence`, 4);
    }
    const nOut = cs('vout count');
    for (let i = 0; i < nOut; i++) {
      take(`vout ${i} value`, 8);
      take(`vout ${i} scriptPubKey`, cs(`vout ${i} scriptPubKey length`));
    }
  };
  const joinSplits = (proofSize: number) => {
    const n = cs('joinsplit count');
    for (let i = 0; i < n; i++) {
      take(`js ${i} vpub_old`, 8);
      take(`js ${i} vpub_new`, 8);
      take(`js ${i} anchor..macs`, 288);
      take(`js ${i} proof`, proofSize);
      take(`js ${i} ciphertexts`, 1202);
    }
    if (n > 0) {
      take('joinSplitPubKey', 32);
      take('joinSplitSig', 64);
    }
  };

  const header = u32('header');
  const overwintered = header >>> 31 === 1;
  const version = header & 0x7fffffff;
  if (overwintered) u32('versionGroupId');
  if (overwintered && version === 5) {
    take('consensusBranchId', 4);
    take('lockTime', 4);
    take('expiryHeight', 4);
    transparent();
    parser = 'sapling-v5';
    const nSpends = cs('sapling spend count');
    for (let i = 0; i < nSpends; i++) {
      take(`spend ${i} cv`, 32);
      take(`spend ${i} nullifier`, 32);
      take(`spend ${i} rk`, 32);
    }
    const nOutputs = cs('sapling output count');
    for (let i = 0; i < nOutputs; i++) {
      take(`output ${i} cv`, 32);
      take(`output ${i} cmu`, 32);
      take(`output ${i} ephemeralKey`, 32);
      take(`output ${i} ciphertexts`, 660);
    }
    if (nSpends + nOutputs > 0) take('valueBalanceSapling', 8);
    if (nSpends > 0) take('anchorSapling', 32);
    for (let i = 0; i < nSpends; i++) take(`spend ${i} proof`, 192);
    for (let i = 0; i < nSpends; i++) take(`spend ${i} spendAuthSig`, 64);
    for (let i = 0; i < nOutputs; i++) take(`output ${i} proof`, 192);
    if (nSpends + nOutputs > 0) take('bindingSigSapling', 64);
    parser = 'orchard';
    const nActions = cs('orchard action count');
    for (let i = 0; i < nActions; i++) {
      for (const f of ['cv', 'nullifier', 'rk', 'cmx', 'ephemeralKey']) take(`action ${i} ${f}`, 32);
      take(`action ${i} ciphertexts`, 660);
    }
    if (nActions > 0) {
      take('flagsOrchard', 1);
      take('valueBalanceOrchard', 8);
      take('anchorOrchard', 32);
      take('proofsOrchard', cs('proofsOrchard length'));
      for (let i = 0; i < nActions; i++) take(`action ${i} spendAuthSig`, 64);
      take('bindingSigOrchard', 64);
    }
    return fields;
  }
  transparent();
  take('lockTime', 4);
  if (!overwintered) {
    if (version >= 2) joinSplits(296);
    return fields;
  }
  take('expiryHeight', 4);
  if (version === 3) {
    joinSplits(296);
    return fields;
  }
  parser = 'sapling-v4';
  take('valueBalanceSapling', 8);
  const nSpends = cs('sapling spend count');
  for (let i = 0; i < nSpends; i++) {
    for (const f of ['cv', 'anchor', 'nullifier', 'rk']) take(`spend ${i} ${f}`, 32);
    take(`spend ${i} proof`, 192);
    take(`spend ${i} spendAuthSig`, 64);
  }
  const nOutputs = cs('sapling output count');
  for (let i = 0; i < nOutputs; i++) {
    for (const f of ['cv', 'cmu', 'ephemeralKey']) take(`output ${i} ${f}`, 32);
    take(`output ${i} ciphertexts`, 660);
    take(`output ${i} proof`, 192);
  }
  parser = 'cpp';
  joinSplits(192);
  if (nSpends + nOutputs > 0) take('bindingSigSapling', 64);
  return fields;
}

/** The named field of a layout (throws if absent, so a test cannot silently mutate nothing). */
export function field(layout: Field[], name: string): Field {
  const f = layout.find((x) => x.name === name);
  if (!f) throw new Error(`layout has no field "${name}"`);
  return f;
}
