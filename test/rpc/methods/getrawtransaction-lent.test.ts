// getrawtransaction with a block hash finds the transaction through the block's stored txid
// list (only that one is hashed), answering as the full scan does even when the list is missing
// or wrong; a reply nobody keeps is rendered into memory lent to it until it has been written.
import { describe, expect, it } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { JsonNumber } from '../../../src/json/value.js';
import { inputRunWriter, setInputWasmEnabled } from '../../../src/render/input-wasm.js';
import { txToJsonBytes } from '../../../src/render/tx.js';
import type { RpcContext } from '../../../src/rpc/method.js';
import { getRawTransactionMethod } from '../../../src/rpc/methods/rawtransaction/getrawtransaction.js';
import { LENT_REPLY_BYTES, LentReplyMemory, transactionReplyMemory } from '../../../src/rpc/methods/reply-memory.js';
import type { ChainStoreReader } from '../../../src/store/types.js';
import { MemoryChainStore, mainnetGenesisRun, zcashd2019Side } from '../../support/memory-store.js';
import { callMethod } from '../../support/call.js';

/** Mainnet 106598 (a side block here): 41 transactions, #40 of 66 kB with 447 inputs. */
const side = zcashd2019Side(106598);
const block = decodeBlock(side.bytes);
const store = new MemoryChainStore(MAINNET, mainnetGenesisRun(), [side]);

/** The store with the block's txid list replaced. */
function withTxids(txids: Uint8Array[] | null): ChainStoreReader {
  return Object.create(store, { blockTxids: { value: async () => txids } }) as ChainStoreReader;
}

/** The `ReplyScope` a server gives a request, with the releases it was handed. */
function scope(): { hold: (release: () => void) => void; releases: (() => void)[] } {
  const releases: (() => void)[] = [];
  return { hold: (r) => releases.push(r), releases };
}

describe('getrawtransaction with a block hash', () => {
  const ids = block.transactions.map((t) => t.txid);
  const stores: [string, ChainStoreReader][] = [
    ['the stored list', store],
    ['no list', withTxids(null)],
    ['a list in the wrong order', withTxids([...ids].reverse())],
    ['a list without the transaction', withTxids(ids.slice(0, 1))],
  ];
  for (const [what, s] of stores) {
    it(`answers from ${what} as zcashd does`, async () => {
      const m = getRawTransactionMethod(s, { cacheReplies: false });
      for (const i of [0, 1, 20, 40]) {
        const tx = block.transactions[i]!;
        const out = await callMethod(m, `["${tx.txidHex}", 1, "${block.hashHex}"]`);
        const want = txToJsonBytes(tx, MAINNET, { leadingHex: true, inActiveChain: false, block: { hash: block.hash, notIndexed: true } });
        expect(out).toEqual({ result: want.toString('utf8') });
      }
      expect(await callMethod(m, `["${'ab'.repeat(32)}", 1, "${block.hashHex}"]`)).toEqual({
        error: { code: -5, message: 'No such transaction found in the provided block. Use gettransaction for wallet transactions.' },
      });
    });
  }
});

describe('lent reply memory', () => {
  it('renders an uncached reply into a lent buffer, given back once when its scope releases it', async () => {
    const m = getRawTransactionMethod(store, { cacheReplies: false });
    const tx = block.transactions[40]!;
    const s = scope();
    const before = transactionReplyMemory.stats().lent;
    const ctx: RpcContext = { network: MAINNET, requestStop() {}, replyScope: s };
    const reply = (await m.call([tx.txidHex, new JsonNumber('1'), block.hashHex], ctx)) as Buffer;
    // Its 447 inputs are written by the WebAssembly module: the reply lies in one of its reply slots.
    expect(reply.buffer).toBe(inputRunWriter()!.memory);
    const expected = ((await callMethod(m, `["${tx.txidHex}", 1, "${block.hashHex}"]`)) as { result: string }).result;
    expect(reply.toString('utf8')).toBe(expected);
    expect(transactionReplyMemory.stats().lent).toBe(before + 1);
    expect(s.releases.length).toBe(1);
    s.releases[0]!();
    s.releases[0]!();
    expect(transactionReplyMemory.stats().lent).toBe(before);
    // Without the module, its kept slot is lent as any kept buffer, and JavaScript writes the inputs into it.
    setInputWasmEnabled(false);
    try {
      const t = scope();
      const plain = (await m.call([tx.txidHex, new JsonNumber('1'), block.hashHex], { ...ctx, replyScope: t })) as Buffer;
      expect(plain.buffer.byteLength).toBeGreaterThanOrEqual(LENT_REPLY_BYTES);
      expect(plain.toString('utf8')).toBe(expected);
      expect(transactionReplyMemory.stats().lent).toBe(before + 1);
      for (const r of t.releases) r();
    } finally {
      setInputWasmEnabled(true);
    }
    // The cached method keeps memory of its own and lends nothing.
    const cached = getRawTransactionMethod(store);
    const c = scope();
    await callMethod(cached, `["${tx.txidHex}", 1, "${block.hashHex}"]`, { replyScope: c });
    expect(c.releases.length).toBe(0);
  });

  it('never lends one buffer to two replies at once, lends at most its maximum, and keeps at most its share', () => {
    const pool = new LentReplyMemory(1024, 3, 2);
    const scopes = [scope(), scope(), scope()];
    const lent = scopes.map((s) => pool.lend(s, 1000));
    expect(pool.lend(scope(), 1000)).toBeNull();
    expect(pool.lend(scope(), 2000)).toBeNull();
    expect(new Set(lent).size).toBe(3);
    expect(pool.stats()).toEqual({ lent: 3, kept: 0 });
    // A request holds one buffer at most: its second reply renders into memory of its own.
    for (const s of scopes) for (const r of s.releases) r();
    expect(pool.stats()).toEqual({ lent: 0, kept: 2 });
    const [s, t] = [scope(), scope()];
    const again = [pool.lend(s, 10), pool.lend(t, 10)];
    expect(pool.lend(s, 10)).toBeNull();
    expect(again[0]).not.toBe(again[1]);
    expect(lent).toContain(again[0]);
    expect(lent).toContain(again[1]);
  });
});
