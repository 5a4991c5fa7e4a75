// The inputs module's reply slots are added to its memory on the first lend. When the engine
// refuses to grow that memory, the reply takes memory of its own, as with no slot free: the
// request is answered, and no later one asks for the slots again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import { MAINNET } from '../../../src/chain/network.js';
import { loadNodeConfig } from '../../../src/config.js';
import { inputRunWriter } from '../../../src/render/input-wasm.js';
import { txToJsonBytes } from '../../../src/render/tx.js';
import { createRpcCore } from '../../../src/rpc/http/rpc-core.js';
import { createDecodeRawTransaction } from '../../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { zcashd2019Side } from '../../support/memory-store.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-slots-grow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reply slots whose memory the engine refuses', () => {
  it('leave the reply to memory of its own, this time and the next', async () => {
    const tx = decodeBlock(zcashd2019Side(106598).bytes).transactions[40]!;
    const body = Buffer.from(`{"id":1,"method":"decoderawtransaction","params":["${toHex(tx.bytes)}"]}`);
    const want = `{"result":${txToJsonBytes(tx, MAINNET).toString('latin1')},"error":null,"id":1}\n`;
    const writer = inputRunWriter();
    expect(writer).not.toBeNull();
    const config = loadNodeConfig([`-datadir=${dir}`, '-rpcuser=a', '-rpcpassword=b']);
    const core = createRpcCore({ config, methods: [createDecodeRawTransaction({ cacheBytes: 0 })], renderThreads: 0, ownInstance: true });
    const grow = WebAssembly.Memory.prototype.grow;
    let refused = 0;
    WebAssembly.Memory.prototype.grow = function (): number {
      refused++;
      throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
    };
    try {
      for (let i = 0; i < 2; i++) {
        const r = await core.execute(body);
        const text = typeof r.reply.body === 'string' ? r.reply.body : Buffer.concat(r.reply.body).toString('latin1');
        expect(r.reply.status).toBe(200);
        expect(text).toBe(want);
        expect(Array.isArray(r.reply.body) && r.reply.body.some((b) => b.buffer === writer!.memory)).toBe(false);
        r.done();
      }
    } finally {
      WebAssembly.Memory.prototype.grow = grow;
      await core.close();
    }
    expect(refused).toBe(1);
  });
});
