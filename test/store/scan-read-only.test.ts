// `zecrpc verify` on what LevelDB leaves behind: files it no longer reads are not damage, the verdict
// is the same however often it runs, and a store that must not be written is read without a write.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { formatScanReport } from '../../src/cli/verify.js';
import { checkLevelDbFiles } from '../../src/store/leveldb-files.js';
import { openChainStore } from '../../src/store/index.js';
import { scanStore } from '../../src/store/scan.js';
import { mainnetGenesisRun } from '../support/memory-store.js';
import { tempDir } from '../support/store.js';

/** Every file under `dir` with its contents' hash: what "changing nothing" means. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[path.slice(dir.length)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

const blocks = mainnetGenesisRun();

describe('verify and the files LevelDB leaves', () => {
  const dir = tempDir('scan-read-only');
  const indexDir = join(dir.path, 'zecrpc', 'index');
  beforeAll(async () => {
    const store = await openChainStore({ datadir: dir.path, network: MAINNET });
    for (const b of blocks) await store.addBlock(b);
    await store.close(); // the last blocks stay in LevelDB's log, for the next open to replay
  });
  afterAll(() => dir.remove());

  it('reads a store it must not write through a private copy: every record checked, no file of the store touched', async () => {
    const before = snapshot(dir.path);
    const report = await scanStore(dir.path, MAINNET, { readOnly: true });
    expect(report.problems).toEqual([]);
    expect(report.readOnly).toBe(true);
    expect([report.recordsChecked, report.blocksChecked, report.heightsChecked]).toEqual([21, 21, 21]);
    expect(report.levelDbChecksums).toBeGreaterThan(0);
    expect(snapshot(dir.path)).toEqual(before);
    expect(formatScanReport(report)).toMatch(
      /^read-only store: read through a private copy of its LevelDB logs, changing nothing\nchecked 21 index records, 21 stored blocks, 21 best-chain entries, [1-9]\d* LevelDB checksums: no damage found\n$/,
    );
  });

  it('finds damage in read-only mode too', async () => {
    const blockFile = join(dir.path, 'zecrpc', 'blocks', 'blk00000.dat');
    const sound = readFileSync(blockFile);
    const damaged = Buffer.from(sound);
    damaged[damaged.indexOf(Buffer.from(blocks[3]!)) + 100]! ^= 0x01;
    writeFileSync(blockFile, damaged);
    try {
      const report = await scanStore(dir.path, MAINNET, { readOnly: true });
      expect(report.problems).toHaveLength(1);
      expect(report.problems[0]!.problem).toMatch(/^the header hashes to /);
    } finally {
      writeFileSync(blockFile, sound);
    }
  });

  it('does not count a table LevelDB no longer lists (a compaction cut short) as damage, and LevelDB deletes it', async () => {
    // A table number above every live one, holding what a crash mid-write leaves: no footer.
    const orphan = '009999.ldb';
    writeFileSync(join(indexDir, orphan), Buffer.alloc(5000, 0x5a));
    const files = checkLevelDbFiles(indexDir);
    expect(files.problems).toEqual([]);
    expect(files.obsolete).toEqual([orphan]);
    const first = await scanStore(dir.path, MAINNET);
    expect(first.problems).toEqual([]);
    expect(first.levelDbObsolete).toEqual([orphan]);
    expect(formatScanReport(first)).toContain(
      `not checked: 1 LevelDB files its MANIFEST no longer lists, deleted at its next open (${orphan})\n`,
    );
    // Opening the store (as the scan does, in place) is LevelDB's next open: the file is gone, and a
    // second run gives the same verdict.
    expect(readdirSync(indexDir)).not.toContain(orphan);
    const second = await scanStore(dir.path, MAINNET);
    expect(second.problems).toEqual([]);
    expect([second.recordsChecked, second.blocksChecked, second.heightsChecked]).toEqual([21, 21, 21]);
  });

  it('names a table the MANIFEST lists but the directory lacks', () => {
    const table = readdirSync(indexDir).find((f) => f.endsWith('.ldb'))!;
    const bytes = readFileSync(join(indexDir, table));
    const copy = tempDir('scan-missing-table');
    try {
      for (const name of readdirSync(indexDir))
        if (name !== table && name !== 'LOCK') writeFileSync(join(copy.path, name), readFileSync(join(indexDir, name)));
      expect(checkLevelDbFiles(copy.path).problems).toContainEqual({
        where: `LevelDB table ${table}`,
        problem: expect.stringMatching(/^missing, though MANIFEST MANIFEST-\d+ lists it$/),
      });
      writeFileSync(join(copy.path, table), bytes);
      expect(checkLevelDbFiles(copy.path).problems).toEqual([]);
    } finally {
      copy.remove();
    }
  });
});
