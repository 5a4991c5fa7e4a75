// submitblock with a store that takes blocks: each block goes through the store's normal
// acceptance and the reply is zcashd v6.12.2's BIP22 result (src/rpc/mining.cpp submitblock,
// BIP22ValidationResult): real mainnet blocks (valid, duplicate, a bad merkle root, an orphan,
// a bad solution) and the regtest reorg chain (a side branch; a block too far ahead of the
// node's clock, then accepted once setmocktime moves the clock).
import { afterEach, describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, type NetworkParams } from '../../../src/chain/network.js';
import { NodeClock } from '../../../src/clock.js';
import { decodeBlock, decodeBlockHeader } from '../../../src/codec/block.js';
import { handleJsonRpcBody } from '../../../src/rpc/dispatch.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { MethodRegistry } from '../../../src/rpc/registry.js';
import { openChainStore, type ChainStore } from '../../../src/store/index.js';
import { mainnetChain, regtestReorg, tempDir } from '../../support/store.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function openStore(network: NetworkParams, now?: () => number): Promise<ChainStore> {
  const dir = tempDir('submitblock');
  const store = await openChainStore({ datadir: dir.path, network, ...(now ? { now } : {}) });
  cleanups.push(dir.remove);
  cleanups.push(() => store.close());
  return store;
}

async function rpc(registry: MethodRegistry, network: NetworkParams, method: string, params: unknown[]): Promise<string> {
  const body = JSON.stringify({ id: 1, method, params });
  const reply = await handleJsonRpcBody(Buffer.from(body), registry, { network, requestStop: () => {} });
  return (typeof reply.body === 'string' ? reply.body : Buffer.concat(reply.body).toString('utf8')).trimEnd();
}
const ok = (result: string) => `{"result":${result},"error":null,"id":1}`;
const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('submitblock: validated and stored locally', () => {
  it('real mainnet blocks: null when it joins the chain, duplicate, bad-txnmrklroot, bad-prevblk, invalid-solution', async () => {
    const chain = mainnetChain();
    const store = await openStore(MAINNET);
    for (const block of chain.slice(0, 5)) await store.addBlock(block);
    const registry = new MethodRegistry(storeMethods(store, { blockAcceptor: store }));
    const submit = (bytes: Uint8Array) => rpc(registry, MAINNET, 'submitblock', [hexOf(bytes)]);

    expect(await submit(chain[5]!)).toBe(ok('null'));
    expect(await rpc(registry, MAINNET, 'getblockcount', [])).toBe(ok('5'));
    expect(await submit(chain[5]!)).toBe(ok('"duplicate"'));

    // Block 6's header (a valid solution, parent 5) over block 7's transactions.
    const header6 = decodeBlockHeader(chain[6]!).bytes;
    const txs7 = chain[7]!.subarray(decodeBlockHeader(chain[7]!).bytes.length);
    const badMerkle = Buffer.concat([header6, txs7]);
    expect(await submit(badMerkle)).toBe(ok('"bad-txnmrklroot"'));
    // Block 7 whose parent, 6, the store does not hold.
    expect(await submit(chain[7]!)).toBe(ok('"bad-prevblk"'));
    // A header whose nonce changed: its Equihash solution no longer holds (CheckBlockHeader first).
    const badSolution = Buffer.from(chain[6]!);
    badSolution[108] = badSolution[108]! ^ 1;
    expect(await submit(badSolution)).toBe(ok('"invalid-solution"'));
    expect(await rpc(registry, MAINNET, 'getblockcount', [])).toBe(ok('5'));

    // Bytes after the block are ignored, as DecodeHexBlk ignores them.
    expect(await submit(Buffer.concat([chain[6]!, Buffer.from([0xde, 0xad])]))).toBe(ok('null'));
    expect(await rpc(registry, MAINNET, 'getblockcount', [])).toBe(ok('6'));
  });

  it('regtest: a less-worked side branch is inconclusive; a block past the node clock is time-too-new until setmocktime', async () => {
    const v = regtestReorg();
    const clock = new NodeClock({ kind: 'fixed', seconds: Math.floor(Date.now() / 1000) });
    const store = await openStore(REGTEST, clock.seconds);
    for (const block of v.base.slice(0, 12)) await store.addBlock(block);
    const registry = new MethodRegistry(storeMethods(store, { blockAcceptor: store, nodeClock: clock }));
    const submit = (bytes: Uint8Array) => rpc(registry, REGTEST, 'submitblock', [hexOf(bytes)]);

    // Branch block 11 forks from base 10: as much work as the tip (base 11), so it stays aside.
    expect(await submit(v.branch[0]!)).toBe(ok('"inconclusive"'));
    expect(await rpc(registry, REGTEST, 'getbestblockhash', [])).toBe(ok(`"${v.manifest.base[11]!.hash}"`));

    const time12 = decodeBlock(v.base[12]!).header.time;
    expect(await rpc(registry, REGTEST, 'setmocktime', [time12 - 7201])).toBe(ok('null'));
    expect(await submit(v.base[12]!)).toBe(ok('"time-too-new"'));
    expect(await rpc(registry, REGTEST, 'setmocktime', [time12 - 7200])).toBe(ok('null'));
    expect(await submit(v.base[12]!)).toBe(ok('null'));
    expect(await rpc(registry, REGTEST, 'getblockcount', [])).toBe(ok('12'));
  });
});
