// An address-checksums.wasm built from an older assembly/address-checksums.ts (checksums, no
// texts): addressTexts declines, and the address table encodes its batches in JavaScript, with
// the same addresses.
import bs58check from 'bs58check';
import { describe, expect, it, vi } from 'vitest';
import type * as WasmModule from '../../src/wasm-module.js';

vi.mock('../../src/wasm-module.js', async (original) => {
  const real = await original<typeof WasmModule>();
  return {
    ...real,
    instantiateWasm: (name: string, module?: WebAssembly.Module): WebAssembly.Exports => {
      const exports = real.instantiateWasm(name, module);
      if (name !== 'address-checksums') return exports;
      const { texts: _texts, textsPointer: _pointer, ...older } = exports;
      return older;
    },
  };
});

const { MAINNET } = await import('../../src/chain/network.js');
const { addressTable } = await import('../../src/codec/script/address.js');
const { addressTexts, wasmAddressChecksumsAvailable } = await import('../../src/crypto/address-checksums.js');

describe('an address-checksums.wasm without texts', () => {
  it('is used for checksums only, and a batch of addresses is encoded in JavaScript', () => {
    expect(wasmAddressChecksumsAvailable()).toBe(true);
    expect(addressTexts(new Uint8Array(22), 1)).toBeNull();
    const table = addressTable('p2pkh', MAINNET);
    const hashes = Array.from({ length: 40 }, (_, i) => Uint8Array.from({ length: 20 }, (_, j) => (i * 37 + j * 11) & 0xff));
    for (const h of hashes) table.request(h, 0);
    table.flush();
    for (const h of hashes) {
      expect(table.textOf(table.slotOf(h, 0))).toBe(bs58check.encode(Uint8Array.from([...MAINNET.p2pkhPrefix, ...h])));
    }
  });
});
