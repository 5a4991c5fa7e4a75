// A full disk must not stop the node serving what it holds. LevelDB writes whenever it opens, so
// on a file system filled to its last byte the store opens only by releasing the space it set
// aside (store/disk-reserve.ts), and then runs read-only; once space is freed it is writable again
// and sets the space aside anew. Run on a real tmpfs, filled by a file.
import { statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runImport } from '../../src/cli/import.js';
import { startNode } from '../../src/cli/serve.js';
import { REGTEST } from '../../src/chain/network.js';
import { DISK_RESERVE_BYTES, DISK_RESERVE_FILE, DISK_SPACE_POLICY, freeBytes, MIN_FREE_BYTES } from '../../src/store/disk-reserve.js';
import { checkStoreIntegrity, openChainStore } from '../../src/store/index.js';
import { encodeVersionRecord } from '../../src/store/migrations/index.js';
import { keys, SCHEMA_VERSION } from '../../src/store/layout.js';
import { mainnetChain, REGTEST_REORG_DIR, regtestReorg } from '../support/store.js';
import { UpstreamServer, waitFor } from '../support/upstream-server.js';
import { canMountTmpfs, fillDisk, withTmpfs } from '../support/tmpfs.js';

const AUTH = 'Basic ' + Buffer.from('u:p').toString('base64');

async function rpc(port: number, method: string, params: unknown[] = []): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    headers: { authorization: AUTH },
    body: JSON.stringify({ jsonrpc: '1.0', id: 'full', method, params }),
  });
  return `${res.status} ${await res.text()}`;
}

/** Starts the server on `mnt`, records the replies to a fixed set of reads and the log, and stops it. */
async function serveReads(mnt: string): Promise<{ replies: string[]; log: { level: number; msg: string }[]; readOnly: string | null }> {
  const lines: string[] = [];
  const node = await startNode([`-datadir=${mnt}`, '-regtest', '-rpcport=0', '-rpcuser=u', '-rpcpassword=p'], {
    logTo: { write: (s: string) => void lines.push(s) },
  });
  try {
    const port = node.server.port;
    const replies = [await rpc(port, 'getblockcount'), await rpc(port, 'getbestblockhash')];
    for (const height of [0, 1, 10, 20, 30]) {
      const hash = JSON.parse((await rpc(port, 'getblockhash', [height])).slice(4)).result as string;
      for (const verbosity of [0, 1, 2]) replies.push(await rpc(port, 'getblock', [hash, verbosity]));
    }
    return {
      replies,
      log: lines.map((l) => JSON.parse(l) as { level: number; msg: string }),
      readOnly: node.store.notWritable?.message ?? null,
    };
  } finally {
    await node.shutdown();
  }
}

/** `zecrpc import -regtest --hex FILE` into `mnt`; resolves with what it printed. */
async function importHexFile(mnt: string, file: string): Promise<string> {
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => (out.push(String(s)), true));
  try {
    await runImport([`-datadir=${mnt}`, '-regtest', '--hex', join(REGTEST_REORG_DIR, file), '--progress', 'silent']);
  } finally {
    spy.mockRestore();
  }
  return out.join('');
}

/** Allocated bytes of a file (a sparse file reserves nothing). */
function allocated(path: string): number {
  const st = statSync(path);
  return Math.min(st.size, st.blocks * 512);
}

afterEach(() => vi.restoreAllMocks());

const WARN = 40;

describe.runIf(canMountTmpfs)('a full disk (needs to mount a tmpfs: root on Linux)', () => {
  it('opens the store read-only and serves it unchanged, refuses imports and upgrades, and writes again once space is freed', async () => {
    await withTmpfs('full-disk', DISK_RESERVE_BYTES + MIN_FREE_BYTES + 8 * 1024 * 1024, async (mnt) => {
      const storeDir = join(mnt, 'regtest', 'zecrpc');
      const reserve = join(storeDir, DISK_RESERVE_FILE);
      const v = regtestReorg();

      expect(await importHexFile(mnt, 'base.hex')).toMatch(/^imported 30 blocks \(1 already stored.* tip 30 /); // the genesis block was there
      expect(allocated(reserve)).toBe(DISK_RESERVE_BYTES);
      const before = await serveReads(mnt);
      expect(before.readOnly).toBeNull();
      expect(before.replies[0]).toBe('200 {"result":30,"error":null,"id":"full"}\n');
      expect(before.replies[1]).toBe(`200 {"result":"${v.manifest.base.at(-1)!.hash}","error":null,"id":"full"}\n`);
      expect(before.log.filter((l) => l.level >= WARN)).toEqual([]);

      // Full to the last byte: LevelDB opens only with the reserve released, and the import is refused.
      const filler = join(mnt, 'filler');
      fillDisk(filler);
      expect(freeBytes(mnt)).toBe(0);
      const readOnlyMessage = new RegExp(
        `^Disk space is low! The chain store at ${storeDir} is open read-only: LevelDB could open it only with the 64 MiB ` +
          `set aside for that in ${reserve} \\(IO error: ${join(storeDir, 'index')}/[^:]+: No space left on device\\)\\. ` +
          'It serves the blocks it holds but stores none \\(no import, no -upstream following, no schema upgrade\\) ' +
          'until space is freed on that file system and zecrpc is started again\\.$',
      );
      await expect(importHexFile(mnt, 'branch.hex')).rejects.toThrow(readOnlyMessage);
      expect(() => statSync(reserve)).toThrow('ENOENT');

      // That open needed no more than it freed: the next one sets the whole reserve aside again,
      // which leaves nothing free. The server warns and serves; writes would be refused.
      const lowSpaceMessage =
        `Disk space is low! 0 MiB free on the file system of the chain store at ${storeDir}, which writes only with ` +
        'at least 50 MiB free (as zcashd): nothing is stored until space is freed';
      const lowSpace = await serveReads(mnt);
      expect(allocated(reserve)).toBe(DISK_RESERVE_BYTES);
      expect(freeBytes(mnt)).toBe(0);
      expect(lowSpace.readOnly).toBeNull();
      expect(lowSpace.log.filter((l) => l.level === WARN).map((l) => l.msg)).toEqual([lowSpaceMessage]);
      expect(lowSpace.replies).toEqual(before.replies);

      // Now LevelDB cannot open without the reserve again: read-only, the same replies.
      const readOnly = await serveReads(mnt);
      expect(readOnly.readOnly).toMatch(readOnlyMessage);
      expect(readOnly.log.filter((l) => l.level === WARN).map((l) => l.msg)).toEqual([readOnly.readOnly]);
      expect(readOnly.replies).toEqual(before.replies);
      expect(() => statSync(reserve)).toThrow('ENOENT');

      // Full again with the reserve used up: nothing is left to open with.
      fillDisk(join(mnt, 'filler-2'));
      await expect(serveReads(mnt)).rejects.toThrow(
        new RegExp(
          `^Disk space is low! Cannot open the chain store at ${storeDir}: LevelDB writes when it opens \\(IO error: .*: No space left on device\\) ` +
            `and no space was set aside in ${reserve}\\. Free space on that file system and start again\\.$`,
        ),
      );
      unlinkSync(join(mnt, 'filler-2'));

      // A store that needs a schema upgrade cannot be served read-only.
      unlinkSync(filler);
      const writable = await openChainStore({ datadir: join(mnt, 'regtest'), network: REGTEST, diskSpace: DISK_SPACE_POLICY });
      await writable.database.put(keys.version(), encodeVersionRecord(3, 'regtest'));
      await writable.close();
      expect(allocated(reserve)).toBe(DISK_RESERVE_BYTES);
      fillDisk(filler);
      await expect(serveReads(mnt)).rejects.toThrow(
        `Disk space is low! The chain store at ${storeDir} needs an upgrade from schema version 3 to ${SCHEMA_VERSION}, which writes to it, ` +
          'and its file system is full (the store opened only with the space set aside for that); ' +
          'this zecrpc cannot serve it un-upgraded, not even read-only. Free space on that file system and start again.',
      );

      // Space again: upgraded, writable, the reserve set aside whole.
      unlinkSync(filler);
      const after = await serveReads(mnt);
      expect(after.readOnly).toBeNull();
      expect(after.replies).toEqual(before.replies);
      expect(allocated(reserve)).toBe(DISK_RESERVE_BYTES);
      expect(await importHexFile(mnt, 'branch.hex')).toMatch(
        new RegExp(
          `^imported 35 blocks \\(0 already stored, 20 side-chain, 1 reorganizations\\) .* tip 45 ${v.manifest.branch.at(-1)!.hash}\\n$`,
        ),
      );
      const store = await openChainStore({ datadir: join(mnt, 'regtest'), network: REGTEST });
      try {
        expect((await checkStoreIntegrity(store)).problems).toEqual([]);
        expect((await store.tip())?.height).toBe(45);
      } finally {
        await store.close();
      }
    });
  });

  it('a server following -upstream keeps serving while the disk is full and stores again once space is freed', async () => {
    await withTmpfs('full-disk-follow', DISK_RESERVE_BYTES + MIN_FREE_BYTES + 8 * 1024 * 1024, async (mnt) => {
      const chain = mainnetChain();
      const upstream = new UpstreamServer(null);
      upstream.setChain(chain.slice(0, 10));
      const url = await upstream.start();
      const lines: string[] = [];
      const node = await startNode(
        [`-datadir=${mnt}`, '-rpcport=0', '-rpcuser=u', '-rpcpassword=p', `-upstream=${url}`, '-upstreampoll=0.05'],
        { logTo: { write: (s: string) => void lines.push(s) } },
      );
      try {
        await waitFor(async () => (await node.store.tip())?.height === 9, 'the store to reach upstream height 9');
        const port = node.server.port;
        const reads = async () => [
          await rpc(port, 'getblockcount'),
          ...(await Promise.all([0, 5, 9].map((h) => rpc(port, 'getblock', [String(h), 0])))),
        ];
        const before = await reads();
        const filler = join(mnt, 'filler');
        fillDisk(filler);
        upstream.setChain(chain);
        const refusal =
          `Disk space is low! 0 MiB free on the file system of the chain store at ${join(mnt, 'zecrpc')}, which writes only with ` +
          'at least 50 MiB free (as zcashd): nothing is stored until space is freed; retrying';
        await waitFor(async () => lines.some((l) => JSON.parse(l).msg === refusal), 'the follower to report the full disk');
        expect(await reads()).toEqual(before);
        expect(before[0]).toBe('200 {"result":9,"error":null,"id":"full"}\n');
        expect(node.store.notWritable).toBeNull();
        unlinkSync(filler);
        await waitFor(async () => (await node.store.tip())?.height === 20, 'the follower to store the rest once space is freed');
        expect(await rpc(port, 'getblock', ['20', 0])).toBe(
          `200 {"result":"${Buffer.from(chain[20]!).toString('hex')}","error":null,"id":"full"}\n`,
        );
      } finally {
        await node.shutdown();
        await upstream.stop();
      }
    });
  });
});
