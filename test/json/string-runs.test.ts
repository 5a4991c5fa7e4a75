// The JSON reader's questions of a long string run (plain? wide? structure bytes?), answered in
// one WebAssembly pass from 2 KiB and by separate native scans below and as the fallback: both
// must agree with a byte-by-byte answer for every byte value, wherever it sits (the 16-byte
// steps' lanes and the tail past the last whole step), on testnet 141042's 97.5 kB JoinSplit
// transaction as hex (decoderawtransaction's request body, as the size estimate and the reader see it).
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import { wasmHexAvailable, wasmStringRunFacts } from '../../src/json/hex-wasm.js';
import { JsonParseError, parseJson, parsedSizeEstimate } from '../../src/json/reader.js';
import type { JsonValue } from '../../src/json/value.js';
import { LazyStringScope, plainStringBytes } from '../../src/json/lazy-strings.js';
import {
  isPlainStringRun,
  RUN_NOT_PLAIN,
  RUN_STRUCTURE,
  RUN_WIDE,
  stringRunFacts,
  stringRunFactsNative,
} from '../../src/json/string-runs.js';
import { readHexVector } from '../support/vectors.js';

const HEX = Buffer.from(toHex(decodeBlock(readHexVector('blocks', 'testnet', '141042.hex')).transactions[1]!.bytes), 'latin1');

/** The three answers, one byte at a time, from their definitions. */
function byteByByte(run: Uint8Array): number {
  let facts = 0;
  for (const c of run) {
    if (c < 0x20 || c >= 0x80 || c === 0x5c) facts |= RUN_NOT_PLAIN;
    if (c >= 0x80 || c === 0x5c) facts |= RUN_WIDE;
    if (c === 0x7b || c === 0x5b || c === 0x2c || c === 0x3a) facts |= RUN_STRUCTURE;
  }
  return facts;
}

describe('stringRunFacts', () => {
  it('runs in WebAssembly here', () => {
    expect(wasmHexAvailable()).toBe(true);
    expect(wasmStringRunFacts(HEX)).toBe(0);
  });

  it('finds nothing in a transaction hex, and each byte value counted as its definition says wherever it is put', () => {
    expect(HEX.length).toBe(195_096);
    expect(stringRunFacts(HEX)).toBe(0);
    expect(stringRunFactsNative(HEX)).toBe(0);
    // A run of 2,061 bytes (128 whole steps and a 13-byte tail) at an odd offset of its memory.
    const memory = Buffer.alloc(2100);
    const run = memory.subarray(3, 3 + 2061);
    HEX.copy(run, 0, 0, run.length);
    const positions = [0, 1, 7, 15, 16, 17, 31, 1024, 2031, 2047, 2048, 2049, 2055, 2060];
    for (const at of positions) {
      const kept = run[at]!;
      for (let value = 0; value < 256; value++) {
        run[at] = value;
        const want = byteByByte(run);
        expect(wasmStringRunFacts(run), `byte ${value} at ${at}`).toBe(want);
        expect(stringRunFactsNative(run), `byte ${value} at ${at}`).toBe(want);
        expect(isPlainStringRun(run)).toBe((want & RUN_NOT_PLAIN) === 0);
      }
      run[at] = kept;
    }
  });

  it('gives the native answer below 2 KiB, every length up to 40', () => {
    for (let n = 0; n <= 40; n++) {
      const run = Buffer.from(HEX.subarray(0, n));
      expect(stringRunFacts(run)).toBe(0);
      if (n === 0) continue;
      for (const value of [0x1f, 0x20, 0x2c, 0x3a, 0x5b, 0x5c, 0x7b, 0x7f, 0x80, 0xff]) {
        run[n - 1] = value;
        expect(stringRunFacts(run)).toBe(byteByByte(run));
        expect(wasmStringRunFacts(run)).toBe(byteByByte(run));
        expect(isPlainStringRun(run)).toBe((byteByByte(run) & RUN_NOT_PLAIN) === 0);
      }
    }
  });
});

describe('the reader and the size estimate on a long run that is not plain at its last byte', () => {
  const body = (last: number) => Buffer.concat([Buffer.from('["'), HEX, Buffer.from([last]), Buffer.from('"]')]);
  it('reads the hex as a lazy range only when it is plain', () => {
    const scope = new LazyStringScope();
    const plain = parseJson(body(0x61), { lazyStrings: scope }) as JsonValue[];
    expect(plainStringBytes(plain, 0)?.equals(Buffer.concat([HEX, Buffer.from('a')]))).toBe(true);
    // A raw control byte is refused, as UniValue refuses it; DEL is a plain byte.
    expect(() => parseJson(body(0x1f), { lazyStrings: scope })).toThrow(JsonParseError);
    expect((parseJson(body(0x7f), { lazyStrings: scope }) as string[])[0]!.endsWith('\x7f')).toBe(true);
    // Not plain, so read as a string: the escape is decoded, the comma kept.
    expect(
      (parseJson(Buffer.concat([Buffer.from('["'), HEX, Buffer.from('\\n,"]')]), { lazyStrings: scope }) as string[])[0]!.endsWith('\n,'),
    ).toBe(true);
    scope.end();
  });
  it('counts a structure byte or a wide byte at the run’s end as a byte loop does', () => {
    const structure = 224 + 2 * 32;
    expect(parsedSizeEstimate(body(0x61))).toBe(body(0x61).length + structure);
    expect(parsedSizeEstimate(body(0x5c))).toBe(Math.ceil(2.5 * body(0x5c).length) + structure);
    expect(parsedSizeEstimate(body(0xc4))).toBe(Math.ceil(2.5 * body(0xc4).length) + structure);
    expect(parsedSizeEstimate(body(0x2c))).toBe(body(0x2c).length + structure + 80);
    expect(parsedSizeEstimate(body(0x3a))).toBe(body(0x3a).length + structure + 32);
    expect(parsedSizeEstimate(body(0x7b))).toBe(body(0x7b).length + structure + 256);
    expect(parsedSizeEstimate(body(0x5b))).toBe(body(0x5b).length + structure + 224);
  });
});
