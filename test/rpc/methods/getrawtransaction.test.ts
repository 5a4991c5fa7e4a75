// getrawtransaction over the in-memory fixture store (mainnet 0..20 best chain with a txid
// index, zcashd-2019 block 24202 on a side chain, 42464 known by header only).
import { describe, expect, it } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import { type JsonNumber, type JsonObject, parseJson } from '../../../src/json/index.js';
import { getRawTransactionMethod } from '../../../src/rpc/methods/rawtransaction/getrawtransaction.js';
import { errorOf, resultOf } from '../../support/call.js';
import { MemoryChainStore, mainnetGenesisIndex, mainnetGenesisRun, zcashd2019Side } from '../../support/memory-store.js';
import { STORED_BLOCK_ACCEPTANCE } from '../../../src/codec/tx/acceptance.js';
import { txToJsonBytes } from '../../../src/render/tx.js';
import type { TxLocation } from '../../../src/store/types.js';
import { TransactionStarts } from '../../../src/rpc/methods/rawtransaction/transaction-starts.js';

const INDEX = mainnetGenesisIndex();
const blocks = mainnetGenesisRun();
const side = zcashd2019Side(24202);
const headerOnly = { ...zcashd2019Side(42464), headerOnly: true };
const getraw = getRawTransactionMethod(new MemoryChainStore(MAINNET, blocks, [side, headerOnly]));

const B5 = INDEX[5]!;
const TX5 = B5.txids[0]!;
const TX5_HEX = toHex(decodeBlock(blocks[5]!).transactions[0]!.bytes);
const SIDE_HASH = String(side.golden.hash);
const SIDE_TXIDS = side.golden.tx as string[];
const NOT_FOUND = 'No such mempool or blockchain transaction. Use gettransaction for wallet transactions.';
const num = (v: unknown): string => (v as JsonNumber).text;

describe('getrawtransaction lookup through the txid index', () => {
  it('verbose omitted or 0 → raw hex', async () => {
    expect(await resultOf(getraw, `["${TX5}"]`)).toBe(`"${TX5_HEX}"`);
    expect(await resultOf(getraw, `["${TX5}", 0]`)).toBe(`"${TX5_HEX}"`);
  });

  it('verbose non-zero → object with hex first and the block members last', async () => {
    for (const v of ['1', '-7']) {
      const obj = parseJson(await resultOf(getraw, `["${TX5}", ${v}]`)) as JsonObject;
      const keys = obj.entries.map(([k]) => k);
      expect(keys.slice(0, 3)).toEqual(['hex', 'txid', 'authdigest']);
      expect(keys.slice(-5)).toEqual(['blockhash', 'height', 'confirmations', 'time', 'blocktime']);
      expect(keys).not.toContain('in_active_chain');
      expect(obj.get('hex')).toBe(TX5_HEX);
      expect(obj.get('txid')).toBe(TX5);
      expect(obj.get('blockhash')).toBe(B5.hash);
      expect(num(obj.get('height'))).toBe('5');
      expect(num(obj.get('confirmations'))).toBe('16');
      expect(num(obj.get('time'))).toBe(String(B5.time));
      expect(num(obj.get('blocktime'))).toBe(String(B5.time));
    }
  });

  it("the tip's coinbase has one confirmation", async () => {
    const obj = parseJson(await resultOf(getraw, `["${INDEX[20]!.txids[0]}", 1]`)) as JsonObject;
    expect(num(obj.get('confirmations'))).toBe('1');
  });

  it("the genesis coinbase is not in zcashd's txindex", async () =>
    expect(await errorOf(getraw, `["${INDEX[0]!.txids[0]}"]`)).toEqual({ code: -5, message: NOT_FOUND }));

  it('side-chain transactions are not indexed', async () =>
    expect(await errorOf(getraw, `["${SIDE_TXIDS[1]}", 1]`)).toEqual({ code: -5, message: NOT_FOUND }));

  it('an all-zero block hash means "no block given"', async () =>
    expect(await resultOf(getraw, `["${TX5}", 0, "${'0'.repeat(64)}"]`)).toBe(`"${TX5_HEX}"`));
});

describe('getrawtransaction with a block hash', () => {
  it('finds the genesis coinbase in the genesis block, in the active chain', async () => {
    const obj = parseJson(await resultOf(getraw, `["${INDEX[0]!.txids[0]}", 1, "${INDEX[0]!.hash}"]`)) as JsonObject;
    expect(obj.entries.map(([k]) => k).slice(0, 3)).toEqual(['in_active_chain', 'hex', 'txid']);
    expect(obj.get('in_active_chain')).toBe(true);
    expect(num(obj.get('confirmations'))).toBe('21');
    expect(num(obj.get('height'))).toBe('0');
  });

  it('a side-chain block: in_active_chain false, height -1, confirmations 0, no times', async () => {
    const text = await resultOf(getraw, `["${SIDE_TXIDS[1]}", 1, "${SIDE_HASH}"]`);
    const obj = parseJson(text) as JsonObject;
    expect(obj.get('in_active_chain')).toBe(false);
    expect(obj.get('txid')).toBe(SIDE_TXIDS[1]);
    expect(text.endsWith(`"blockhash":"${SIDE_HASH}","height":-1,"confirmations":0}`)).toBe(true);
    // Not verbose: just the transaction's bytes.
    const raw = JSON.parse(await resultOf(getraw, `["${SIDE_TXIDS[1]}", 0, "${SIDE_HASH}"]`)) as string;
    expect(raw).toBe(toHex(decodeBlock(side.bytes).transactions[1]!.bytes));
  });

  it('the last transaction of a many-transaction block is found', async () => {
    const last = SIDE_TXIDS[SIDE_TXIDS.length - 1]!;
    expect((parseJson(await resultOf(getraw, `["${last}", 1, "${SIDE_HASH}"]`)) as JsonObject).get('txid')).toBe(last);
  });

  it.each([
    [
      `["${TX5}", 0, "${INDEX[6]!.hash}"]`,
      -5,
      'No such transaction found in the provided block. Use gettransaction for wallet transactions.',
    ],
    [`["${TX5}", 0, "${'ab'.repeat(32)}"]`, -5, 'Block hash not found'],
    [`["${TX5}", 0, "${String(headerOnly.golden.hash)}"]`, -1, 'Block not available'],
  ])('%s → %i %s', async (params, code, message) => expect(await errorOf(getraw, params)).toEqual({ code, message }));
});

describe("getrawtransaction parameter checks, in zcashd's order", () => {
  it.each([
    ['["abc"]', -8, "parameter 1 must be hexadecimal string (not 'abc')"],
    ['[""]', -8, "parameter 1 must be hexadecimal string (not '')"],
    ['[5]', -8, "parameter 1 must be hexadecimal string (not '')"],
    [`["0x${TX5}"]`, -8, `parameter 1 must be hexadecimal string (not '0x${TX5}')`],
    [`["${TX5}", true]`, -1, 'JSON value is not an integer as expected'],
    [`["${TX5}", "1"]`, -1, 'JSON value is not an integer as expected'],
    [`["${TX5}", 1.0]`, -1, 'JSON integer out of range'],
    [`["${TX5}", 0, "zz"]`, -8, "parameter 3 must be hexadecimal string (not 'zz')"],
    [`["${TX5}", 0, null]`, -8, "parameter 3 must be hexadecimal string (not '')"],
    // txid is checked before verbose, verbose before the block hash.
    ['["x", true, "zz"]', -8, "parameter 1 must be hexadecimal string (not 'x')"],
    [`["${TX5}", true, "zz"]`, -1, 'JSON value is not an integer as expected'],
    [`["${'cd'.repeat(32)}", 1]`, -5, NOT_FOUND],
  ])('%s → %i %s', async (params, code, message) => expect(await errorOf(getraw, params)).toEqual({ code, message }));

  it('any even-length hex is a txid (short ones are left-padded)', async () =>
    expect(await errorOf(getraw, '["0a"]')).toEqual({ code: -5, message: NOT_FOUND }));
});

/** The fixture store, counting block reads, with a tip the test may move back down the chain. */
class CountingStore extends MemoryChainStore {
  blockReads = 0;
  private movedTo: number | null = null;
  private moves = 0;

  get tipHeight(): number | null {
    return this.movedTo;
  }

  /** Moves the tip, counted as a store counts its tip changes. */
  set tipHeight(height: number | null) {
    this.movedTo = height;
    this.moves++;
  }

  override tipChanges(): number {
    return this.moves;
  }

  override async blockBytes(hash: Uint8Array): Promise<Uint8Array | null> {
    this.blockReads++;
    return super.blockBytes(hash);
  }

  override async tip(): Promise<{ hash: Uint8Array; height: number } | null> {
    if (this.tipHeight === null) return super.tip();
    return { hash: (await this.hashAtHeight(this.tipHeight))!, height: this.tipHeight };
  }
}

describe('getrawtransaction replies cached per chain tip', () => {
  const confirmationsIn = (reply: string): string => num((parseJson(reply) as JsonObject).get('confirmations'));

  it('answers a repeated request without reading the block again, with the same bytes', async () => {
    const store = new CountingStore(MAINNET, blocks, [side]);
    const method = getRawTransactionMethod(store);
    const first = await resultOf(method, `["${TX5}", 1]`);
    expect(store.blockReads).toBe(1);
    expect(await resultOf(method, `["${TX5}", 1]`)).toBe(first);
    expect(store.blockReads).toBe(1);
    expect(first).toBe(await resultOf(getraw, `["${TX5}", 1]`));
    // Verbosity and the block hash are part of what is asked.
    expect(await resultOf(method, `["${TX5}", 0]`)).toBe(`"${TX5_HEX}"`);
    expect(JSON.parse(await resultOf(method, `["${TX5}", 1, "${B5.hash}"]`)).in_active_chain).toBe(true);
    expect(store.blockReads).toBe(3);
  });

  it('builds the reply again once the tip has moved (confirmations change with it)', async () => {
    const store = new CountingStore(MAINNET, blocks, [side]);
    const method = getRawTransactionMethod(store);
    expect(confirmationsIn(await resultOf(method, `["${TX5}", 1, "${B5.hash}"]`))).toBe('16');
    store.tipHeight = 19;
    expect(confirmationsIn(await resultOf(method, `["${TX5}", 1, "${B5.hash}"]`))).toBe('15');
    store.tipHeight = 4;
    const off = JSON.parse(await resultOf(method, `["${TX5}", 1, "${B5.hash}"]`)) as Record<string, unknown>;
    expect(off.in_active_chain).toBe(false);
    expect(store.blockReads).toBe(3);
  });

  it('tells the server how much it keeps, and after the server drops it reads the block again for the same bytes', async () => {
    const store = new CountingStore(MAINNET, blocks, [side]);
    const method = getRawTransactionMethod(store);
    expect(method.cache?.bytes).toBe(0);
    const first = await resultOf(method, `["${TX5}", 1]`);
    expect(method.cache?.bytes).toBe(first.length);
    method.cache!.clear();
    expect(method.cache?.bytes).toBe(0);
    expect(await resultOf(method, `["${TX5}", 1]`)).toBe(first);
    expect(store.blockReads).toBe(2);
    expect(getRawTransactionMethod(store, { cacheReplies: false }).cache).toBeUndefined();
  });

  it('with cacheReplies off, reads and renders every request', async () => {
    const store = new CountingStore(MAINNET, blocks, [side]);
    const method = getRawTransactionMethod(store, { cacheReplies: false });
    const first = await resultOf(method, `["${TX5}", 1]`);
    expect(await resultOf(method, `["${TX5}", 1]`)).toBe(first);
    expect(store.blockReads).toBe(2);
  });
});

/**
 * A store holding one many-transaction block (zcashd-2019 106598, 9,250 transparent inputs) with
 * its transactions in the txid index, whose stored bytes can be replaced by the same block with
 * two of its transactions swapped (the same length, other starts).
 */
class SwappableBlockStore extends MemoryChainStore {
  readonly block: ReturnType<typeof zcashd2019Side>;
  private readonly hash: Uint8Array;
  private current: Uint8Array;

  constructor() {
    const block = zcashd2019Side(106598);
    super(MAINNET, blocks, [block]);
    this.block = block;
    this.hash = decodeBlock(block.bytes).hash;
    this.current = block.bytes;
  }

  swap(a: number, b: number): void {
    const block = decodeBlock(this.current, STORED_BLOCK_ACCEPTANCE);
    const txs = block.transactions.map((t) => t.bytes);
    const first = txs[0]!.byteOffset - this.current.byteOffset;
    [txs[a], txs[b]] = [txs[b]!, txs[a]!];
    this.current = Uint8Array.from(Buffer.concat([this.current.subarray(0, first), ...txs]));
  }

  transactions(): readonly ReturnType<typeof decodeBlock>['transactions'][number][] {
    return decodeBlock(this.current, STORED_BLOCK_ACCEPTANCE).transactions;
  }

  override async blockBytes(hash: Uint8Array): Promise<Uint8Array | null> {
    return Buffer.from(hash).equals(this.hash) ? this.current : super.blockBytes(hash);
  }

  override async blockTxids(hash: Uint8Array): Promise<Uint8Array[] | null> {
    return Buffer.from(hash).equals(this.hash) ? this.transactions().map((t) => t.txid) : super.blockTxids(hash);
  }

  override async txLocation(txid: Uint8Array): Promise<TxLocation | null> {
    const index = this.transactions().findIndex((t) => Buffer.from(t.txid).equals(txid));
    return index < 0 ? super.txLocation(txid) : { blockHash: this.hash, height: 106598, index };
  }
}

describe('getrawtransaction: a block stepped through once, then asked again', () => {
  it('finds every transaction of a many-transaction block, in any order, through the index and with the block given', async () => {
    const store = new SwappableBlockStore();
    const method = getRawTransactionMethod(store, { cacheReplies: false });
    const txs = store.transactions();
    expect(txs.length).toBeGreaterThan(40);
    const order = [...txs.keys()].reverse().concat([...txs.keys()], [7, 3, 40, 0, txs.length - 1, 12]);
    for (const i of order) {
      const tx = txs[i]!;
      const verbose = await resultOf(method, `["${tx.txidHex}", 1]`);
      expect(verbose.startsWith(txToJsonBytes(tx, MAINNET, { leadingHex: true }).subarray(0, -1).toString('latin1'))).toBe(true);
      expect(await resultOf(method, `["${tx.txidHex}", 0, "${store.block.golden.hash as string}"]`)).toBe(`"${toHex(tx.bytes)}"`);
    }
  });

  it('steps through the block again when its bytes changed under the same hash and length', async () => {
    const store = new SwappableBlockStore();
    const method = getRawTransactionMethod(store, { cacheReplies: false });
    const before = store.transactions();
    expect(before[1]!.size).not.toBe(before[2]!.size);
    // Every start of the block known, then the first transactions swapped: the starts past them are stale.
    await resultOf(method, `["${before[before.length - 1]!.txidHex}", 0]`);
    store.swap(1, 2);
    for (const i of [1, 2, 3, before.length - 1]) {
      const tx = store.transactions()[i]!;
      expect(await resultOf(method, `["${tx.txidHex}", 0]`)).toBe(`"${toHex(tx.bytes)}"`);
    }
  });
});

describe('getrawtransaction: one reading of the chain a reply', () => {
  /** The fixture store, counting block-index and tip reads. */
  class ReadCountingStore extends MemoryChainStore {
    indexReads = 0;
    tipReads = 0;
    override async blockIndex(hash: Uint8Array) {
      this.indexReads++;
      return super.blockIndex(hash);
    }
    override async tip() {
      this.tipReads++;
      return super.tip();
    }
  }

  it('reads the containing block’s index entry once and the tip once, with the block given or through the index', async () => {
    const store = new ReadCountingStore(MAINNET, blocks, [side]);
    const method = getRawTransactionMethod(store, { cacheReplies: false });
    const sideReply = parseJson(await resultOf(method, `["${SIDE_TXIDS[0]}", 1, "${SIDE_HASH}"]`)) as JsonObject;
    expect([store.indexReads, store.tipReads]).toEqual([1, 1]);
    expect(sideReply.get('in_active_chain')).toBe(false);
    expect(num(sideReply.get('confirmations'))).toBe('0');
    store.indexReads = store.tipReads = 0;
    const activeReply = parseJson(await resultOf(method, `["${TX5}", 1, "${B5.hash}"]`)) as JsonObject;
    expect([store.indexReads, store.tipReads]).toEqual([1, 1]);
    expect(activeReply.get('in_active_chain')).toBe(true);
    expect(num(activeReply.get('confirmations'))).toBe('16');
    store.indexReads = store.tipReads = 0;
    await resultOf(method, `["${TX5}", 1]`);
    expect([store.indexReads, store.tipReads]).toEqual([1, 1]);
  });

  /**
   * The fixture store, whose first tip read after `reorganizeOnTipRead` finds the side block
   * 24202 made the best chain's tip (a reorganization between the reply's readings), counted as
   * a tip change; its index entry says so from then on.
   */
  class ReorganizingStore extends ReadCountingStore {
    private reorganized = false;
    reorganizeOnTipRead = false;
    override async blockIndex(hash: Uint8Array) {
      const entry = await super.blockIndex(hash);
      return entry && this.reorganized && toHex(hash) === toHex(decodeBlock(side.bytes).hash) ? { ...entry, onBestChain: true } : entry;
    }
    override async tip() {
      const tip = await super.tip();
      if (this.reorganizeOnTipRead) {
        this.reorganizeOnTipRead = false;
        this.reorganized = true;
      }
      return this.reorganized ? { hash: decodeBlock(side.bytes).hash, height: side.height } : tip;
    }
    override tipChanges(): number {
      return this.reorganized ? 1 : 0;
    }
  }

  it('reads the block members and in_active_chain again when the chain reorganized between its readings', async () => {
    const store = new ReorganizingStore(MAINNET, blocks, [side]);
    const method = getRawTransactionMethod(store, { cacheReplies: false });
    store.reorganizeOnTipRead = true;
    const reply = parseJson(await resultOf(method, `["${SIDE_TXIDS[0]}", 1, "${SIDE_HASH}"]`)) as JsonObject;
    // The side block as the new tip, not its entry from before the reorganization with the tip after it.
    expect(reply.get('in_active_chain')).toBe(true);
    expect(num(reply.get('height'))).toBe('24202');
    expect(num(reply.get('confirmations'))).toBe('1');
    expect([store.indexReads, store.tipReads]).toEqual([2, 2]);
  });
});

describe('TransactionStarts', () => {
  it('keeps the most recently used blocks, and other bytes under the same hash start afresh', () => {
    const starts = new TransactionStarts(2);
    const hash = (n: number) => new Uint8Array(32).fill(n);
    const bytes = new Uint8Array(100);
    starts.of(hash(1), bytes).push(81);
    starts.of(hash(2), bytes).push(81, 90);
    expect(starts.of(hash(1), bytes)).toEqual([81]); // now the most recently used
    starts.of(hash(3), bytes).push(81);
    expect(starts.blocks).toBe(2);
    expect(starts.of(hash(3), bytes)).toEqual([81]);
    expect(starts.of(hash(2), bytes)).toEqual([]); // dropped as the least recently used
    expect(starts.of(hash(3), new Uint8Array(101))).toEqual([]); // other bytes under the same hash
    expect(starts.blocks).toBe(2);
  });
});
