// gettxoutsetinfo over the LevelDB store, against zcashd's CCoinsViewDB::GetStats (txdb.cpp at
// v6.12.2) re-derived here on its own: the unspent outputs the chain builder tracked (not the
// store's coins view), grouped into CCoins records as zcashd's coins database holds them, each
// record written out byte by byte (coins.h CCoins::Serialize, compressor.h) and hashed as
// GetStats hashes them. Chains: a regtest chain with transparent spends (P2PKH, P2SH, P2PK,
// OP_RETURN outputs, spends within a block) and the regtest-reorg chains across a reorganization.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGTEST } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { sha256d } from '../../../src/crypto/hash.js';
import { isFullyValidPubkey } from '../../../src/crypto/secp256k1.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { getTxOutSetInfoMethod } from '../../../src/rpc/methods/blockchain/gettxoutsetinfo.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { openChainStore, type ChainStore } from '../../../src/store/index.js';
import { matureStart, nextNode, rng, type ChainNode, type Utxo } from '../../support/address-index-chain.js';
import { callMethod, resultOf } from '../../support/call.js';
import { hex, regtestReorg, tempDir } from '../../support/store.js';

/** serialize.h WriteVarInt. */
function varInt(n: bigint): number[] {
  const tmp: number[] = [];
  for (let len = 0; ; len++) {
    tmp.push(Number(n & 0x7fn) | (len ? 0x80 : 0));
    if (n <= 0x7fn) break;
    n = (n >> 7n) - 1n;
  }
  return tmp.reverse();
}

function compactSize(n: number): number[] {
  if (n < 0xfd) return [n];
  return [0xfd, n & 0xff, n >> 8];
}

/** CTxOutCompressor::CompressAmount. */
function compressAmount(v: bigint): bigint {
  if (v === 0n) return 0n;
  let e = 0n;
  while (v % 10n === 0n && e < 9n) {
    v /= 10n;
    e++;
  }
  if (e < 9n) {
    const d = v % 10n;
    v /= 10n;
    return 1n + (v * 9n + d - 1n) * 10n + e;
  }
  return 1n + (v - 1n) * 10n + 9n;
}

/** CScriptCompressor's bytes. */
function compressScript(s: Uint8Array): number[] {
  const h = Buffer.from(s).toString('hex');
  if (/^76a914[0-9a-f]{40}88ac$/.test(h)) return [0x00, ...s.subarray(3, 23)];
  if (/^a914[0-9a-f]{40}87$/.test(h)) return [0x01, ...s.subarray(2, 22)];
  if (s.length === 35 && s[0] === 33 && s[34] === 0xac && (s[1] === 2 || s[1] === 3)) return [...s.subarray(1, 34)];
  if (s.length === 67 && s[0] === 65 && s[66] === 0xac && s[1] === 4 && isFullyValidPubkey(s.subarray(1, 66))) {
    return [0x04 | (s[65]! & 1), ...s.subarray(2, 34)];
  }
  return [...varInt(BigInt(s.length + 6)), ...s];
}

interface CoinsEntry {
  version: number;
  coinbase: boolean;
  height: number;
  /** Unspent outputs by index; holes are spent (null) outputs. */
  vout: Map<number, Utxo>;
}

/** coins.h CCoins::Serialize. */
function serializeCoins(c: CoinsEntry): Buffer {
  const size = Math.max(...c.vout.keys()) + 1;
  const avail = (i: number): boolean => c.vout.has(i);
  let maskSize = 0;
  let maskCode = 0;
  for (let b = 0; 2 + b * 8 < size; b++) {
    let zero = true;
    for (let i = 0; i < 8 && 2 + b * 8 + i < size; i++) if (avail(2 + b * 8 + i)) zero = false;
    if (!zero) {
      maskSize = b + 1;
      maskCode++;
    }
  }
  const first = avail(0);
  const second = avail(1);
  const code = 8 * (maskCode - (first || second ? 0 : 1)) + (c.coinbase ? 1 : 0) + (first ? 2 : 0) + (second ? 4 : 0);
  const out: number[] = [...varInt(BigInt(c.version)), ...varInt(BigInt(code))];
  for (let b = 0; b < maskSize; b++) {
    let byte = 0;
    for (let i = 0; i < 8 && 2 + b * 8 + i < size; i++) if (avail(2 + b * 8 + i)) byte |= 1 << i;
    out.push(byte);
  }
  for (let i = 0; i < size; i++) {
    const o = c.vout.get(i);
    if (o) out.push(...varInt(compressAmount(BigInt(o.value))), ...compressScript(o.script));
  }
  out.push(...varInt(BigInt(c.height)));
  return Buffer.from(out);
}

/** GetStats over the coins database the blocks and their unspent outputs make. */
function expectedStats(nodes: readonly ChainNode[]): Record<string, unknown> {
  const tip = nodes[nodes.length - 1]!;
  const txs = new Map<string, { version: number; coinbase: boolean; height: number }>();
  for (const node of nodes) {
    decodeBlock(node.block.bytes).transactions.forEach((tx, i) =>
      txs.set(Buffer.from(tx.txid).toString('hex'), { version: tx.data.version, coinbase: i === 0, height: node.block.height }),
    );
  }
  const entries = new Map<string, CoinsEntry>();
  for (const u of tip.utxos) {
    const key = Buffer.from(u.txid).toString('hex');
    let e = entries.get(key);
    if (!e) entries.set(key, (e = { ...txs.get(key)!, vout: new Map() }));
    e.vout.set(u.n, u);
  }
  const ordered = [...entries.entries()].sort(([a], [b]) => Buffer.compare(Buffer.from(a, 'hex'), Buffer.from(b, 'hex')));
  const hashed: number[] = [...tip.block.hash];
  let bytes = 0;
  let total = 0;
  let txouts = 0;
  for (const [, e] of ordered) {
    for (const i of [...e.vout.keys()].sort((a, b) => a - b)) {
      const o = e.vout.get(i)!;
      const value = Buffer.alloc(8);
      value.writeBigInt64LE(BigInt(o.value));
      hashed.push(...varInt(BigInt(i + 1)), ...value, ...compactSize(o.script.length), ...o.script);
      total += o.value;
      txouts++;
    }
    hashed.push(0);
    bytes += 32 + serializeCoins(e).length;
  }
  return {
    height: tip.block.height,
    bestblock: hex(tip.block.hash),
    transactions: ordered.length,
    txouts,
    bytes_serialized: bytes,
    hash_serialized: hex(sha256d(Uint8Array.from(hashed))),
    total_amount: total,
  };
}

/** The reply with total_amount in zatoshis. */
const asPlain = (text: string): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(JSON.parse(text) as Record<string, unknown>).map(([k, v]) => [
      k,
      k === 'total_amount' ? Math.round(Number(v) * 1e8) : v,
    ]),
  );

describe('gettxoutsetinfo (regtest chain with transparent spends)', () => {
  const dir = tempDir('txoutset');
  let store: ChainStore;
  let method: RpcMethod;
  const nodes: ChainNode[] = matureStart('txoutset');
  const random = rng(38);
  for (let i = 0; i < 40; i++) nodes.push(nextNode(nodes[nodes.length - 1]!, 'txoutset', random, 4));

  beforeAll(async () => {
    store = await openChainStore({ datadir: dir.path, network: REGTEST });
    for (const n of nodes) await store.addBlock(n.block.bytes);
    method = storeMethods(store).find((m) => m.name === 'gettxoutsetinfo')!;
  });
  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it("equals zcashd's GetStats over the same outputs, member for member and in zcashd's order", async () => {
    const text = await resultOf(method, '[]');
    const expected = expectedStats(nodes);
    expect(Object.keys(JSON.parse(text) as object)).toEqual([
      'height',
      'bestblock',
      'transactions',
      'txouts',
      'bytes_serialized',
      'hash_serialized',
      'total_amount',
    ]);
    expect(asPlain(text)).toEqual(expected);
    // The chain exercised what the statistics distinguish: spent outputs in the middle of a transaction, P2SH, P2PK.
    const tip = nodes[nodes.length - 1]!;
    expect(tip.utxos.some((u) => u.script.length === 35)).toBe(true);
    expect(tip.utxos.some((u) => u.script[0] === 0xa9)).toBe(true);
    expect(tip.utxos.some((u) => u.n >= 2)).toBe(true);
    expect(text).toMatch(/"total_amount":\d+\.\d{8}}$/);
  });

  it('reads the same in chunks of any size (transactions split across chunks)', async () => {
    const whole = await resultOf(method, '[]');
    for (const chunk of [1, 2, 3, 7]) {
      const small = getTxOutSetInfoMethod(store, () => store.coinScan(), chunk);
      expect(await resultOf(small, '[]')).toBe(whole);
    }
  });

  it('stops when the client is gone', async () => {
    const aborted = AbortSignal.abort();
    let error: unknown;
    try {
      await method.call([], { network: REGTEST, requestStop: () => undefined, signal: aborted });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: -1, message: 'gettxoutsetinfo stopped: the client disconnected' });
    // The scan's iterator was closed: the store still closes cleanly (afterAll) and answers again.
    expect(await resultOf(method, '[]')).toBe(await resultOf(method, '[]'));
  });
});

describe('gettxoutsetinfo across a reorganization (regtest-reorg vectors)', () => {
  it('answers for the active chain after the switch, as a store that only ever had the branch', async () => {
    const v = regtestReorg();
    const a = tempDir('txoutset-reorg-a');
    const b = tempDir('txoutset-reorg-b');
    const reorged = await openChainStore({ datadir: a.path, network: REGTEST });
    const straight = await openChainStore({ datadir: b.path, network: REGTEST });
    try {
      for (const blk of v.base) await reorged.addBlock(blk);
      const before = await resultOf(
        storeMethods(reorged).find((m) => m.name === 'gettxoutsetinfo')!,
        '[]',
      );
      // Coinbase-only blocks 1..30: one transaction each, every output unspent.
      const coinbases = v.base.slice(1).map((blk) => decodeBlock(blk).transactions[0]!);
      const parsed = JSON.parse(before) as Record<string, number | string>;
      expect(parsed.height).toBe(30);
      expect(parsed.transactions).toBe(30);
      expect(parsed.txouts).toBe(coinbases.reduce((s, tx) => s + tx.data.vout.length, 0));
      expect(Math.round(Number(parsed.total_amount) * 1e8)).toBe(
        coinbases.reduce((s, tx) => s + tx.data.vout.reduce((t, o) => t + o.value, 0), 0),
      );
      for (const blk of v.branch) await reorged.addBlock(blk);
      for (const blk of [...v.base.slice(0, v.manifest.forkHeight + 1), ...v.branch]) await straight.addBlock(blk);
      const after = await resultOf(
        storeMethods(reorged).find((m) => m.name === 'gettxoutsetinfo')!,
        '[]',
      );
      expect(after).toBe(
        await resultOf(
          storeMethods(straight).find((m) => m.name === 'gettxoutsetinfo')!,
          '[]',
        ),
      );
      expect((JSON.parse(after) as { bestblock: string }).bestblock).toBe(v.manifest.branch[v.manifest.branch.length - 1]!.hash);
    } finally {
      await reorged.close();
      await straight.close();
      a.remove();
      b.remove();
    }
  });

  it('an empty store: no blocks', async () => {
    const d = tempDir('txoutset-empty');
    const empty = await openChainStore({ datadir: d.path, network: REGTEST });
    try {
      const out = await callMethod(
        storeMethods(empty).find((m) => m.name === 'gettxoutsetinfo')!,
        '[]',
      );
      expect(out).toEqual({ error: { code: -1, message: 'No blocks in the chain store' } });
    } finally {
      await empty.close();
      d.remove();
    }
  });
});
