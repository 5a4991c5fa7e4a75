// Schema version 4 builds the address index for a store that has blocks and their chain state
// (version 3) but no index: the result (index entries and undo records) equals a store that indexed
// every block as it came, it resumes where a crash (thrown, or kill -9 of the process) left it,
// reorganizations after the upgrade undo the replayed blocks exactly, and its scratch records of
// spent outputs are gone once it completes.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { storedValue } from '../../src/store/record-checksums.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGTEST } from '../../src/chain/network.js';
import { TxIndex } from '../../src/store/indexes/tx-index.js';
import { SCHEMA_VERSION, keys } from '../../src/store/layout.js';
import { encodeVersionRecord, migrate } from '../../src/store/migrations/index.js';
import { checkStoreIntegrity, openChainStore, type ChainStore } from '../../src/store/index.js';
import { decodeUndoRecord } from '../../src/store/undo.js';
import { COINBASE_MATURITY, matureStart, nextNode, rng, type ChainNode } from '../support/address-index-chain.js';
import { tempDir } from '../support/store.js';

const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');
/** Every indexer a store keeps (the defaults): the migrations build all of them. */
const INDEXED = () => undefined;
const PREFIXES = [
  ...keys.addressIndexPrefixes,
  0x55 /* U: undo records */,
  0x58 /* X: migration progress and scratch */,
  0x63 /* c: coins */,
];

/**
 * An undo record with its blobs in tag order: a store that indexed every block as it came writes
 * them in indexer order, the migrations in the order the indexes were built.
 */
function canonicalUndo(v: Buffer): string {
  const blobs = [...decodeUndoRecord(v)].sort(([a], [b]) => a - b);
  return blobs.map(([tag, blob]) => `${tag}:${hexOf(blob)}`).join(' ');
}

/** Every entry of the listed prefixes, values as the store reads them (a raw database's without their checksums). */
async function dumpDb(db: ClassicLevel<Buffer, Buffer>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const p of PREFIXES) {
    for await (const [k, stored] of db.iterator({ gte: Buffer.of(p), lt: Buffer.of(p + 1) })) {
      const v = storedValue(db, stored, k);
      out.set(hexOf(k), p === 0x55 ? canonicalUndo(v) : hexOf(v));
    }
  }
  return out;
}

/** The height before the first that may spend a coinbase: the spending starts after it. */
const M = COINBASE_MATURITY;
/** The heights where a migration of blocks 1..`last` in chunks of 7 reports a full chunk, up to `upTo`. */
const chunkEnds = (last: number, upTo = last): number[] =>
  Array.from({ length: Math.floor(last / 7) }, (_, i) => 7 * (i + 1)).filter((p) => p - 7 < upTo);

/** base 0..M + 40 with spends after M, and a branch from M + 30 that is 3 blocks longer (reorganizes 10 blocks). */
function chains(): { base: ChainNode[]; branch: ChainNode[] } {
  const random = rng(20240601);
  const base = matureStart();
  for (let h = 1; h <= 40; h++) base.push(nextNode(base.at(-1)!, 'base', random, 4));
  const branch: ChainNode[] = [];
  let node = base[M + 30]!;
  for (let i = 0; i < 13; i++) branch.push((node = nextNode(node, 'branch', random, 4)));
  return { base, branch };
}

/** A store holding `base` written without the index, then marked as schema version 2 (which had no record of it). */
async function versionTwoStore(datadir: string, blocks: readonly ChainNode[]): Promise<void> {
  const store = await openChainStore({ datadir, network: REGTEST, indexers: [new TxIndex()], addressIndex: false });
  for (const n of blocks) await store.addBlock(n.block.bytes);
  await store.close();
  const db = rawDb(datadir);
  await db.open();
  await db.del(keys.noAddressIndex());
  await db.put(keys.version(), encodeVersionRecord(2, REGTEST.name));
  await db.close();
}

function rawDb(datadir: string): ClassicLevel<Buffer, Buffer> {
  return new ClassicLevel<Buffer, Buffer>(join(datadir, 'zecrpc', 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
}

describe('schema version 4: building the address index of an existing store', () => {
  const { base, branch } = chains();
  const dirs: { remove(): void }[] = [];
  const stores: ChainStore[] = [];
  let reference: ChainStore;
  const dir = (label: string): string => {
    const d = tempDir(label);
    dirs.push(d);
    return d.path;
  };
  const track = (s: ChainStore): ChainStore => (stores.push(s), s);

  beforeAll(async () => {
    reference = track(await openChainStore({ datadir: dir('mig-ref'), network: REGTEST, indexers: INDEXED() }));
    for (const n of base) await reference.addBlock(n.block.bytes);
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    for (const d of dirs) d.remove();
  });

  it('replays the active chain on open, with progress lines, to the index a store kept from the start', async () => {
    const datadir = dir('mig-open');
    await versionTwoStore(datadir, base);
    const lines: string[] = [];
    const upgraded = track(await openChainStore({ datadir, network: REGTEST, indexers: INDEXED(), log: (l) => lines.push(l) }));
    expect(lines[0]).toBe(
      'upgrading the chain store to schema version 3: compute and verify the chain state (value pools, coins, note-commitment and history trees) of the active chain',
    );
    expect(lines).toContain(
      'upgrading the chain store to schema version 4: build the address, spent and timestamp indexes (insight explorer) for the active chain',
    );
    expect(
      lines.indexOf(
        'upgrading the chain store to schema version 4: build the address, spent and timestamp indexes (insight explorer) for the active chain',
      ),
    ).toBeGreaterThan(0);
    expect(lines.some((l) => new RegExp(`^address index: ${M + 41} blocks replayed in \\d+\\.\\d s$`).test(l))).toBe(true);
    expect((await upgraded.database.get(keys.version()))!.readUInt32LE(0)).toBe(SCHEMA_VERSION);
    expect(await dumpDb(upgraded.database)).toEqual(await dumpDb(reference.database));
    expect((await checkStoreIntegrity(upgraded)).problems).toEqual([]);

    // The replayed blocks' undo blobs work: a 10-block reorganization ends where the reference does.
    const expectedAfter = track(await openChainStore({ datadir: dir('mig-ref2'), network: REGTEST, indexers: INDEXED() }));
    for (const n of [...base.slice(0, M + 31), ...branch]) await expectedAfter.addBlock(n.block.bytes);
    for (const n of branch) await upgraded.addBlock(n.block.bytes);
    expect((await upgraded.tip())!.height).toBe(M + 43);
    expect(await dumpDb(upgraded.database)).toEqual(await dumpDb(expectedAfter.database));
  });

  it('resumes from its last committed chunk after a crash', async () => {
    /** Past the first spends (block M + 1), so the scratch space has spent outputs to hold. */
    const CRASH_AT = M + 21;
    const datadir = dir('mig-crash');
    await versionTwoStore(datadir, base);
    const db = rawDb(datadir);
    await db.open();
    const positions: string[] = [];
    await expect(
      migrate(db, 2, REGTEST.name, () => undefined, {
        chunkBlocks: 7,
        afterChunk: (p) => {
          const building = db.getSync(keys.migrationProgress(4)) ? 4 : 3;
          positions.push(`v${building}:${p}`);
          if (building === 4 && p >= CRASH_AT) throw new Error('simulated crash');
        },
      }),
    ).rejects.toThrow('simulated crash');
    // Each full chunk of 7 blocks is reported; the crash comes after the first address-index
    // chunk ending at CRASH_AT or above (`stop`).
    const stop = chunkEnds(M + 40).find((p) => p >= CRASH_AT)!;
    expect(positions).toEqual([...chunkEnds(M + 40).map((p) => `v3:${p}`), ...chunkEnds(M + 40, stop).map((p) => `v4:${p}`)]);
    expect(db.getSync(keys.version())!.readUInt32LE(0)).toBe(3);
    expect(db.getSync(keys.migrationProgress(4))!.readUInt32LE(0)).toBe(stop);
    // The partial index holds blocks 1..stop − 1 and nothing after: no timestamp entry past them.
    const times: string[] = [];
    for await (const k of db.keys({ gte: Buffer.of(0x73), lt: Buffer.of(0x74) })) times.push(hexOf(k.subarray(5)));
    expect(times).toEqual(base.slice(1, stop).map((n) => hexOf(n.block.hash)));
    // Mid-build, the scratch space holds the outputs of blocks 1..stop − 1 that a later block spends.
    const scratch = await db.keys({ gt: keys.migrationProgress(4), lt: keys.migrationProgress(5) }).all();
    expect(scratch.length).toBeGreaterThan(0);

    const lines: string[] = [];
    await migrate(db, 3, REGTEST.name, (l) => lines.push(l), { chunkBlocks: 7 });
    expect(lines).toContain(`address index: resuming at height ${stop} of ${M + 40}`);
    expect(await db.keys({ gte: keys.migrationProgress(4), lt: keys.migrationProgress(5) }).all()).toEqual([]);
    expect(await dumpDb(db)).toEqual(await dumpDb(reference.database));
    await db.close();
  });

  it('leaves a consistent store when the process is killed (kill -9) during the build, and completes on the next open', async () => {
    const datadir = dir('mig-kill');
    await versionTwoStore(datadir, base);
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'address-index-migrate-child.ts'), datadir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    // Kill right after the child reports its second committed chunk of the address index (the
    // chain state is built first): mid-build, a batch possibly in flight.
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.split('\n').filter((l) => l.startsWith('v4:')).length >= 2) {
          child.kill('SIGKILL');
        }
      });
      child.on('exit', () => resolve());
      child.on('error', reject);
    });
    expect(out).not.toContain('done');
    const db = rawDb(datadir);
    await db.open();
    expect(db.getSync(keys.version())!.readUInt32LE(0)).toBe(3);
    const resumeAt = db.getSync(keys.migrationProgress(4))!.readUInt32LE(0);
    expect(resumeAt).toBeGreaterThanOrEqual(6);
    expect(resumeAt).toBeLessThan(M + 41);
    await db.close();

    const reopened = track(await openChainStore({ datadir, network: REGTEST, indexers: INDEXED() }));
    expect((await checkStoreIntegrity(reopened)).problems).toEqual([]);
    expect(await dumpDb(reopened.database)).toEqual(await dumpDb(reference.database));
  }, 60_000);
});
