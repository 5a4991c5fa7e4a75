// The JSON reader's search of long strings for control bytes (a raw byte below 0x20, which a
// JSON string may not hold): in WebAssembly from 2 KiB, in JavaScript below and as the fallback.
// Both must agree with a byte-by-byte search at every alignment and near every 64-byte step's
// edges, on testnet 141042's 97.5 kB JoinSplit transaction as hex (the request body's bulk).
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import { wasmHexAvailable } from '../../src/json/hex-wasm.js';
import { holdsControlByte, holdsControlByteJs } from '../../src/json/plain-strings.js';
import { readHexVector } from '../support/vectors.js';

const HEX = Buffer.from(toHex(decodeBlock(readHexVector('blocks', 'testnet', '141042.hex')).transactions[1]!.bytes), 'latin1');

const byteByByte = (bytes: Uint8Array): boolean => bytes.some((b) => b < 0x20);

describe('the control-byte search of long strings', () => {
  it('runs in WebAssembly here', () => {
    expect(wasmHexAvailable()).toBe(true);
  });

  it('finds none in a transaction hex and one wherever it is put, at every alignment', () => {
    expect(HEX.length).toBe(195_096);
    const memory = Buffer.alloc(HEX.length + 16);
    for (let offset = 0; offset < 16; offset += 3) {
      HEX.copy(memory, offset);
      const view = memory.subarray(offset, offset + HEX.length);
      expect(holdsControlByte(view)).toBe(false);
      expect(holdsControlByteJs(view)).toBe(false);
      // The first and last bytes, both sides of 16- and 64-byte steps, and the tail past the last whole step.
      const positions = [0, 1, 15, 16, 63, 64, 65, 4095, 100_000, view.length - 65, view.length - 17, view.length - 1];
      for (const at of positions) {
        const kept = view[at]!;
        for (const byte of [0x00, 0x0a, 0x1f]) {
          view[at] = byte;
          expect(holdsControlByte(view)).toBe(true);
          expect(holdsControlByteJs(view)).toBe(true);
        }
        for (const byte of [0x20, 0x7f]) {
          view[at] = byte;
          expect(holdsControlByte(view)).toBe(false);
        }
        view[at] = kept;
      }
    }
  });

  it('agrees with a byte-by-byte search on every length around the WebAssembly threshold', () => {
    const memory = Buffer.alloc(2200, 0x61);
    for (let length = 2000; length < 2200; length += 7) {
      const view = memory.subarray(0, length);
      for (const at of [0, length >> 1, length - 1]) {
        view[at] = 0x1f;
        expect(holdsControlByte(view)).toBe(byteByByte(view));
        view[at] = 0x61;
        expect(holdsControlByte(view)).toBe(false);
      }
    }
  });
});
