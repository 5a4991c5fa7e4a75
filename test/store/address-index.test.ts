// The insight explorer indexes kept by the store (beside the chain state, whose coins view tells
// them what an input spends): after every connect and disconnect they equal a replay of the active
// chain alone (the losing branch leaves no trace), and what they say about addresses (unspent
// outputs, balances, spenders) equals an independent model of the chain.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { REGTEST, type NetworkParams } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { AddressIndex, SCRIPT_UNKNOWN, addressHash, scriptType } from '../../src/store/indexes/address-index.js';
import { AddressIndexReader } from '../../src/store/indexes/address-index-reader.js';
import { CHAIN_STATE_UNDO_TAG, ChainStateIndex, chainStateUndoSpent } from '../../src/store/indexes/chain-state-index.js';
import type { ChainBlock, IndexReadView } from '../../src/store/indexes/indexer.js';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import { keys } from '../../src/store/layout.js';
import { expandOps } from '../../src/store/block-data.js';
import { openChainStore, type ChainStore } from '../../src/store/index.js';
import { POOL, matureStart, nextNode, rng, type ChainNode } from '../support/address-index-chain.js';
import { mainnetChain, regtestReorg, tempDir } from '../support/store.js';

const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** Every entry under the address index's prefixes, as hex key → hex value. */
async function dump(store: ChainStore): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const p of keys.addressIndexPrefixes) {
    for await (const [k, v] of store.database.iterator({ gte: Buffer.of(p), lt: Buffer.of(p + 1) })) out.set(hexOf(k), hexOf(v));
  }
  return out;
}

/** Database state as a map, with the writes of a batch applied in order. */
class MapState implements IndexReadView {
  readonly entries = new Map<string, Buffer>();
  get(k: Buffer): Buffer | undefined {
    return this.entries.get(hexOf(k));
  }
  apply(ops: readonly { type: 'put' | 'del'; key: Buffer; value?: Uint8Array }[]): void {
    for (const op of ops) {
      if (op.type === 'put') this.entries.set(hexOf(op.key), Buffer.from(op.value!));
      else this.entries.delete(hexOf(op.key));
    }
  }
  /** The entries under the address index's prefixes, hex → hex. */
  addressIndex(): Map<string, string> {
    const prefixes = keys.addressIndexPrefixes.map((p) => p.toString(16).padStart(2, '0'));
    return new Map([...this.entries].filter(([k]) => prefixes.includes(k.slice(0, 2))).map(([k, v]) => [k, hexOf(v)]));
  }
}

function chainBlockOf(bytes: Uint8Array, height: number): ChainBlock {
  const block = decodeBlock(bytes);
  return { hash: block.hash, height, header: block.header.bytes, txids: block.transactions.map((t) => t.txid), block: async () => block };
}

/**
 * The chain state and address index that a replay of `blocks` (heights 0..n, the active chain)
 * produces without any store; both indexers see the state before each block, as in a store.
 */
async function replayState(
  blocks: readonly Uint8Array[],
  network: NetworkParams = REGTEST,
): Promise<{ state: MapState; records: Map<number, Uint8Array>[] }> {
  const state = new MapState();
  const chainState = new ChainStateIndex({ network, hashers: defaultPoolHashers() });
  const index = new AddressIndex();
  const records: Map<number, Uint8Array>[] = [];
  for (const [height, bytes] of blocks.entries()) {
    const block = chainBlockOf(bytes, height);
    const c = await chainState.connect(block, state);
    const a = await index.connect(block, state);
    state.apply(expandOps([...c.ops, ...a.ops]));
    // What the block's undo record keeps: the address index keeps nothing of its own.
    expect(a.undo).toBeUndefined();
    records.push(new Map(c.undo ? [[chainState.undoTag, c.undo]] : []));
  }
  return { state, records };
}

async function replay(blocks: readonly Uint8Array[], network: NetworkParams = REGTEST): Promise<Map<string, string>> {
  return (await replayState(blocks, network)).state.addressIndex();
}

async function activeChain(store: ChainStore, byHash: Map<string, ChainNode>): Promise<ChainNode[]> {
  const tip = await store.tip();
  const out: ChainNode[] = [];
  for (let h = 0; h <= tip!.height; h++) out.push(byHash.get(hexOf((await store.hashAtHeight(h))!))!);
  return out;
}

/** Unspent outputs and balances of the pool addresses at a chain position, from the model. */
async function expectAddressesMatch(reader: AddressIndexReader, node: ChainNode): Promise<void> {
  for (const a of POOL) {
    const want = node.utxos
      .filter((u) => scriptType(u.script) === a.type && hexOf(addressHash(u.script, a.type)) === hexOf(a.hash))
      .map((u) => `${hexOf(u.txid)}:${u.n}:${u.value}`)
      .sort();
    const got = (await reader.unspent(a.type, a.hash)).map((u) => `${hexOf(u.txid)}:${u.index}:${u.value}`).sort();
    expect(got).toEqual(want);
    const deltas = await reader.deltas(a.type, a.hash, 0, 0);
    const balance = deltas.reduce((s, d) => s + d.value, 0);
    expect(balance).toBe(node.utxos.filter((u) => want.includes(`${hexOf(u.txid)}:${u.n}:${u.value}`)).reduce((s, u) => s + u.value, 0));
  }
}

describe('address index under reorganizations', () => {
  const cleanup: (() => Promise<void>)[] = [];
  /** Genesis and the 100 blocks before the first coinbase can be spent, shared by the cases. */
  const prefix = matureStart();
  afterAll(async () => {
    for (const c of cleanup) await c();
  });

  it('equals a replay of the active chain after every connect and disconnect (property)', async () => {
    // Each step forks `depth` blocks below the current tip (0 = extend it) and adds `length`
    // blocks; a longer branch reorganizes the store, a shorter one stays a side chain.
    const step = fc.record({ depth: fc.integer({ min: 0, max: 5 }), length: fc.integer({ min: 1, max: 7 }) });
    let reorganizations = 0;
    let disconnectedSpends = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 6 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (steps, seed) => {
        const dir = tempDir('addr-prop');
        const store = await openChainStore({ datadir: dir.path, network: REGTEST });
        try {
          const random = rng(seed);
          const byHash = new Map<string, ChainNode>();
          const add = async (node: ChainNode): Promise<void> => {
            byHash.set(hexOf(node.block.hash), node);
            const spentBefore = [...(await dump(store)).keys()].filter((k) => k.startsWith('70')).length;
            const r = await store.addBlock(node.block.bytes);
            if (r.status === 'reorganized') {
              reorganizations++;
              if (spentBefore > 0) disconnectedSpends++;
            }
            const chain = await activeChain(store, byHash);
            expect(await dump(store)).toEqual(await replay(chain.map((n) => n.block.bytes)));
            await expectAddressesMatch(new AddressIndexReader(store.database), chain[chain.length - 1]!);
          };
          // The prefix goes in unchecked (it only has coinbases); everything after it is checked.
          for (const node of prefix) {
            byHash.set(hexOf(node.block.hash), node);
            await store.addBlock(node.block.bytes);
          }
          let tip = prefix.at(-1)!;
          for (let i = 0; i < 6; i++) await add((tip = nextNode(tip, 'base', random)));
          for (const [s, { depth, length }] of steps.entries()) {
            const chain = await activeChain(store, byHash);
            let node = chain[Math.max(0, chain.length - 1 - depth)]!;
            for (let i = 0; i < length; i++) await add((node = nextNode(node, `b${s}`, random)));
          }
        } finally {
          await store.close();
          dir.remove();
        }
      }),
      { numRuns: 25 },
    );
    // The generated cases did exercise what the property is about.
    expect(reorganizations).toBeGreaterThan(10);
    expect(disconnectedSpends).toBeGreaterThan(5);
  }, 120_000);

  it('ends the regtest 20-block reorganization exactly like a store that never saw the losing branch', async () => {
    const { base, branch, manifest } = regtestReorg();
    const open = async (label: string, blocks: Uint8Array[]): Promise<ChainStore> => {
      const dir = tempDir(label);
      const store = await openChainStore({ datadir: dir.path, network: REGTEST });
      cleanup.push(async () => {
        await store.close();
        dir.remove();
      });
      for (const b of blocks) await store.addBlock(b);
      return store;
    };
    const a = await open('addr-reorg-a', [...base, ...branch]);
    const b = await open('addr-reorg-b', [...base.slice(0, manifest.forkHeight + 1), ...branch]);
    expect(await dump(a)).toEqual(await dump(b));
    expect(await dump(a)).toEqual(await replay([...base.slice(0, manifest.forkHeight + 1), ...branch]));
    // Every regtest block after genesis pays its 6.25 ZEC coinbase to one P2PKH script.
    const payout = decodeBlock(base[1]!).transactions[0]!.data.vout[0]!.scriptPubKey;
    const reader = new AddressIndexReader(a.database);
    const deltas = await reader.deltas(1, addressHash(payout, 1), 0, 0);
    expect(deltas.map((d) => d.height)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    expect(deltas.every((d) => d.value === 625_000_000 && !d.spending)).toBe(true);
    // The winning branch's blocks are the ones indexed.
    expect(
      deltas
        .slice(10)
        .map((d) => d.txid)
        .every((t, i) => hexOf(t) === hexOf(decodeBlock(branch[i]!).transactions[0]!.txid)),
    ).toBe(true);
    // Logical times: one timestamp entry per active block but genesis, in height order here.
    const times = await reader.timestamps(0xffffffff, 0);
    expect(times.map((t) => hexOf(t.hash))).toEqual(
      [...base.slice(1, manifest.forkHeight + 1), ...branch].map((blk) => hexOf(decodeBlock(blk).hash)),
    );
  });

  it("disconnects a block from the chain state's undo blob alone, with the spent outputs gone from the coins view", async () => {
    const random = rng(424242);
    const nodes = [...prefix];
    for (let h = 1; h <= 30; h++) nodes.push(nextNode(nodes.at(-1)!, 'undo', random, 4));
    const all = nodes.map((n) => n.block.bytes);
    const full = await replayState(all);
    // The highest block that spends outputs of earlier blocks.
    const spentFromView = (r: Map<number, Uint8Array>): number => chainStateUndoSpent(r.get(CHAIN_STATE_UNDO_TAG)!).length;
    const tip = full.records.reduce((last, r, h) => (h > 0 && spentFromView(r) > 0 ? h : last), -1);
    expect(tip).toBeGreaterThan(1);
    const blocks = all.slice(0, tip + 1);
    const { state, records } = await replayState(blocks);
    const withoutCoins = new MapState();
    for (const [k, v] of state.entries) if (!k.startsWith('63')) withoutCoins.entries.set(k, v);
    expect(withoutCoins.entries.size).toBeLessThan(state.entries.size);
    const ops = await new AddressIndex().disconnect(chainBlockOf(blocks[tip]!, tip), null, withoutCoins, records[tip]!);
    withoutCoins.apply(expandOps(ops));
    expect(withoutCoins.addressIndex()).toEqual(await replay(blocks.slice(0, tip)));
    // Without the chain state's blob the spends cannot be undone: the test above would fail.
    const blind = await new AddressIndex().disconnect(chainBlockOf(blocks[tip]!, tip), null, withoutCoins, new Map());
    expect(blind.length).toBeLessThan(ops.length);
  });

  it("indexes the real mainnet blocks 0..20: founders' reward and miner outputs, nothing of genesis", async () => {
    const blocks = mainnetChain();
    const dir = tempDir('addr-mainnet');
    const { MAINNET } = await import('../../src/chain/network.js');
    const store = await openChainStore({ datadir: dir.path, network: MAINNET });
    cleanup.push(async () => {
      await store.close();
      dir.remove();
    });
    for (const b of blocks) await store.addBlock(b);
    expect(await dump(store)).toEqual(await replay(blocks, MAINNET));
    const reader = new AddressIndexReader(store.database);
    // Recount from the decoded blocks: every P2PKH/P2SH output of blocks 1..20 is unspent.
    const expected = new Map<string, number>();
    for (const bytes of blocks.slice(1)) {
      for (const tx of decodeBlock(bytes).transactions) {
        for (const out of tx.data.vout) {
          const t = scriptType(out.scriptPubKey);
          if (t === SCRIPT_UNKNOWN) continue;
          const k = `${t}:${hexOf(addressHash(out.scriptPubKey, t))}`;
          expected.set(k, (expected.get(k) ?? 0) + out.value);
        }
      }
    }
    // Early miners were paid to P2PK scripts (no address); the only address is the first
    // founders' reward address (zcashd chainparams), paid in every block.
    const { encodeTransparentAddress } = await import('../../src/codec/script/address.js');
    expect([...expected.keys()].map((k) => encodeTransparentAddress('p2sh', Buffer.from(k.split(':')[1]!, 'hex'), MAINNET))).toEqual([
      't3Vz22vK5z2LcKEdg16Yv4FFneEL1zg9ojd',
    ]);
    expect((await reader.deltas(2, Buffer.from([...expected.keys()][0]!.split(':')[1]!, 'hex'), 0, 0)).map((d) => d.height)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    for (const [k, total] of expected) {
      const [t, h] = k.split(':');
      const utxos = await reader.unspent(Number(t), Buffer.from(h!, 'hex'));
      expect(utxos.reduce((s, u) => s + u.value, 0)).toBe(total);
    }
    // Genesis is not indexed (zcashd's ConnectBlock skips it): no timestamp entry for it either.
    const times = await reader.timestamps(0xffffffff, 0);
    expect(times).toHaveLength(20);
    expect(times[0]!.logicalTime).toBe(decodeBlock(blocks[1]!).header.time);
  });

  it('reads the value forms stores of the previous release wrote: spending txids in `p`, scripts in `a`', async () => {
    const random = rng(9090);
    const nodes = [...prefix];
    for (let h = 1; h <= 25; h++) nodes.push(nextNode(nodes.at(-1)!, 'legacy', random, 4));
    const dir = tempDir('addr-legacy');
    const store = await openChainStore({ datadir: dir.path, network: REGTEST });
    cleanup.push(async () => {
      await store.close();
      dir.remove();
    });
    for (const n of nodes) await store.addBlock(n.block.bytes);
    const reader = new AddressIndexReader(store.database);
    const db = store.database;
    // Every spend as (outpoint → spending txid, vin, height), read through the compact values.
    const spends = new Map<string, string>();
    const legacy: { key: Buffer; value: Buffer }[] = [];
    for await (const [k, v] of db.iterator({ gte: Buffer.from('p'), lt: Buffer.from('q') })) {
      const info = reader.spent(k.subarray(1, 33), k.readUInt32LE(33))!;
      expect(info.txid).toBeNull();
      const txid = reader.spendingTxid(info)!;
      spends.set(hexOf(k), `${hexOf(txid)}:${info.inputIndex}:${info.height}:${info.value}:${info.type}:${hexOf(info.hash)}`);
      legacy.push({ key: k, value: Buffer.concat([txid, v.subarray(4)]) });
    }
    // The spends the model knows: every input of every block, spending txid from the block itself.
    let inputs = 0;
    for (const n of nodes.slice(1)) {
      for (const tx of decodeBlock(n.block.bytes).transactions) {
        if (tx.isCoinbase) continue;
        tx.data.vin.forEach((input, j) => {
          const key = hexOf(keys.spent(input.prevout.hash, input.prevout.index));
          expect(spends.get(key)?.split(':').slice(0, 3)).toEqual([hexOf(tx.txid), String(j), String(n.block.height)]);
          inputs++;
        });
      }
    }
    expect(spends.size).toBe(inputs);
    // The scripts the blocks carry, by outpoint: what the old values held.
    const scripts = new Map<string, Uint8Array>();
    for (const n of nodes) {
      for (const tx of decodeBlock(n.block.bytes).transactions)
        tx.data.vout.forEach((o, i) => scripts.set(`${hexOf(tx.txid)}:${i}`, o.scriptPubKey));
    }
    const unspentBefore = await Promise.all(POOL.map((a) => reader.unspent(a.type, a.hash)));
    expect(unspentBefore.flat().length).toBeGreaterThan(10);
    for (const u of unspentBefore.flat()) expect(hexOf(u.script)).toBe(hexOf(scripts.get(`${hexOf(u.txid)}:${u.index}`)!));
    for await (const [k, v] of db.iterator({ gte: Buffer.from('a'), lt: Buffer.from('b') })) {
      expect(v.length).toBe(12);
      legacy.push({ key: k, value: Buffer.concat([v, scripts.get(`${hexOf(k.subarray(22, 54))}:${k.readUInt32LE(54)}`)!]) });
    }
    await db.batch(legacy.map(({ key, value }) => ({ type: 'put' as const, key, value })));
    for (const [key, want] of spends) {
      const k = Buffer.from(key, 'hex');
      const info = reader.spent(k.subarray(1, 33), k.readUInt32LE(33))!;
      expect(info.txid).not.toBeNull();
      expect(`${hexOf(reader.spendingTxid(info)!)}:${info.inputIndex}:${info.height}:${info.value}:${info.type}:${hexOf(info.hash)}`).toBe(
        want,
      );
    }
    const asText = (us: Awaited<ReturnType<AddressIndexReader['unspent']>>[]): string[][] =>
      us.map((list) => list.map((u) => `${hexOf(u.txid)}:${u.index}:${u.value}:${u.height}:${hexOf(u.script)}`));
    expect(asText(await Promise.all(POOL.map((a) => reader.unspent(a.type, a.hash))))).toEqual(asText(unspentBefore));
  });
});
