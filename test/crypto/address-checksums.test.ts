// Base58Check checksums of t-address payloads in WebAssembly (four per SIMD instruction) against
// node:crypto's SHA-256d, across the module's batch capacity, and the fallback without it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADDRESS_PAYLOAD_BYTES, addressChecksums, wasmAddressChecksumsAvailable } from '../../src/crypto/address-checksums.js';
import { sha256d } from '../../src/crypto/hash.js';

function payloads(count: number, seed: number): Uint8Array {
  const out = new Uint8Array(count * ADDRESS_PAYLOAD_BYTES);
  let x = seed | 1;
  for (let i = 0; i < out.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  // Extremes too: all zeros and all ones.
  if (count > 2) {
    out.fill(0, 0, ADDRESS_PAYLOAD_BYTES);
    out.fill(0xff, ADDRESS_PAYLOAD_BYTES, 2 * ADDRESS_PAYLOAD_BYTES);
  }
  return out;
}

function expected(all: Uint8Array, count: number): Uint8Array {
  const out = new Uint8Array(4 * count);
  for (let i = 0; i < count; i++)
    out.set(sha256d(all.subarray(ADDRESS_PAYLOAD_BYTES * i, ADDRESS_PAYLOAD_BYTES * (i + 1))).subarray(0, 4), 4 * i);
  return out;
}

describe('address checksums', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('are computed in WebAssembly here (npm ci builds the module)', () => {
    expect(wasmAddressChecksumsAvailable()).toBe(true);
  });

  it('equal SHA-256d for every count up to 9 and across the batch capacity (1,024)', () => {
    for (const count of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1023, 1024, 1025, 2051, 5000]) {
      const all = payloads(count, count + 7);
      const out = new Uint8Array(4 * count + 4).fill(0xee);
      addressChecksums(all, count, out);
      expect(Buffer.from(out.subarray(0, 4 * count)).equals(Buffer.from(expected(all, count)))).toBe(true);
      // Nothing written past the last checksum.
      expect([...out.subarray(4 * count)]).toEqual([0xee, 0xee, 0xee, 0xee]);
    }
  });

  it('fall back to node:crypto with ZECRPC_PURE_ADDRESSES=1, with the same results', async () => {
    vi.stubEnv('ZECRPC_PURE_ADDRESSES', '1');
    vi.resetModules();
    const fresh = await import('../../src/crypto/address-checksums.js');
    expect(fresh.wasmAddressChecksumsAvailable()).toBe(false);
    const all = payloads(37, 99);
    const out = new Uint8Array(4 * 37);
    fresh.addressChecksums(all, 37, out);
    expect(Buffer.from(out).equals(Buffer.from(expected(all, 37)))).toBe(true);
  });
});
