// The inputs module has REPLY_SLOTS reply slots for the whole process. A server's reply pool keeps
// the slots its replies gave back; once that server has stopped, the slots go back to the module,
// so the next server in the process (an embedding application's, a test's) lends them as well.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import { loadNodeConfig } from '../../../src/config.js';
import { inputRunWriter, REPLY_SLOTS } from '../../../src/render/input-wasm.js';
import { createRpcCore } from '../../../src/rpc/http/rpc-core.js';
import { createDecodeRawTransaction } from '../../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { zcashd2019Side } from '../../support/memory-store.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-slots-closed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a stopped server’s reply slots', () => {
  it('are lent by the next server, as many as the module has', async () => {
    const tx = decodeBlock(zcashd2019Side(106598).bytes).transactions[40]!;
    const body = Buffer.from(`{"id":1,"method":"decoderawtransaction","params":["${toHex(tx.bytes)}"]}`);
    const config = loadNodeConfig([`-datadir=${dir}`, '-rpcuser=a', '-rpcpassword=b']);
    const inSlots: number[] = [];
    for (let c = 0; c < 3; c++) {
      const core = createRpcCore({ config, methods: [createDecodeRawTransaction({ cacheBytes: 0 })], renderThreads: 0, ownInstance: true });
      // More replies held at once than the module has slots.
      const held = [];
      for (let i = 0; i < REPLY_SLOTS + 2; i++) held.push(await core.execute(body));
      const memory = inputRunWriter()!.memory;
      inSlots.push(held.filter((r) => Array.isArray(r.reply.body) && r.reply.body.some((b) => b.buffer === memory)).length);
      for (const r of held) r.done();
      await core.close();
    }
    expect(inSlots).toEqual([REPLY_SLOTS, REPLY_SLOTS, REPLY_SLOTS]);
  });
});
