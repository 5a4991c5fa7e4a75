// A lent reply buffer never makes a request fail that its own memory would have served: a buffer
// is lent only when the reply budget (-rpcmemory) has room for the buffer and the reply's text
// beside it, and a request holds at most one, so a batch's items render into memory of their own
// and hold only their text beyond -rpcrequestmemory's count. Mainnet 106598's transactions: #1
// (a 217 kB reply) and the coinbase (a 1.2 kB one), against TxToJSON's bytes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import { loadNodeConfig } from '../../../src/config.js';
import { txToJsonBytes } from '../../../src/render/tx.js';
import { createRpcCore, type ExecutedRequest } from '../../../src/rpc/http/rpc-core.js';
import { createDecodeRawTransaction } from '../../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { largeTextMethod } from '../../support/http-rpc.js';
import { zcashd2019Side } from '../../support/memory-store.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-lent-room-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const block = decodeBlock(zcashd2019Side(106598).bytes);
const [coinbase, medium] = [block.transactions[0]!, block.transactions[1]!];
const request = (tx: typeof coinbase, id = 1) => `{"id":${id},"method":"decoderawtransaction","params":["${toHex(tx.bytes)}"]}`;
const result = (tx: typeof coinbase, id = 1) => `{"result":${txToJsonBytes(tx, MAINNET).toString('utf8')},"error":null,"id":${id}}`;
const text = (r: ExecutedRequest) => (typeof r.reply.body === 'string' ? r.reply.body : Buffer.concat(r.reply.body).toString('utf8'));

function core(memoryArgs: string[], extra = [] as ReturnType<typeof largeTextMethod>[]) {
  const config = loadNodeConfig([`-datadir=${dir}`, '-rpcuser=alice', '-rpcpassword=secret', ...memoryArgs]);
  return createRpcCore({ config, methods: [createDecodeRawTransaction({ cacheBytes: 0 }), ...extra], renderThreads: 0, ownInstance: true });
}

it('-rpcmemory=1: a 217 kB reply, for which a 1 MiB buffer leaves no room, is rendered into its own memory', async () => {
  const c = core(['-rpcmemory=1']);
  try {
    const r = await c.execute(Buffer.from(request(medium)));
    expect(c.stats().lentReplyBuffers).toBe(0);
    expect(text(r)).toBe(result(medium) + '\n');
    r.done();
    expect(c.stats().replyBytes).toBe(0);
  } finally {
    await c.close();
  }
});

it('-rpcmemory=3: three 217 kB replies held at once are all served, the third, for which buffer and text leave no room, in its own memory', async () => {
  const c = core(['-rpcmemory=3']);
  try {
    const held: ExecutedRequest[] = [];
    for (let i = 0; i < 3; i++) held.push(await c.execute(Buffer.from(request(medium))));
    expect(c.stats().lentReplyBuffers).toBe(2);
    for (const r of held) expect(text(r)).toBe(result(medium) + '\n');
    for (const r of held) r.done();
    expect(c.stats()).toMatchObject({ replyBytes: 0, lentReplyBuffers: 0 });
  } finally {
    await c.close();
  }
});

it("a batch of 8 decodes holds one lent buffer, leaving room on -rpcmemory=8 for another request's 1.04 MB reply", async () => {
  const c = core(['-rpcmemory=8', '-rpcrequestmemory=1'], [largeTextMethod(1_040_000)]);
  try {
    const ids = [0, 1, 2, 3, 4, 5, 6, 7];
    const batch = await c.execute(Buffer.from(`[${ids.map((i) => request(coinbase, i)).join(',')}]`));
    expect(c.stats().lentReplyBuffers).toBe(1);
    const other = await c.execute(Buffer.from('{"id":1,"method":"large","params":[]}'));
    const otherText = text(other);
    expect(otherText.startsWith('{"result":"')).toBe(true);
    expect(otherText).not.toContain('"error":{');
    expect(text(batch)).toBe(`[${ids.map((i) => result(coinbase, i)).join(',')}]\n`);
    other.done();
    batch.done();
    expect(c.stats()).toMatchObject({ replyBytes: 0, lentReplyBuffers: 0 });
  } finally {
    await c.close();
  }
});
