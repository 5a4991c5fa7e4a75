// Issue 41, item 7: errors from the store reached RPC clients with the absolute data-directory
// path and were never logged. On a real store (mainnet blocks 0..20, LevelDB + flat block
// file) whose block file is truncated, whose LevelDB table is damaged, or that refuses a write
// naming its directory, the client gets zcashd's code and text without any path of the data
// directory, and the server's log gets the whole error, with the path or the key, once;
// verifychain answers false over a block it cannot read, as zcashd does.
import { closeSync, openSync, readdirSync, truncateSync, writeSync } from 'node:fs';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassicLevel } from 'classic-level';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHexReversed } from '../../src/codec/hex.js';
import { loadNodeConfig } from '../../src/config.js';
import { handleJsonRpcBody } from '../../src/rpc/dispatch.js';
import { startRpcServer, type RunningRpcServer } from '../../src/rpc/http/server.js';
import { MethodRegistry } from '../../src/rpc/registry.js';
import { invalidateBlockMethod } from '../../src/rpc/methods/blockchain/invalidateblock.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { databaseErrorText, DATADIR_PLACEHOLDER, hideDirectory } from '../../src/rpc/server-errors.js';
import { lowSpaceError } from '../../src/store/disk-reserve.js';
import { StoreReadError } from '../../src/store/errors.js';
import { openChainStore, type ChainStore } from '../../src/store/index.js';
import { keys, storeDirectory } from '../../src/store/layout.js';
import type { ChainOperator } from '../../src/store/types.js';
import { verifiedStoreReader } from '../../src/store/verify.js';
import { mainnetGenesisRun } from '../support/memory-store.js';
import { tempDir } from '../support/store.js';
import { post, PASSWORD, USER } from '../stress/fixtures.js';

const dir = tempDir('server-errors');
const blocks = mainnetGenesisRun();
const hashes = blocks.map((b) => toHexReversed(decodeBlock(b).hash));
const txids = blocks.map((b) => decodeBlock(b).transactions[0]!.txidHex);
const blockFile = join(storeDirectory(dir.path), 'blocks', 'blk00000.dat');
/** Every named component of the data directory's path (`/tmp/zecrpc-server-errors-x` → tmp, zecrpc-server-errors-x). */
const dirComponents = dir.path.split(sep).filter((c) => c !== '');
let store: ChainStore;
let server: RunningRpcServer;
const logLines: string[] = [];
/** Where the one write of the test fails: a real refusal naming the store's directory (made once it exists). */
let refusal: Error;

beforeAll(async () => {
  const writer = await openChainStore({ datadir: dir.path, network: MAINNET });
  for (const b of blocks) await writer.addBlock(b);
  await writer.close();
  refusal = lowSpaceError(storeDirectory(dir.path), Number.MAX_SAFE_INTEGER)!;
  // Reopened: the index now lives in a LevelDB table, not in the log, and no record is cached.
  store = await openChainStore({ datadir: dir.path, network: MAINNET });
  const operator = { invalidateBlock: () => Promise.reject(refusal) } as unknown as ChainOperator;
  const config = loadNodeConfig([`-datadir=${dir.path}`, '-rpcport=0', `-rpcuser=${USER}`, `-rpcpassword=${PASSWORD}`]);
  server = await startRpcServer({
    config,
    methods: [
      ...storeMethods(verifiedStoreReader(store, (line) => logLines.push(line))).filter((m) => m.name !== 'invalidateblock'),
      invalidateBlockMethod(operator),
    ],
    logger: { level: 'info', stream: { write: (s: string) => void logLines.push(s) } },
  });
}, 120_000);

afterAll(async () => {
  await server.close();
  await store.close();
  dir.remove();
});

async function call(method: string, params: unknown[]): Promise<{ text: string; error: { code: number; message: string } | null }> {
  const r = await post(server.port, JSON.stringify({ id: 1, method, params }));
  const text = r.body.toString('utf8');
  return { text, error: (JSON.parse(text) as { error: { code: number; message: string } | null }).error };
}

function expectNoDatadir(text: string): void {
  for (const c of dirComponents) expect(text).not.toContain(c);
}

/** The server's error lines (pino, level 50) logged since `from`. */
const errorLines = (from: number) =>
  logLines
    .slice(from)
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; err?: { message: string; code?: string } })
    .filter((l) => l.level === 50);

describe('store errors in RPC replies', () => {
  it('a truncated block file: -32603 without the path; the log line names the file and offset, once per request', async () => {
    truncateSync(blockFile, 5000);
    const from = logLines.length;
    for (const [method, params] of [
      ['getblock', [hashes[6], 0]],
      ['getblock', [hashes[6], 2]],
      ['getrawtransaction', [txids[6], 1]],
    ] as const) {
      const r = await call(method, [...params]);
      expect(r.error).toEqual({ code: -32603, message: "Can't read block from disk" });
      expectNoDatadir(r.text);
    }
    const lines = errorLines(from);
    expect(lines).toHaveLength(3);
    // zcashd's VerifyDB answers false when ReadBlockFromDisk fails, at every level.
    for (const level of [0, 4]) expect((await call('verifychain', [level, 0])).text).toBe('{"result":false,"error":null,"id":1}\n');
    for (const l of lines) {
      expect(l.msg).toBe("Can't read block from disk");
      expect(l.err!.message).toMatch(
        new RegExp(`^unreadable block at ${blockFile.replace(/[.]/g, '\\.')} offset \\d+: blk00000\\.dat ends before`),
      );
    }
  });

  it('a refusal that names the store directory: zcashd-style code, the directory hidden; the log has it', async () => {
    expect(refusal.message).toContain(storeDirectory(dir.path));
    const from = logLines.length;
    const r = await call('invalidateblock', [hashes[3]]);
    expect(r.error).toEqual({ code: -20, message: refusal.message.replace(dir.path, DATADIR_PLACEHOLDER) });
    expect(r.error!.message).toContain(`at ${DATADIR_PLACEHOLDER}${sep}zecrpc, which writes only`);
    expectNoDatadir(r.text);
    const lines = errorLines(from);
    expect(lines.map((l) => [l.msg, l.err!.message])).toEqual([[r.error!.message, refusal.message]]);
  });

  // Last: the index is unreadable from here on.
  it('a damaged LevelDB table: -1 "Database corrupted" (zcashd\'s dbwrapper text); the log has the key', async () => {
    const index = join(storeDirectory(dir.path), 'index');
    const tables = readdirSync(index).filter((f) => f.endsWith('.ldb'));
    expect(tables.length).toBeGreaterThan(0);
    for (const t of tables) {
      const fd = openSync(join(index, t), 'r+');
      writeSync(fd, Buffer.alloc(30_000, 0xff), 0, 30_000, 0);
      closeSync(fd);
    }
    const from = logLines.length;
    const r = await call('getblockheader', [hashes[9]]);
    expect(r.error).toEqual({ code: -1, message: 'Database corrupted' });
    expectNoDatadir(r.text);
    const lines = errorLines(from);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toBe('Database corrupted');
    expect(lines[0]!.err!.code).toBe('LEVEL_CORRUPTION');
    expect(lines[0]!.err!.message).toMatch(
      new RegExp(`^reading key (${keys.index(decodeBlock(blocks[9]!).hash).toString('hex')}|[0-9a-f]+): Corruption: `),
    );
  });
});

describe('hideDirectory and databaseErrorText', () => {
  it('replaces the directory wherever a path starts with it, not a longer name', () => {
    expect(hideDirectory("IO error: /data/z/zecrpc/index/000012.log: No space left on device (at '/data/z')", '/data/z')).toBe(
      "IO error: <datadir>/zecrpc/index/000012.log: No space left on device (at '<datadir>')",
    );
    expect(hideDirectory('open /data/zz/x', '/data/z')).toBe('open /data/zz/x');
    expect(hideDirectory('no path here', '/data/z')).toBe('no path here');
  });

  it("gives zcashd's dbwrapper texts for the binding's status codes, directly or as a read's cause", () => {
    const coded = (code: string) => Object.assign(new Error('x'), { code });
    expect(databaseErrorText(coded('LEVEL_CORRUPTION'))).toBe('Database corrupted');
    expect(databaseErrorText(coded('LEVEL_IO_ERROR'))).toBe('Database I/O error');
    expect(databaseErrorText(new StoreReadError(Buffer.from([0x43]), coded('LEVEL_IO_ERROR')))).toBe('Database I/O error');
    expect(databaseErrorText(coded('ENOENT'))).toBeNull();
    expect(databaseErrorText(new Error('Database is not open'))).toBeNull();
  });
});

describe('a failed read that is not a LevelDB status', () => {
  it("answers the binding's own text and logs the key: a read of a closed database", async () => {
    const scratch = tempDir('closed-db');
    const db = new ClassicLevel<Buffer, Buffer>(join(scratch.path, 'db'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
    await db.open();
    await db.close();
    let thrown: unknown;
    try {
      db.getSync(Buffer.from([0x43]));
    } catch (e) {
      thrown = new StoreReadError(Buffer.from([0x43]), e);
    }
    scratch.remove();
    const registry = new MethodRegistry([
      { name: 'read', category: 'control', required: 0, optional: 0, help: 'read', call: () => Promise.reject(thrown) },
    ]);
    const logged: [string, string][] = [];
    const reply = await handleJsonRpcBody(
      Buffer.from('{"id":1,"method":"read","params":[]}'),
      registry,
      { network: MAINNET, requestStop: () => undefined },
      { onServerError: (e, answered) => logged.push([answered, e.message]), privateDir: scratch.path },
    );
    expect(reply.body).toBe('{"result":null,"error":{"code":-1,"message":"Database is not open"},"id":1}\n');
    expect(logged).toEqual([['Database is not open', 'reading key 43: Database is not open']]);
  });
});
