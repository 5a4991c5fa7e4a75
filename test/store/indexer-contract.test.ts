// The indexer contract: each indexer declares its key prefixes and a store refuses to open with
// two owners of one; the chain state is the core step, and the chain hands what it connected
// (the coins each input spends, the coins the block spent) to every other indexer, at connect
// and again at disconnect, whatever the order the indexers are listed in.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REGTEST } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import { openChainStore, type ChainStore } from '../../src/store/chain.js';
import { AddressIndex } from '../../src/store/indexes/address-index.js';
import { ChainStateIndex } from '../../src/store/indexes/chain-state-index.js';
import type { ChainBlock, ConnectedBlock, DisconnectedBlock, Indexer } from '../../src/store/indexes/indexer.js';
import { TxIndex } from '../../src/store/indexes/tx-index.js';
import { keys } from '../../src/store/layout.js';
import { matureStart, nextNode, rng, type ChainNode } from '../support/address-index-chain.js';
import { tempDir } from '../support/store.js';

const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const chainState = (): ChainStateIndex => new ChainStateIndex({ network: REGTEST, hashers: defaultPoolHashers() });

/** An indexer that writes nothing and declares `prefixes`. */
function claiming(name: string, undoTag: number, prefixes: number[]): Indexer {
  return { name, undoTag, keyPrefixes: prefixes, connect: () => ({ ops: [] }), disconnect: () => [] };
}

/** What a secondary indexer was handed, block by block (`+` connect, `-` disconnect). */
class Recorder implements Indexer {
  readonly name = 'recorder';
  readonly undoTag = 0x72;
  readonly keyPrefixes = [];
  readonly needsCore = true;
  readonly connected = new Map<string, ConnectedBlock>();
  readonly disconnected: { hash: string; core: DisconnectedBlock | undefined }[] = [];

  connect(block: ChainBlock, _view: unknown, core?: ConnectedBlock) {
    if (!core) throw new Error('the recorder was connected without the core result');
    this.connected.set(hexOf(block.hash), core);
    return { ops: [] };
  }

  disconnect(block: ChainBlock, _undo: unknown, _view: unknown, _record: unknown, core?: DisconnectedBlock) {
    this.disconnected.push({ hash: hexOf(block.hash), core });
    return [];
  }
}

/** A spending chain and a branch 3 blocks below its tip that overtakes it (the switch disconnects spends). */
function forkedChain(): { base: ChainNode[]; branch: ChainNode[] } {
  const random = rng(3535);
  const base = matureStart('contract');
  for (let i = 0; i < 8; i++) base.push(nextNode(base.at(-1)!, 'contract-base', random, 4));
  const branch: ChainNode[] = [];
  let node = base.at(-4)!;
  for (let i = 0; i < 5; i++) branch.push((node = nextNode(node, 'contract-branch', random, 4)));
  return { base, branch };
}

/** Every output of `blocks` by outpoint, as the value and script an input spending it must be handed. */
function outputsOf(blocks: readonly Uint8Array[]): Map<string, { value: number; script: string }> {
  const out = new Map<string, { value: number; script: string }>();
  for (const bytes of blocks) {
    for (const tx of decodeBlock(bytes).transactions) {
      tx.data.vout.forEach((o, n) => out.set(`${hexOf(tx.txid)}:${n}`, { value: o.value, script: hexOf(o.scriptPubKey) }));
    }
  }
  return out;
}

describe('key prefixes', () => {
  const dirs: ReturnType<typeof tempDir>[] = [];
  afterAll(() => dirs.forEach((d) => d.remove()));
  const dir = (label: string): string => {
    const d = tempDir(label);
    dirs.push(d);
    return d.path;
  };

  it("refuses an indexer claiming another indexer's prefix, before the store is created", async () => {
    const datadir = dir('clash-indexer');
    const open = openChainStore({ datadir, network: REGTEST, indexers: [new TxIndex(), claiming('shadow', 0x11, [keys.txPrefix])] });
    await expect(open).rejects.toThrow("the shadow indexer's key prefix 0x74 is already the txindex indexer's");
    expect(existsSync(join(datadir, 'zecrpc', 'index'))).toBe(false);
  });

  it("refuses an indexer claiming a prefix of the chain's own records", async () => {
    const open = openChainStore({
      datadir: dir('clash-chain'),
      network: REGTEST,
      indexers: [claiming('squatter', 0x12, [keys.indexPrefix])],
    });
    await expect(open).rejects.toThrow("the squatter indexer's key prefix 0x48 is already the chain's");
  });

  it('refuses two address indexes, and an address index without the chain state', async () => {
    const twice = openChainStore({
      datadir: dir('clash-twice'),
      network: REGTEST,
      indexers: [chainState(), new AddressIndex(), claiming('copy', 0x13, [0x64])],
    });
    await expect(twice).rejects.toThrow("the copy indexer's key prefix 0x64 is already the addressindex indexer's");
    const alone = openChainStore({ datadir: dir('no-core'), network: REGTEST, indexers: [new TxIndex(), new AddressIndex()] });
    await expect(alone).rejects.toThrow('the addressindex indexer needs the chain-state indexer');
  });

  it('opens with the default indexers, whose prefixes are disjoint', async () => {
    const store = await openChainStore({ datadir: dir('defaults'), network: REGTEST });
    await store.close();
  });
});

describe('the core step and its results', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanup) await c();
  });
  const open = async (label: string, indexers: Indexer[]): Promise<ChainStore> => {
    const d = tempDir(label);
    const store = await openChainStore({ datadir: d.path, network: REGTEST, indexers });
    cleanup.push(async () => {
      await store.close();
      d.remove();
    });
    return store;
  };

  it('hands every secondary indexer the coins each input spends, and at a disconnect the coins the block spent', async () => {
    const { base, branch } = forkedChain();
    const recorder = new Recorder();
    // Listed before the chain state: the chain still connects the core first.
    const store = await open('core-results', [new TxIndex(), recorder, chainState(), new AddressIndex()]);
    for (const n of base) expect((await store.addBlock(n.block.bytes)).status).toBe('connected');
    const statuses = [];
    for (const n of branch) statuses.push((await store.addBlock(n.block.bytes)).status);
    expect(statuses).toContain('reorganized');

    const outputs = outputsOf([...base, ...branch].map((n) => n.block.bytes));
    let inputs = 0;
    for (const n of [...base, ...branch]) {
      const block = decodeBlock(n.block.bytes);
      const core = recorder.connected.get(hexOf(block.hash))!;
      expect(core).toBeDefined();
      const createdHere = new Set(block.transactions.flatMap((tx) => tx.data.vout.map((_, k) => `${hexOf(tx.txid)}:${k}`)));
      const fromView: string[] = [];
      block.transactions.forEach((tx, t) => {
        const coins = core.inputCoins[t]!;
        expect(coins.length).toBe(tx.isCoinbase ? 0 : tx.data.vin.length);
        coins.forEach((coin, i) => {
          const prev = tx.data.vin[i]!.prevout;
          const id = `${hexOf(prev.hash)}:${prev.index}`;
          expect({ value: coin!.value, script: hexOf(coin!.scriptPubKey) }).toEqual(outputs.get(id));
          if (!createdHere.has(id)) fromView.push(id);
          inputs++;
        });
      });
      // What the block spent from the coins view, in input order.
      expect(core.spent.map((s) => `${hexOf(s.outpoint.hash)}:${s.outpoint.index}`)).toEqual(fromView);
    }
    expect(inputs).toBeGreaterThan(10);

    // The switch disconnected the base's last 3 blocks, each handed back what its connect spent.
    expect(recorder.disconnected.map((d) => d.hash)).toEqual(
      base
        .slice(-3)
        .map((n) => hexOf(n.block.hash))
        .reverse(),
    );
    let spends = 0;
    for (const { hash, core } of recorder.disconnected) {
      const connected = recorder.connected.get(hash)!;
      expect(core!.spent.map((s) => [`${hexOf(s.txid)}:${s.n}`, s.coin.value])).toEqual(
        connected.spent.map((s) => [`${hexOf(s.outpoint.hash)}:${s.outpoint.index}`, s.coin.value]),
      );
      spends += core!.spent.length;
    }
    expect(spends).toBeGreaterThan(0);
  });

  it('keeps the same records whatever order the indexers are listed in', async () => {
    const { base, branch } = forkedChain();
    const usual = await open('order-usual', [new TxIndex(), chainState(), new AddressIndex()]);
    const reversed = await open('order-reversed', [new AddressIndex(), chainState(), new TxIndex()]);
    for (const store of [usual, reversed]) for (const n of [...base, ...branch]) await store.addBlock(n.block.bytes);
    const dump = async (store: ChainStore): Promise<string[]> =>
      (await store.database.iterator().all()).map(([k, v]) => `${hexOf(k)}=${hexOf(v)}`);
    const records = await dump(usual);
    expect(records.filter((r) => r.startsWith('64')).length).toBeGreaterThan(0);
    expect(await dump(reversed)).toEqual(records);
  });
});
