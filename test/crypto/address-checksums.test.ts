// Base58Check checksums of t-address payloads in WebAssembly (four per SIMD instruction) against
// node:crypto's SHA-256d, across the module's batch capacity, and the fallback without it; their
// Base58Check texts, checksum and Base58 in one call, against bs58check.
import bs58check from 'bs58check';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ADDRESS_PAYLOAD_BYTES,
  ADDRESS_TEXT_AT,
  ADDRESS_TEXT_RECORD,
  addressChecksums,
  addressTexts,
  wasmAddressChecksumsAvailable,
} from '../../src/crypto/address-checksums.js';
import { MAINNET, TESTNET } from '../../src/chain/network.js';
import { addressTable } from '../../src/codec/script/address.js';
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

  it('texts equal bs58check for every count up to the capacity, leading zero bytes and all-ones included (property)', () => {
    const texts = (all: Uint8Array, count: number): string[] => {
      const out = addressTexts(all, count);
      expect(out, 'the module writes texts').not.toBeNull();
      return Array.from({ length: count }, (_, i) => {
        const r = ADDRESS_TEXT_RECORD * i;
        return Buffer.from(out!.subarray(r + ADDRESS_TEXT_AT, r + ADDRESS_TEXT_AT + out![r]!)).toString('latin1');
      });
    };
    const encoded = (all: Uint8Array, count: number): string[] =>
      Array.from({ length: count }, (_, i) => bs58check.encode(all.subarray(ADDRESS_PAYLOAD_BYTES * i, ADDRESS_PAYLOAD_BYTES * (i + 1))));
    for (const count of [1, 2, 3, 5, 1023, 1024]) {
      const all = payloads(count, count + 3);
      expect(texts(all, count)).toEqual(encoded(all, count));
    }
    /** Payloads with 0–22 leading zero bytes, then any bytes, or 0xff. */
    const payload = fc
      .tuple(fc.nat(22), fc.uint8Array({ minLength: 22, maxLength: 22 }), fc.boolean())
      .map(([zeros, bytes, ones]) => (ones ? bytes.fill(0xff, zeros) : bytes).fill(0, 0, zeros));
    fc.assert(
      fc.property(fc.array(payload, { minLength: 1, maxLength: 40, size: 'max' }), (list) => {
        const all = new Uint8Array(Buffer.concat(list));
        expect(texts(all, list.length)).toEqual(encoded(all, list.length));
      }),
      { numRuns: 300 },
    );
    expect(addressTexts(payloads(1025, 1), 1025)).toBeNull();
  });

  it("the address table's batches, encoded by texts, are bs58check's, past a batch's 1,024 and with hashes sharing slots", () => {
    for (const network of [MAINNET, TESTNET]) {
      for (const kind of ['p2pkh', 'p2sh'] as const) {
        const table = addressTable(kind, network);
        const prefix = kind === 'p2pkh' ? network.p2pkhPrefix : network.p2shPrefix;
        // Fresh hashes (the tables persist across tests): some share their first two bytes, i.e. a slot.
        const hashes = Array.from({ length: 2_500 }, (_, i) =>
          Uint8Array.from({ length: 20 }, (_, j) => (j < 2 ? (i % 3 === 0 ? 7 : (i * (j + 3)) & 0xff) : (i * 131 + j * 17 + 5) & 0xff)),
        );
        for (const h of hashes) table.request(h, 0);
        table.flush();
        for (const h of hashes) expect(table.textOf(table.slotOf(h, 0))).toBe(bs58check.encode(Uint8Array.from([...prefix, ...h])));
      }
    }
  });
});
