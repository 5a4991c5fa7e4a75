// A request repeating a hex that decoderawtransaction's cache holds is read without scanning the
// hex (json/known-strings.ts): through a server's core, every body (the held hex, and bodies that
// differ from it by a byte: a control byte, an escape, a non-ASCII byte, a quote) is answered
// byte for byte as a server without the cache answers it. Mainnet 106598's transaction #40
// (66 kB: a 132 kB body) and #1.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import { loadNodeConfig } from '../../../src/config.js';
import { createRpcCore, type ExecutedRequest } from '../../../src/rpc/http/rpc-core.js';
import { createDecodeRawTransaction } from '../../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { zcashd2019Side } from '../../support/memory-store.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-known-strings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = loadNodeConfig([`-datadir=${dir}`, '-rpcuser=alice', '-rpcpassword=secret']);
const block = decodeBlock(zcashd2019Side(106598).bytes);
const hex = toHex(block.transactions[40]!.bytes);
const other = toHex(block.transactions[1]!.bytes);
const text = (r: ExecutedRequest) => (typeof r.reply.body === 'string' ? r.reply.body : Buffer.concat(r.reply.body).toString('utf8'));

const core = (cacheBytes?: number) =>
  createRpcCore({ config, methods: [createDecodeRawTransaction(cacheBytes === undefined ? {} : { cacheBytes })], renderThreads: 0 });

async function answer(c: ReturnType<typeof core>, body: string): Promise<{ status: number; text: string }> {
  const r = await c.execute(Buffer.from(body, 'utf8'));
  const out = { status: r.reply.status, text: text(r) };
  r.done();
  return out;
}

describe('a repeated hex held by the decode cache', () => {
  it('is answered byte for byte as without the cache, and so is every body differing from it by a byte', async () => {
    const cached = core();
    const uncached = core(0);
    try {
      const single = (h: string) => `{"id":1,"method":"decoderawtransaction","params":["${h}"]}`;
      const mid = hex.length / 2;
      const bodies: [string, string][] = [
        ['the hex', single(hex)],
        ['the hex again (held now)', single(hex)],
        ['a control byte in it', single(`${hex.slice(0, mid)}\u0001${hex.slice(mid + 1)}`)],
        ['a tab at its end', single(`${hex.slice(0, -1)}\t`)],
        ['one character escaped', single(`${hex.slice(0, mid)}\\u00${Buffer.from(hex[mid]!).toString('hex')}${hex.slice(mid + 1)}`)],
        ['a non-ASCII character in it', single(`${hex.slice(0, mid)}\u00e9${hex.slice(mid + 1)}`)],
        ['a quote in it', single(`${hex.slice(0, mid)}"${hex.slice(mid + 1)}`)],
        ['one character short', single(hex.slice(1))],
        ['one character more', single(`${hex}0`)],
        ['uppercase', single(hex.toUpperCase())],
        ['twice in a batch, around another', `[${single(hex)},${single(other)},${single(hex)}]`],
        ['as an object member', `{"id":1,"method":"decoderawtransaction","params":{"hex":"${hex}"}}`],
        ['with a second parameter', `{"id":1,"method":"decoderawtransaction","params":["${hex}",1]}`],
        ['the hex once more', single(hex)],
      ];
      for (const [what, body] of bodies) {
        expect(await answer(cached, body), what).toEqual(await answer(uncached, body));
      }
      // The cache did hold the hex: the escaped and uppercase bodies decode to the same transaction.
      expect(cached.stats().cacheBytes).toBeGreaterThan(hex.length);
      expect((await answer(cached, single(hex))).text).toContain('"txid":"');
      expect((await answer(cached, bodies[2]![1])).text).toContain('Parse error');
    } finally {
      await cached.close();
      await uncached.close();
    }
  });
});
