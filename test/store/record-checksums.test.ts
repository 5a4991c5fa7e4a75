// Issue 41, item 1: every value the store writes carries a checksum checked on every read. A
// damaged chain-state value is answered as zcashd answers an unreadable block, logged once with
// its key and counted, never served as data; a store of schema version 6 (test-vectors/store-v6)
// gains the checksums through a migration that resumes after a crash.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { ClassicLevel } from 'classic-level';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { SHIELDED_REGTEST } from '../../test-vectors/regtest-shielded.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHexReversed } from '../../src/codec/hex.js';
import { loadNodeConfig } from '../../src/config.js';
import { nodeFigures } from '../../src/cli/node-metrics.js';
import { RpcMetrics } from '../../src/rpc/http/metrics.js';
import { startRpcServer, type RunningRpcServer } from '../../src/rpc/http/server.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { chainStateKeys } from '../../src/store/indexes/chain-state-index.js';
import { SCHEMA_VERSION, keys } from '../../src/store/layout.js';
import { migrate } from '../../src/store/migrations/index.js';
import { hasValidChecksum, openValue, recordCrc, RecordChecksumError, sealValue } from '../../src/store/record-checksums.js';
import { openChainStore, type ChainStore } from '../../src/store/index.js';
import { scanStore } from '../../src/store/scan.js';
import { verifiedStoreReader } from '../../src/store/verify.js';
import { mainnetGenesisRun } from '../support/memory-store.js';
import { tempDir } from '../support/store.js';
import { post, PASSWORD, USER } from '../stress/fixtures.js';

const blocks = mainnetGenesisRun();
const hashes = blocks.map((b) => decodeBlock(b).hash);
const UNREADABLE = { code: -32603, message: "Can't read block from disk" };

const rawDb = (datadir: string) =>
  new ClassicLevel<Buffer, Buffer>(join(datadir, 'zecrpc', 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });

/** Every key and raw value of a closed store. */
async function rawEntries(datadir: string): Promise<[Buffer, Buffer][]> {
  const db = rawDb(datadir);
  await db.open();
  try {
    return await db.iterator().all();
  } finally {
    await db.close();
  }
}

describe('the checksum', () => {
  it("is zlib's CRC-32 at every length, on both sides of the table/native switch", () => {
    const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 131 + 7) & 0xff));
    for (let n = 0; n <= bytes.length; n++) expect(recordCrc(bytes.subarray(0, n))).toBe(crc32(bytes.subarray(0, n)));
    // The check value of CRC-32 (IEEE): "123456789" → cbf43926.
    expect(recordCrc(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it('catches every single flipped bit of a sealed value, checksum bytes included', () => {
    const sealed = sealValue(Buffer.from('0123456789abcdef0123456789', 'hex'));
    expect(openValue(sealed).toString('hex')).toBe('0123456789abcdef0123456789');
    for (let bit = 0; bit < sealed.length * 8; bit++) {
      const damaged = Buffer.from(sealed);
      damaged[bit >> 3]! ^= 1 << (bit & 7);
      expect(() => openValue(damaged, Buffer.of(0x42))).toThrow(RecordChecksumError);
    }
    expect(() => openValue(Buffer.of(1, 2, 3))).toThrow('its checksum does not match');
  });
});

describe('a damaged chain-state value', () => {
  const dir = tempDir('record-checksums');
  const logLines: string[] = [];
  let store: ChainStore;
  let server: RunningRpcServer;
  const metrics = new RpcMetrics({ processMetrics: false });
  const stateKey = chainStateKeys.blockState(hashes[10]!);

  beforeAll(async () => {
    const first = await openChainStore({ datadir: dir.path, network: MAINNET });
    for (const b of blocks) await first.addBlock(b);
    await first.close();
    // What a flipped bit in a table hands LevelDB's reader: the stored value with one bit changed.
    const db = rawDb(dir.path);
    await db.open();
    const value = Buffer.from((await db.get(stateKey))!);
    expect(hasValidChecksum(value)).toBe(true);
    value[value.length - 12]! ^= 0x01; // inside the value, before its checksum
    await db.put(stateKey, value);
    await db.close();

    store = await openChainStore({ datadir: dir.path, network: MAINNET, log: (l) => logLines.push(l) });
    metrics.attachNode(nodeFigures(store, dir.path, null));
    const config = loadNodeConfig([`-datadir=${dir.path}`, '-rpcport=0', `-rpcuser=${USER}`, `-rpcpassword=${PASSWORD}`]);
    server = await startRpcServer({
      config,
      methods: storeMethods(verifiedStoreReader(store, (line) => logLines.push(line))),
      logger: { level: 'info', stream: { write: (s: string) => void logLines.push(s) } },
    });
  });
  afterAll(async () => {
    await server.close();
    await store.close();
    dir.remove();
  });

  async function getblock(height: number, verbosity: number) {
    const r = await post(server.port, JSON.stringify({ id: 1, method: 'getblock', params: [toHexReversed(hashes[height]!), verbosity] }));
    return { status: r.statusLine, json: JSON.parse(r.body.toString('utf8')) as { result: unknown; error: unknown } };
  }

  it('is answered as zcashd answers an unreadable block, every time, and logged once with its key', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await getblock(10, 1);
      expect(r.status).toBe('HTTP/1.1 500 Internal Server Error');
      expect(r.json.error).toEqual(UNREADABLE);
    }
    const keyHex = stateKey.toString('hex');
    const named = logLines.filter((l) => l.includes(`LevelDB key ${keyHex} fails its checksum`));
    expect(named).toHaveLength(1);
    // The reply names no path; the log names no path either, only the key.
    expect(logLines.some((l) => l.includes(dir.path))).toBe(false);
    expect(store.damagedReads).toBe(2);
    expect(await metrics.registry.getSingleMetricAsString('zecrpc_store_damaged_reads_total')).toContain(
      'zecrpc_store_damaged_reads_total 2',
    );
  });

  it('leaves the other blocks served as before', async () => {
    const r = await getblock(9, 1);
    expect(r.json.error).toBeNull();
    expect((r.json.result as { height: number; hash: string }).height).toBe(9);
    expect((await getblock(10, 0)).json.result).toBe(Buffer.from(blocks[10]!).toString('hex'));
  });

  it('is listed by zecrpc verify with its key', async () => {
    await server.close();
    await store.close();
    const report = await scanStore(dir.path, MAINNET);
    expect(report.problems).toEqual([{ where: `LevelDB record ${stateKey.toString('hex')}`, problem: 'its checksum does not match' }]);
    expect(report.recordChecksums).toBeGreaterThan(21 * 5);
    store = await openChainStore({ datadir: dir.path, network: MAINNET });
    server = await startRpcServer({
      config: loadNodeConfig([`-datadir=${dir.path}`, '-rpcport=0', `-rpcuser=${USER}`, `-rpcpassword=${PASSWORD}`]),
      methods: storeMethods(store),
    });
  });
});

describe('schema version 7 on a store of version 6 (test-vectors/store-v6)', () => {
  const FIXTURE = join(import.meta.dirname, '..', '..', 'test-vectors', 'store-v6');
  const crashed = tempDir('store-v6-crashed');
  const straight = tempDir('store-v6-straight');
  const crashedData = join(crashed.path, 'regtest');
  const straightData = join(straight.path, 'regtest');
  afterAll(() => {
    crashed.remove();
    straight.remove();
  });

  it('rewrites every value with its checksum in batches, resumes after a crash, and ends as an uninterrupted run', async () => {
    cpSync(FIXTURE, crashed.path, { recursive: true });
    cpSync(FIXTURE, straight.path, { recursive: true });
    const before = await rawEntries(crashedData);
    expect(before.find(([k]) => k.equals(keys.version()))![1].readUInt32LE(0)).toBe(6);

    const db = rawDb(crashedData);
    await db.open();
    const chunks: number[] = [];
    await expect(
      migrate(db, 6, 'regtest', () => undefined, {
        chunkBytes: 4096,
        afterChunk: (n) => {
          chunks.push(n);
          if (chunks.length === 3) throw new Error('simulated crash');
        },
      }),
    ).rejects.toThrow('simulated crash');
    await db.close();
    // Mid-way: still version 6, the resume position kept, part of the values rewritten.
    const mid = await rawEntries(crashedData);
    expect(mid.find(([k]) => k.equals(keys.version()))![1].readUInt32LE(0)).toBe(6);
    expect(mid.some(([k]) => k.equals(keys.migrationProgress(7)))).toBe(true);
    const sealedMid = mid.filter(([k, v]) => !k.equals(keys.version()) && hasValidChecksum(v)).length;
    expect(sealedMid).toBeGreaterThan(0);
    expect(sealedMid).toBeLessThan(mid.length - 2);

    const lines: string[] = [];
    const resumed = await openChainStore({ datadir: crashedData, network: SHIELDED_REGTEST, log: (l) => lines.push(l) });
    await resumed.close();
    expect(lines).toContain('upgrading the chain store to schema version 7: add a checksum to every record, checked whenever it is read');
    const upgraded = await openChainStore({ datadir: straightData, network: SHIELDED_REGTEST });
    await upgraded.close();

    const after = await rawEntries(crashedData);
    expect(after.map(([k, v]) => [k.toString('hex'), v.toString('hex')])).toEqual(
      (await rawEntries(straightData)).map(([k, v]) => [k.toString('hex'), v.toString('hex')]),
    );
    // Every value of the old store, now with its checksum; the mark and the new version added.
    const byKey = new Map(after.map(([k, v]) => [k.toString('hex'), v]));
    for (const [k, v] of before) {
      const now = byKey.get(k.toString('hex'))!;
      if (k.equals(keys.version())) continue;
      expect(hasValidChecksum(now)).toBe(true);
      expect(now.subarray(0, now.length - 4).equals(v)).toBe(true);
    }
    expect(after.length).toBe(before.length + 1);
    expect(byKey.get(keys.recordChecksums().toString('hex'))).toBeDefined();
    expect(byKey.get(keys.version().toString('hex'))!.readUInt32LE(0)).toBe(SCHEMA_VERSION);
    expect(byKey.has(keys.migrationProgress(7).toString('hex'))).toBe(false);
  });
});
