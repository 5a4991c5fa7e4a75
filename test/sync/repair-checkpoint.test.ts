// `zecrpc verify -repair` on a store started from a checkpoint (mainnet 10, real blocks 11..20
// after it): its block files begin after the checkpoint, so the rebuilt store is started from the
// same checkpoint, read back from the damaged store, and ends up the store a fresh
// `import --checkpoint` plus an import of those blocks makes. When the checkpoint's records cannot
// be read, the repair is refused and the store is left exactly as it was.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { afterEach, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { blockWork } from '../../src/chain/pow.js';
import { decodeBlock } from '../../src/codec/block.js';
import { runVerify } from '../../src/cli/verify.js';
import type { CheckpointStart } from '../../src/store/chain.js';
import { chainStateKeys } from '../../src/store/indexes/chain-state-index.js';
import { keys } from '../../src/store/layout.js';
import { openChainStore } from '../../src/store/index.js';
import { importBlkFiles } from '../../src/sync/blk.js';
import { damagedStoreDirectory, RepairRefusedError } from '../../src/sync/repair.js';
import { damageLoggedBlock, dumpStoreIndex } from '../support/store-io.js';
import { blkRecords, hex, mainnetChain, tempDir } from '../support/store.js';

const blocks = mainnetChain();
const CP = 10;
const after = blocks.slice(CP + 1);
const hashAt = (h: number): string => hex(decodeBlock(blocks[h]!).hash)!;

/** The checkpoint at mainnet 10 as an operator's file gives it: three headers, the real chain work and nChainTx. */
const checkpoint = (): CheckpointStart => ({
  height: CP,
  headers: [8, 9, 10].map((h) => decodeBlock(blocks[h]!).header.bytes),
  chainWork: blocks.slice(0, CP + 1).reduce((w, b) => w + blockWork(decodeBlock(b).header.bits), 0n),
  chainTx: CP + 1,
  state: { sprout: '000000', sapling: '000000', orchard: '000000', history: null, totals: { sprout: 0n, sapling: 0n, orchard: 0n } },
});

const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
const fresh = (label: string): string => {
  const dir = tempDir(label);
  dirs.push(dir);
  return dir.path;
};

/** Started at the checkpoint, then 11..20 one batch per block, closed: the batches are still in LevelDB's log. */
async function checkpointStore(label: string): Promise<string> {
  const datadir = fresh(label);
  const store = await openChainStore({ datadir, network: MAINNET });
  await store.startFromCheckpoint(checkpoint());
  for (const b of after) await store.addBlock(b);
  await store.close();
  return datadir;
}

/** What `zecrpc import --checkpoint` and then `zecrpc import --blocks-dir` with blocks 11..20 make. */
async function freshCheckpointImport(): Promise<string> {
  const datadir = fresh('repair-cp-expected');
  const source = join(fresh('repair-cp-blk'), 'blocks');
  mkdirSync(source);
  writeFileSync(join(source, 'blk00000.dat'), blkRecords(MAINNET.magic, after));
  const store = await openChainStore({ datadir, network: MAINNET, groupCommit: true });
  await store.startFromCheckpoint(checkpoint());
  expect((await importBlkFiles(store, source, { progress: 'silent' })).added).toBe(10);
  await store.close();
  return datadir;
}

/** Every LevelDB entry but the blk importer's resume position (`I` ‖ its source path), and the block files. */
async function storeContents(datadir: string): Promise<{ index: Map<string, string>; blocks: string }> {
  const index = await dumpStoreIndex(datadir);
  for (const k of index.keys()) if (k.startsWith(keys.importCheckpoint('').toString('hex'))) index.delete(k);
  return { index, blocks: readFileSync(join(datadir, 'zecrpc', 'blocks', 'blk00000.dat')).toString('hex') };
}

/** Every file under `dir` with its size and digest: what "left exactly as it was" is checked against. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(dir, path), `${statSync(path).size}:${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
    }
  };
  walk(dir);
  return out;
}

/** Flips a bit in the block 15's header inside the log batch that stored it: LevelDB would drop it and what follows. */
function damageLog(datadir: string): void {
  expect(damageLoggedBlock(datadir, blocks[15]!)).not.toBeNull();
}

/** Changes the store's records as `change` does, through LevelDB directly. */
async function changeRecords(storeDir: string, change: (db: ClassicLevel<Buffer, Buffer>) => Promise<void>): Promise<void> {
  const db = new ClassicLevel<Buffer, Buffer>(join(storeDir, 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
  await db.open();
  await change(db);
  await db.close();
}

/** Damage to the checkpoint's records, and what the refusal says was found. */
const checkpointDamage: { name: string; problem: string; change: (db: ClassicLevel<Buffer, Buffer>) => Promise<void> }[] = [
  {
    name: "a bit flipped in its chain state's value (P)",
    problem: 'the record of the chain state after its checkpoint (P) is damaged (its checksum does not match)',
    change: async (db) => {
      const value = Buffer.from((await db.get(chainStateKeys.checkpointTip()))!);
      value[10]! ^= 0x01;
      await db.put(chainStateKeys.checkpointTip(), value);
    },
  },
  {
    name: 'no chain-state record (P), as in a store started before zecrpc kept one',
    problem: 'the record of the chain state after its checkpoint (P) is missing (a store started before zecrpc kept it has none)',
    change: (db) => db.del(chainStateKeys.checkpointTip()),
  },
  {
    name: "a checkpoint header's index record (H) gone, its best-chain entry left",
    problem: 'the index record (H) of the header at height 8 is missing, though the best chain names one there',
    change: async (db) => db.del(keys.index((await db.get(keys.height(8)))!.subarray(0, 32))),
  },
];

async function repair(datadir: string): Promise<string> {
  let out = '';
  expect(await runVerify([`-datadir=${datadir}`, '-repair'], (s) => void (out += s))).toBe(0);
  return out;
}

const refusal = (problem: string, datadir: string, storeDir: string, unchanged: string, blocksOf: string): string =>
  `cannot rebuild the chain store at ${storeDir} from its block files: it began at checkpoint height 10: its block files begin ` +
  `there, with block ${hashAt(11)}, and the records of that checkpoint cannot be read (${problem}). ${unchanged} Import it again from the checkpoint instead: move ` +
  `${datadir} aside, run \`zecrpc import --checkpoint FILE|URL\` with the same -datadir and network, then \`zecrpc import ` +
  `--blocks-dir\` with the blocks folder of ${blocksOf}.`;

describe('zecrpc verify -repair on a store started from a checkpoint', () => {
  it('lost log records: rebuilt from its own checkpoint, the same store a fresh import --checkpoint makes', async () => {
    const datadir = await checkpointStore('repair-cp-log');
    damageLog(datadir);
    await expect(openChainStore({ datadir, network: MAINNET })).rejects.toThrow(/lost data it had committed/);

    const out = await repair(datadir);
    expect(out).toMatch(
      new RegExp(
        `^repaired: the store was rebuilt from its checkpoint at height 10 and its block files \\(10 blocks stored, tip 20 ${hashAt(20)}\\); ` +
          'the damaged store is kept in .*zecrpc\\.damaged: delete it once the repaired store serves\\n' +
          'checked 13 index records, 10 stored blocks, 13 best-chain entries, \\d+ LevelDB checksums: no damage found\\n$',
      ),
    );
    expect(await storeContents(datadir)).toEqual(await storeContents(await freshCheckpointImport()));
    const store = await openChainStore({ datadir, network: MAINNET });
    try {
      for (let h = 8; h <= 20; h++) expect(hex(await store.hashAtHeight(h))).toBe(hashAt(h));
      expect(await store.hashAtHeight(7)).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('an interrupted repair (the store set aside, the new one empty) resumes from the checkpoint too', async () => {
    const datadir = await checkpointStore('repair-cp-resume');
    damageLog(datadir);
    // What a repair that stopped right after setting the store aside leaves: an empty new store.
    renameSync(join(datadir, 'zecrpc'), damagedStoreDirectory(datadir));
    await (await openChainStore({ datadir, network: MAINNET })).close();

    const out = await repair(datadir);
    expect(out).toMatch(
      /^repaired: the store was rebuilt from its checkpoint at height 10 and its block files \(10 blocks stored, tip 20 /,
    );
    expect(await storeContents(datadir)).toEqual(await storeContents(await freshCheckpointImport()));
  });

  it('a repair interrupted after the rebuilt store started and stored 11..13 resumes where it stopped', async () => {
    const datadir = await checkpointStore('repair-cp-resume-late');
    damageLog(datadir);
    renameSync(join(datadir, 'zecrpc'), damagedStoreDirectory(datadir));
    const partial = await openChainStore({ datadir, network: MAINNET });
    await partial.startFromCheckpoint(checkpoint());
    for (const b of blocks.slice(CP + 1, 14)) await partial.addBlock(b);
    await partial.close();

    const out = await repair(datadir);
    expect(out).toMatch(/^repaired: the store was rebuilt from its checkpoint at height 10 and its block files \(7 blocks stored, tip 20 /);
    expect(await storeContents(datadir)).toEqual(await storeContents(await freshCheckpointImport()));
  });

  it('a store holding its checkpoint and no block after it: rebuilt at the checkpoint, not left empty', async () => {
    const datadir = fresh('repair-cp-bare');
    const store = await openChainStore({ datadir, network: MAINNET });
    await store.startFromCheckpoint(checkpoint());
    await store.close();
    const expectedDir = fresh('repair-cp-bare-expected');
    const expected = await openChainStore({ datadir: expectedDir, network: MAINNET, groupCommit: true });
    await expected.startFromCheckpoint(checkpoint());
    await expected.close();

    const out = await repair(datadir);
    expect(out).toMatch(
      new RegExp(
        `^repaired: the store was rebuilt from its checkpoint at height 10 and its block files \\(0 blocks stored, tip 10 ${hashAt(10)}\\)`,
      ),
    );
    expect(await storeContents(datadir)).toEqual(await storeContents(expectedDir));
  });

  it.each(checkpointDamage)('$name: refused before anything moves, the store left exactly as it was', async ({ problem, change }) => {
    const datadir = await checkpointStore('repair-cp-refused');
    const storeDir = join(datadir, 'zecrpc');
    await changeRecords(storeDir, change);
    const before = snapshot(datadir);
    for (let attempt = 0; attempt < 2; attempt++) {
      const e = await runVerify([`-datadir=${datadir}`, '-repair'], () => undefined).then(
        () => null,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(RepairRefusedError);
      expect((e as Error).message).toBe(refusal(problem, storeDir, storeDir, 'Nothing was moved or changed.', 'the store moved aside'));
      expect(existsSync(damagedStoreDirectory(datadir))).toBe(false);
      expect(snapshot(datadir)).toEqual(before);
    }
  });

  it('the same damage found resuming: refused, the set-aside store and the new one left as they were', async () => {
    const datadir = await checkpointStore('repair-cp-resume-refused');
    const damaged = damagedStoreDirectory(datadir);
    renameSync(join(datadir, 'zecrpc'), damaged);
    await changeRecords(damaged, checkpointDamage[0]!.change);
    await (await openChainStore({ datadir, network: MAINNET })).close();
    const before = snapshot(datadir);
    await expect(runVerify([`-datadir=${datadir}`, '-repair'], () => undefined)).rejects.toThrow(
      new RepairRefusedError(
        refusal(
          checkpointDamage[0]!.problem,
          join(datadir, 'zecrpc'),
          damaged,
          `Nothing more was changed: the damaged store stays in ${damaged}, the store being rebuilt in ${join(datadir, 'zecrpc')}.`,
          damaged,
        ),
      ),
    );
    expect(snapshot(datadir)).toEqual(before);
  });
});
