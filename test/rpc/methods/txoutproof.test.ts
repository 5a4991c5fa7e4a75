// gettxoutproof / verifytxoutproof (zcashd v6.12.2 src/rpc/rawtransaction.cpp, merkleblock.cpp)
// on real blocks: mainnet 0..20 and the zcashd-2019 blocks 106598 (41 transactions) and 323547
// (44). Every proof is read back by an independent partial-merkle reader written here from the
// serialization (header, nTransactions, vHash, LSB-first flag bytes), whose root must be the
// block's merkle root as codec/block.ts computes it from all txids, and by verifytxoutproof.
import { describe, expect, it } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { decodeBlock, merkleRoot } from '../../../src/codec/block.js';
import { sha256d } from '../../../src/crypto/hash.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import type { ChainStoreReader } from '../../../src/store/types.js';
import { errorOf, resultOf } from '../../support/call.js';
import { MemoryChainStore, mainnetGenesisRun, zcashd2019Side } from '../../support/memory-store.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const rpcHex = (b: Uint8Array) => Buffer.from(b).reverse().toString('hex');

/** An independent reader: returns the root and the matched leaves, or throws on any malformation. */
function readProof(proofHex: string) {
  const b = Buffer.from(proofHex, 'hex');
  let pos = 140;
  const varint = () => {
    const first = b[pos++]!;
    if (first < 0xfd) return first;
    if (first === 0xfd) return b.readUInt16LE((pos += 2) - 2);
    return b.readUInt32LE((pos += 4) - 4);
  };
  const solutionLength = varint();
  pos += solutionLength;
  const header = b.subarray(0, pos);
  const total = b.readUInt32LE(pos);
  pos += 4;
  const hashes: Buffer[] = [];
  for (let i = varint(); i > 0; i--, pos += 32) hashes.push(b.subarray(pos, pos + 32));
  const flagBytes = b.subarray(pos + 1, pos + 1 + b[pos]!);
  expect(pos + 1 + b[pos]!).toBe(b.length);
  const flag = (i: number) => ((flagBytes[i >> 3]! >> (i & 7)) & 1) === 1;
  // Widths per level, leaves first.
  const widths = [total];
  while (widths[widths.length - 1]! > 1) widths.push(Math.ceil(widths[widths.length - 1]! / 2));
  let f = 0;
  let h = 0;
  const matches: string[] = [];
  const visit = (level: number, index: number): Buffer => {
    const descend = flag(f++);
    if (level === 0 || !descend) {
      const hash = hashes[h++]!;
      if (level === 0 && descend) matches.push(rpcHex(hash));
      return hash;
    }
    const left = visit(level - 1, 2 * index);
    const right = 2 * index + 1 < widths[level - 1]! ? visit(level - 1, 2 * index + 1) : left;
    return Buffer.from(sha256d(Buffer.concat([left, right])));
  };
  const root = visit(widths.length - 1, 0);
  expect(h).toBe(hashes.length);
  expect(Math.ceil(f / 8)).toBe(flagBytes.length);
  return { header, total, root, matches, flagOffset: pos + 1 };
}

/** The store with its side blocks presented as active (for verifytxoutproof's chain check). */
function activeEverywhere(store: ChainStoreReader): ChainStoreReader {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'blockIndex') {
        return async (hash: Uint8Array) => {
          const e = await target.blockIndex(hash);
          return e ? { ...e, onBestChain: true } : null;
        };
      }
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

describe('gettxoutproof and verifytxoutproof', () => {
  const big = [zcashd2019Side(106598), zcashd2019Side(323547)];
  const store = new MemoryChainStore(MAINNET, mainnetGenesisRun(), big);
  const methods = new Map<string, RpcMethod>(storeMethods(store).map((m) => [m.name, m]));
  const active = new Map<string, RpcMethod>(storeMethods(activeEverywhere(store)).map((m) => [m.name, m]));
  const proofOf = async (txids: string[], block?: string) =>
    JSON.parse(await resultOf(methods.get('gettxoutproof')!, JSON.stringify(block ? [txids, block] : [txids]))) as string;

  it('proves a coinbase of the active chain through the transaction index, and verifies it', async () => {
    for (const h of [1, 7, 20]) {
      const block = decodeBlock(mainnetGenesisRun()[h]!);
      const txid = block.transactions[0]!.txidHex;
      const proof = await proofOf([txid]);
      const read = readProof(proof);
      expect(hex(read.header)).toBe(hex(block.header.bytes));
      expect([read.total, read.matches]).toEqual([1, [txid]]);
      expect(hex(read.root)).toBe(hex(block.header.merkleRoot));
      expect(await resultOf(methods.get('verifytxoutproof')!, `["${proof}"]`)).toBe(`["${txid}"]`);
      expect(await proofOf([txid], block.hashHex)).toBe(proof);
    }
  });

  it('every subset shape of 41- and 44-transaction blocks reads back to the merkle root', async () => {
    for (const side of big) {
      const block = decodeBlock(side.bytes);
      const txids = block.transactions.map((t) => t.txidHex);
      const root = hex(merkleRoot(block.transactions.map((t) => t.txid)));
      expect(root).toBe(hex(block.header.merkleRoot));
      const subsets = [
        [0],
        [txids.length - 1],
        [1, 2, 3],
        [5, 17, 30, txids.length - 1],
        txids.map((_, i) => i),
        [],
        txids.map((_, i) => i).filter((i) => i % 3 === 1),
      ];
      for (const subset of subsets) {
        const chosen = subset.map((i) => txids[i]!);
        // The request's order does not matter: matches come back in block order.
        const proof = await proofOf([...chosen].reverse(), block.hashHex);
        const read = readProof(proof);
        expect(read.total).toBe(txids.length);
        expect(hex(read.root)).toBe(root);
        expect(read.matches).toEqual(chosen);
        expect(hex(read.header)).toBe(hex(block.header.bytes));
        expect(await resultOf(active.get('verifytxoutproof')!, `["${proof}"]`)).toBe(JSON.stringify(chosen));
        if (chosen.length > 0) {
          expect(await errorOf(methods.get('verifytxoutproof')!, `["${proof}"]`)).toEqual({
            code: -5,
            message: 'Block not found in chain',
          });
        }
      }
    }
  });

  it('a tampered proof verifies to [] (or fails to decode); bad arguments get zcashd errors', async () => {
    const block = decodeBlock(big[0]!.bytes);
    const txids = block.transactions.map((t) => t.txidHex);
    const proof = await proofOf([txids[3]!, txids[9]!], block.hashHex);
    const verify = active.get('verifytxoutproof')!;
    const bytes = Buffer.from(proof, 'hex');
    const flipped = Buffer.from(bytes);
    flipped[bytes.length - 40]! ^= 1; // inside the last hash
    expect(await resultOf(verify, `["${flipped.toString('hex')}"]`)).toBe('[]');
    const fewer = Buffer.from(bytes);
    fewer[readProof(proof).flagOffset] = 0; // the root not descended: it is then the first stored hash, not the block's

    expect(await resultOf(verify, `["${fewer.toString('hex')}"]`)).toBe('[]');
    expect(await errorOf(verify, `["${proof.slice(0, 600)}"]`)).toEqual({
      code: -1,
      message: 'CBaseDataStream::read(): end of data: unspecified iostream_category error',
    });
    expect(await errorOf(verify, '["xyz"]')).toEqual({ code: -8, message: "proof must be hexadecimal string (not 'xyz')" });
    expect(await errorOf(verify, '[5]')).toEqual({ code: -8, message: "proof must be hexadecimal string (not '')" });

    const get = methods.get('gettxoutproof')!;
    expect(await errorOf(get, '["abc"]')).toEqual({ code: -1, message: 'JSON value is not an array as expected' });
    expect(await errorOf(get, '[["abc"]]')).toEqual({ code: -8, message: 'Invalid txid abc' });
    expect(await errorOf(get, `[["${txids[1]}", "${txids[1]!.toUpperCase()}"], "${block.hashHex}"]`)).toEqual({
      code: -8,
      message: `Invalid parameter, duplicated txid: ${txids[1]!.toUpperCase()}`,
    });
    expect(await errorOf(get, `[["${'11'.repeat(32)}"]]`)).toEqual({ code: -5, message: 'Transaction not yet in block' });
    expect(await errorOf(get, `[["${txids[1]}"], "${'22'.repeat(32)}"]`)).toEqual({ code: -5, message: 'Block not found' });
    const other = decodeBlock(mainnetGenesisRun()[3]!);
    expect(await errorOf(get, `[["${txids[1]}"], "${other.hashHex}"]`)).toEqual({
      code: -5,
      message: '(Not all) transactions not found in specified block',
    });
    expect(await errorOf(get, '[[]]')).toEqual({ code: -5, message: 'Transaction not yet in block' });
  });
});
