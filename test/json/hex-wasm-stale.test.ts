// A hex.wasm built from an older assembly/hex.ts (the built modules are not in git) still loads
// after a pull; it must be refused as a whole, so that hex goes through the JavaScript and native
// fallbacks, not fail at its first call to a function it lacks.
import { describe, expect, it, vi } from 'vitest';
import type * as WasmModule from '../../src/wasm-module.js';

vi.mock('../../src/wasm-module.js', async (original) => {
  const real = await original<typeof WasmModule>();
  return {
    ...real,
    instantiateWasm: (name: string, module?: WebAssembly.Module): WebAssembly.Exports => {
      const exports = real.instantiateWasm(name, module);
      if (name !== 'hex') return exports;
      // The module as the previous revision built it: everything but the decoder.
      const { decodeHex: _dropped, ...older } = exports;
      return older;
    },
  };
});

const { hexBytesToBytesStrict } = await import('../../src/codec/hex.js');
const { wasmHexAvailable } = await import('../../src/json/hex-wasm.js');
const { requireWasmFunctions } = await import('../../src/wasm-module.js');

describe('a hex.wasm without decodeHex', () => {
  it('is refused, naming what it lacks', () => {
    expect(() => requireWasmFunctions('hex', { encodeHex: () => 0 } as WebAssembly.Exports, ['encodeHex', 'decodeHex'])).toThrow(
      'WebAssembly module hex.wasm lacks decodeHex: it was built from an older assembly/hex.ts; run npm run build:wasm',
    );
  });

  it('leaves hex to the fallbacks, which decode and refuse as before', () => {
    expect(wasmHexAvailable()).toBe(false);
    const hex = 'ab'.repeat(40_000) + '0F';
    expect(Buffer.from(hexBytesToBytesStrict(Buffer.from(hex, 'latin1'))!).toString('hex')).toBe(hex.toLowerCase());
    expect(hexBytesToBytesStrict(Buffer.from('ab'.repeat(40_000) + 'g0', 'latin1'))).toBeNull();
  });
});
