// decoderawtransaction's hex decoded once, by the size estimate or the reader proving it plain
// (json/hex-runs.ts, hex-wasm.ts wasmHexDecodeAhead), through a server's core, cached and not:
// every body is answered byte for byte, status included, as the same body with its long strings
// read the ordinary way (each one's first character escaped, which no proof by decoding
// accepts): the hex, and bodies differing from it by a control byte, an escape, a quote, a
// non-ASCII byte, a character that is not hex, a character more or less, JSON that breaks after
// the hex. Mainnet 106598's transaction #40 (66 kB: a 132 kB body, which the estimate reads) and
// #39 (15.5 kB: a 31 kB body, which only the reader reads).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import { loadNodeConfig } from '../../../src/config.js';
import { createRpcCore, type ExecutedRequest, type RpcCore } from '../../../src/rpc/http/rpc-core.js';
import { createDecodeRawTransaction } from '../../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { zcashd2019Side } from '../../support/memory-store.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-hex-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = loadNodeConfig([`-datadir=${dir}`, '-rpcuser=alice', '-rpcpassword=secret']);
const block = decodeBlock(zcashd2019Side(106598).bytes);
const LARGE = toHex(block.transactions[40]!.bytes);
const SMALL = toHex(block.transactions[39]!.bytes);

const text = (r: ExecutedRequest) => (typeof r.reply.body === 'string' ? r.reply.body : Buffer.concat(r.reply.body).toString('utf8'));

async function answer(core: RpcCore, body: Buffer): Promise<{ status: number; text: string }> {
  const r = await core.execute(body);
  const out = { status: r.reply.status, text: text(r) };
  r.done();
  return out;
}

/** A body's parts: JSON text around the long strings, each string's raw bytes between its quotes. */
type Parts = (string | { string: Buffer })[];

/** The body, and the same body with each long string's first character escaped (read the ordinary way). */
function bodies(parts: Parts): { body: Buffer; ordinary: Buffer } {
  const raw = parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p.string));
  const escaped = parts.map((p) => {
    if (typeof p === 'string') return Buffer.from(p, 'utf8');
    const first = p.string[0]!;
    return Buffer.concat([Buffer.from(`\\u00${first.toString(16).padStart(2, '0')}`, 'latin1'), p.string.subarray(1)]);
  });
  return { body: Buffer.concat(raw), ordinary: Buffer.concat(escaped) };
}

const call = (strings: Buffer[], after = ']}'): Parts => [
  '{"jsonrpc":"1.0","id":1,"method":"decoderawtransaction","params":["',
  ...strings.flatMap((s, i) => (i === 0 ? [{ string: s }] : ['","', { string: s }])),
  `"${after}`,
];

/** `hex` with `bytes` put in place of `cut` characters at `at`. */
const changed = (hex: string, at: number, bytes: string | Buffer, cut = 1) =>
  Buffer.concat([
    Buffer.from(hex.slice(0, at), 'latin1'),
    Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes, 'utf8'),
    Buffer.from(hex.slice(at + cut), 'latin1'),
  ]);

const hexBytes = (hex: string) => Buffer.from(hex, 'latin1');

let cores: [string, RpcCore][] = [];
beforeAll(() => {
  cores = [
    ['uncached', createRpcCore({ config, methods: [createDecodeRawTransaction({ cacheBytes: 0 })], renderThreads: 0 })],
    ['cached', createRpcCore({ config, methods: [createDecodeRawTransaction()], renderThreads: 0 })],
  ];
  return async () => {
    for (const [, core] of cores) await core.close();
  };
});

async function expectOrdinary(what: string, parts: Parts): Promise<{ status: number; text: string }> {
  const { body, ordinary } = bodies(parts);
  let first: { status: number; text: string } | null = null;
  for (const [name, core] of cores) {
    const got = await answer(core, body);
    expect(got, `${what} (${name})`).toEqual(await answer(core, ordinary));
    first ??= got;
  }
  return first!;
}

describe('a hex parameter decoded once', () => {
  it('is answered as read the ordinary way, and so is every body differing from it by a byte', async () => {
    for (const [size, hex] of [
      ['large', LARGE],
      ['small', SMALL],
    ] as const) {
      const mid = hex.length >>> 1;
      const cases: [string, Parts][] = [
        ['the hex', call([hexBytes(hex)])],
        ['the hex again', call([hexBytes(hex)])],
        ['uppercase', call([hexBytes(hex.toUpperCase())])],
        ['mixed case', call([changed(hex, mid, 'ABCDEF', 6)])],
        ['bytes after the transaction', call([hexBytes(`${hex}00ff`)])],
        ['a control byte in it', call([changed(hex, mid, '\u0001')])],
        ['a tab at its end', call([changed(hex, hex.length - 1, '\t')])],
        ['an escape in it', call([changed(hex, mid, '\\u0061')])],
        ['an invalid escape in it', call([changed(hex, mid, '\\x')])],
        ['a quote in it', call([changed(hex, mid, '"')])],
        ['a non-ASCII character in it', call([changed(hex, mid, 'é')])],
        ['a byte that is not UTF-8 in it', call([changed(hex, mid, Buffer.from([0xff]))])],
        ['a character that is not hex', call([changed(hex, mid, 'g')])],
        ['a space in it', call([changed(hex, 2, ' ')])],
        ['one character short', call([hexBytes(hex.slice(1))])],
        ['one character more', call([hexBytes(`${hex}0`)])],
        ['a truncated transaction', call([hexBytes(hex.slice(0, mid & ~1))])],
        ['the JSON broken after it', call([hexBytes(hex)], ']')],
        ['something after the JSON', call([hexBytes(hex)], ']}x')],
        ['two parameters', call([hexBytes(hex), hexBytes(hex)])],
        ['in a batch, twice', ['[', ...call([hexBytes(hex)]), ',', ...call([hexBytes(hex)]), ']']],
        ['as an object member', ['{"id":1,"method":"decoderawtransaction","params":{"hex":"', { string: hexBytes(hex) }, '"}}']],
        ['for another method', ['{"id":1,"method":"getblockcount","params":["', { string: hexBytes(hex) }, '"]}']],
      ];
      for (const [what, parts] of cases) await expectOrdinary(`${size}: ${what}`, parts);
    }
    // The comparison compares something: the hex decodes, the control byte is a parse error.
    expect((await expectOrdinary('the hex', call([hexBytes(LARGE)]))).text).toContain('"txid":"');
    expect(await expectOrdinary('a control byte', call([changed(LARGE, 10, '\u0001')]))).toEqual({
      status: 500,
      text: '{"result":null,"error":{"code":-32700,"message":"Parse error"},"id":null}\n',
    });
    expect((await expectOrdinary('not hex', call([changed(LARGE, 10, 'g')]))).text).toContain('"code":-22');
  });

  it('is answered as read the ordinary way, whatever bytes are put anywhere in it', async () => {
    const piece = fc.oneof(
      fc.constantFrom('\u0001', '\t', '\\u0061', '\\x', '"', 'é', 'g', 'G', 'A', ' ', ',', ']', '}', '\\\\', ''),
      fc.uint8Array({ minLength: 1, maxLength: 3 }).map((b) => Buffer.from(b)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(LARGE, SMALL),
        fc.array(fc.record({ at: fc.nat(), piece, cut: fc.integer({ min: 0, max: 2 }) }), { minLength: 1, maxLength: 3 }),
        async (hex, edits) => {
          let text = hexBytes(hex);
          // Never the first character, which the ordinary reading escapes.
          for (const { at, piece: p, cut } of edits) text = changed(text.toString('latin1'), 1 + (at % (text.length - 1)), p, cut);
          await expectOrdinary('edited', call([text]));
        },
      ),
      { numRuns: 40 },
    );
  });
});
