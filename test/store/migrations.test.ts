// A store written by the first layout (schema version 1, test-vectors/store-v1) opens, is
// upgraded in place, and then answers every read exactly like a store built from scratch by
// today's code from the same blocks.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGTEST } from '../../src/chain/network.js';
import type { RpcMethod } from '../../src/rpc/method.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { SCHEMA_VERSION, keys } from '../../src/store/layout.js';
import { encodeVersionRecord } from '../../src/store/migrations/index.js';
import { type ChainStore, StoreOpenError, checkStoreIntegrity, openChainStore } from '../../src/store/index.js';
import { hex, regtestReorg, tempDir } from '../support/store.js';
import { resultOf } from '../support/call.js';

const V1_STORE = join(import.meta.dirname, '..', '..', 'test-vectors', 'store-v1');
const CLOCK = { clock: () => 1752983473 };

describe('a version-1 store after upgrading', () => {
  const oldDir = tempDir('store-v1');
  const newDir = tempDir('store-new');
  const lines: string[] = [];
  let upgraded: ChainStore;
  let fresh: ChainStore;

  beforeAll(async () => {
    cpSync(V1_STORE, oldDir.path, { recursive: true });
    const datadir = join(oldDir.path, 'regtest');
    const raw = new ClassicLevel<Buffer, Buffer>(join(datadir, 'zecrpc', 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
    expect((await raw.get(keys.version()))!.readUInt32LE(0)).toBe(1);
    await raw.close();
    upgraded = await openChainStore({ datadir, network: REGTEST, log: (l) => lines.push(l) });

    // The same blocks, imported by today's code: base 0..20, then the equal-work branch 11..20.
    const { base, branch } = regtestReorg();
    fresh = await openChainStore({ datadir: newDir.path, network: REGTEST });
    for (const b of base.slice(0, 21)) await fresh.addBlock(b);
    for (const b of branch.slice(0, 10)) expect((await fresh.addBlock(b)).status).toBe('side-chain');
  });
  afterAll(async () => {
    await upgraded.close();
    await fresh.close();
    oldDir.remove();
    newDir.remove();
  });

  it('says what it upgrades, records the new version and stays consistent', async () => {
    expect(lines[0]).toBe(`upgrading the chain store to schema version 2: record nChainTx (transactions from genesis) for every block`);
    expect((await upgraded.database.get(keys.version()))!.readUInt32LE(0)).toBe(SCHEMA_VERSION);
    expect((await checkStoreIntegrity(upgraded)).problems).toEqual([]);
  });

  it('records the highest block record (version 5): height 20, where both branches end', async () => {
    expect(lines).toContain('upgrading the chain store to schema version 5: record the height of the highest block record');
    expect((await upgraded.database.get(keys.highestRecord()))!.readUInt32LE(0)).toBe(20);
    expect((await fresh.database.get(keys.highestRecord()))!.readUInt32LE(0)).toBe(20);
    // Above it, a block is new without a lookup; at or below it, a stored one is still a duplicate.
    const { base, branch } = regtestReorg();
    expect((await upgraded.addBlock(branch[9]!)).status).toBe('duplicate');
    expect((await upgraded.addBlock(base[20]!)).status).toBe('duplicate');
  });

  it('has the nChainTx of every block, side branch included (one coinbase per block)', async () => {
    const { manifest } = regtestReorg();
    for (const b of manifest.base.slice(0, 21)) {
      expect(await upgraded.chainTx(Buffer.from(b.hash, 'hex').reverse())).toBe(b.height + 1);
    }
    for (const b of manifest.branch.slice(0, 10)) {
      expect(await upgraded.chainTx(Buffer.from(b.hash, 'hex').reverse())).toBe(b.height + 1);
    }
  });

  it("answers every read method byte for byte like a store built by today's code", async () => {
    const a = new Map<string, RpcMethod>(storeMethods(upgraded, CLOCK).map((m) => [m.name, m]));
    const b = new Map<string, RpcMethod>(storeMethods(fresh, CLOCK).map((m) => [m.name, m]));
    const same = async (name: string, params: unknown[]): Promise<void> => {
      const call = (m: Map<string, RpcMethod>): Promise<string> => resultOf(m.get(name)!, JSON.stringify(params));
      expect(await call(a)).toBe(await call(b));
    };
    const { manifest } = regtestReorg();
    for (const blk of [...manifest.base.slice(0, 21), ...manifest.branch.slice(0, 10)]) {
      for (const v of [0, 1, 2]) await same('getblock', [blk.hash, v]);
      await same('getblockheader', [blk.hash]);
    }
    await same('getblockcount', []);
    await same('getbestblockhash', []);
    const info = (s: string): string => s.replace(/"size_on_disk":\d+/, '');
    const call = async (s: ChainStore): Promise<string> =>
      info(
        await resultOf(
          storeMethods(s, CLOCK).find((m) => m.name === 'getblockchaininfo')!,
          '[]',
        ),
      );
    expect(await call(upgraded)).toBe(await call(fresh));
    expect(await resultOf(a.get('getblockcount')!, '[]')).toBe('20');
    expect(hex(await upgraded.hashAtHeight(20))).toBe(manifest.base[20]!.hash);
  });

  it('keeps accepting blocks: the branch takes over with one more block', async () => {
    const { branch, manifest } = regtestReorg();
    const r = await upgraded.addBlock(branch[10]!);
    expect(r.status).toBe('reorganized');
    expect(hex((await upgraded.tip())!.hash)).toBe(manifest.branch[10]!.hash);
    expect(await upgraded.chainTx((await upgraded.tip())!.hash)).toBe(22);
    expect((await checkStoreIntegrity(upgraded)).problems).toEqual([]);
  });
});

describe('schema versions', () => {
  it('refuses a store written by a newer zecrpc, naming both versions', async () => {
    const dir = tempDir('store-future');
    const store = await openChainStore({ datadir: dir.path, network: REGTEST });
    await store.database.put(keys.version(), encodeVersionRecord(SCHEMA_VERSION + 1, 'regtest'));
    await store.close();
    await expect(openChainStore({ datadir: dir.path, network: REGTEST })).rejects.toThrow(StoreOpenError);
    await expect(openChainStore({ datadir: dir.path, network: REGTEST })).rejects.toThrow(
      `has schema version ${SCHEMA_VERSION + 1}, written by a newer zecrpc; this one reads up to version ${SCHEMA_VERSION}`,
    );
    dir.remove();
  });
});
