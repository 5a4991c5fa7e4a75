// Issue 12, finding 6: corrupt storage was served as valid data. Every corruption of the
// report is reproduced on a real LevelDB + flat-file store holding mainnet blocks 0..20, and
// must answer zcashd's error for an unreadable block (-32603 "Can't read block from disk"), or
// for a contradictory index value dbwrapper's "Database corrupted" (-1), with a log line that
// says where.
import { openSync, readFileSync, readSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHexReversed } from '../../src/codec/hex.js';
import { loadNodeConfig } from '../../src/config.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { startRpcServer, type RunningRpcServer } from '../../src/rpc/http/server.js';
import { keys } from '../../src/store/layout.js';
import { openChainStore, type ChainStore } from '../../src/store/index.js';
import { verifiedStoreReader } from '../../src/store/verify.js';
import { mainnetGenesisRun } from '../support/memory-store.js';
import { tempDir } from '../support/store.js';
import { post, PASSWORD, USER } from './fixtures.js';

const dir = tempDir('stress-corruption');
const blocks = mainnetGenesisRun();
const hashes = blocks.map((b) => toHexReversed(decodeBlock(b).hash));
const blockFile = join(dir.path, 'zecrpc', 'blocks', 'blk00000.dat');
let store: ChainStore;
let server: RunningRpcServer;
const logLines: string[] = [];

/** Flips one bit of the block file at `offset`. */
function flipBit(offset: number, mask = 0x01): void {
  const fd = openSync(blockFile, 'r+');
  const b = Buffer.alloc(1);
  readSync(fd, b, 0, 1, offset);
  b[0]! ^= mask;
  writeSync(fd, b, 0, 1, offset);
  closeSync(fd);
}

/** Where block `height` starts in the block file (its bytes are unique there). */
const offsetOf = (height: number): number => readFileSync(blockFile).indexOf(Buffer.from(blocks[height]!));

beforeAll(async () => {
  store = await openChainStore({ datadir: dir.path, network: MAINNET });
  for (const b of blocks) await store.addBlock(b);
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

async function call(
  method: string,
  params: unknown[],
): Promise<{ status: string; json: { result: unknown; error: { code: number; message: string } | null } }> {
  const r = await post(server.port, JSON.stringify({ id: 1, method, params }));
  return { status: r.statusLine, json: JSON.parse(r.body.toString('utf8')) };
}

const UNREADABLE = { code: -32603, message: "Can't read block from disk" };

describe('block file corruption', () => {
  it('serves intact blocks unchanged at every verbosity', async () => {
    const v0 = await call('getblock', [hashes[3], 0]);
    expect(v0.json.result).toBe(Buffer.from(blocks[3]!).toString('hex'));
    const v1 = await call('getblock', [hashes[3], 1]);
    expect((v1.json.result as { hash: string }).hash).toBe(hashes[3]);
  });

  /**
   * Verbosity 1 of a connected block reads no block bytes (header and txids come from the index,
   * verified against the block hash and the merkle root), so damage confined to the block file
   * leaves it correct: the original hash and txids, never the damaged ones.
   */
  async function expectIndexServedVerbosityOne(height: number): Promise<void> {
    const r = await call('getblock', [hashes[height], 1]);
    const result = r.json.result as { hash: string; tx: string[] };
    expect(result.hash).toBe(hashes[height]);
    expect(result.tx).toEqual(decodeBlock(blocks[height]!).transactions.map((t) => t.txidHex));
  }

  it('a flipped header bit: the block no longer hashes to the one asked for', async () => {
    const at = offsetOf(5);
    flipBit(at + 110); // inside the nonce
    for (const v of [0, 2]) {
      const r = await call('getblock', [hashes[5], v]);
      expect(r.status).toBe('HTTP/1.1 500 Internal Server Error');
      expect(r.json.error).toEqual(UNREADABLE);
    }
    expect(logLines.join('\n')).toContain(`${blockFile} offset ${at}`);
    await expectIndexServedVerbosityOne(5);
  });

  it('a flipped transaction bit: the transactions no longer match the merkle root', async () => {
    const at = offsetOf(6);
    const header = decodeBlock(blocks[6]!).header.bytes.length;
    // Inside the coinbase script: the block still decodes, its txid changes.
    flipBit(at + header + 1 + 4 + 1 + 36 + 1 + 1, 0x10);
    for (const v of [0, 2]) expect((await call('getblock', [hashes[6], v])).json.error).toEqual(UNREADABLE);
    expect(logLines.join('\n')).toContain(`block ${hashes[6]}: the transactions do not match the header merkle root`);
    await expectIndexServedVerbosityOne(6);
  });

  it('a block that no longer decodes is not served as hex either', async () => {
    const at = offsetOf(7);
    const header = decodeBlock(blocks[7]!).header.bytes.length;
    flipBit(at + header, 0x02); // transaction count 1 → 3: reads past the end
    for (const v of [0, 2]) expect((await call('getblock', [hashes[7], v])).json.error).toEqual(UNREADABLE);
    await expectIndexServedVerbosityOne(7);
  });

  it('a frame whose length disagrees with the index', async () => {
    const at = offsetOf(8);
    flipBit(at - 4, 0x01); // the record frame's length field
    expect((await call('getblock', [hashes[8], 0])).json.error).toEqual(UNREADABLE);
    expect(logLines.join('\n')).toContain('the record frame says');
  });
});

describe('index value corruption', () => {
  it('a damaged txid list is not served (verbosity 1 reads it instead of the block)', async () => {
    const key = keys.txids(decodeBlock(blocks[11]!).hash);
    const value = Buffer.from((await store.database.get(key))!);
    value[3]! ^= 0x40;
    await store.database.put(key, value);
    expect((await call('getblock', [hashes[11], 1])).json.error).toEqual(UNREADABLE);
    expect(logLines.join('\n')).toContain(`txid list of block ${hashes[11]}: the stored txids do not match the header merkle root`);
    // The block bytes are intact: the other verbosities still answer.
    expect((await call('getblock', [hashes[11], 0])).json.result).toBe(Buffer.from(blocks[11]!).toString('hex'));
  });

  it('a corrupted best-chain entry is refused instead of giving a wrong nextblockhash', async () => {
    const key = keys.height(10);
    const value = Buffer.from((await store.database.get(key))!);
    value[0]! ^= 0x01;
    await store.database.put(key, value);
    const r = await call('getblock', [hashes[9], 1]);
    expect(r.json.error).toEqual({ code: -1, message: 'Database corrupted' });
    expect((await call('getblockhash', [10])).json.error).toEqual({ code: -1, message: 'Database corrupted' });
    expect(logLines.join('\n')).toContain('index corruption: the best-chain entry at height 10');
    // Other blocks are still served.
    expect(((await call('getblock', [hashes[12], 1])).json.result as { nextblockhash: string }).nextblockhash).toBe(hashes[13]);
  });

  it('a block index record whose header was damaged', async () => {
    const key = keys.index(decodeBlock(blocks[14]!).hash);
    const value = Buffer.from((await store.database.get(key))!);
    value[value.length - 1]! ^= 0x01; // the last byte of the stored header
    await store.database.put(key, value);
    // The open store caches index records, so the damaged value is read by a fresh one.
    await server.close();
    await store.close();
    store = await openChainStore({ datadir: dir.path, network: MAINNET });
    const lines: string[] = [];
    const reader = verifiedStoreReader(store, (l) => lines.push(l));
    await expect(reader.blockIndex(decodeBlock(blocks[14]!).hash)).rejects.toThrow('Database corrupted');
    expect(lines[0]).toBe(`index corruption: the index record of block ${hashes[14]} holds the header of another block`);
    expect((await reader.blockIndex(decodeBlock(blocks[15]!).hash))?.height).toBe(15);
  });
});
