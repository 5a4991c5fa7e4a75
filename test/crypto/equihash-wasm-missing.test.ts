/**
 * Without assembly/equihash.ts's module (not built, or built from older code without a global
 * the loader needs), Equihash verification falls back to blake2b-wasm's driver with the same
 * verdicts.
 */
import { describe, expect, it, vi } from 'vitest';
import type * as WasmModule from '../../src/wasm-module.js';

vi.mock('../../src/wasm-module.js', async (original) => {
  const real = await original<typeof WasmModule>();
  return {
    ...real,
    instantiateWasm: (name: string, module?: WebAssembly.Module): WebAssembly.Exports => {
      if (name === 'equihash') throw new Error('WebAssembly module equihash.wasm is missing: run npm run build:wasm');
      return real.instantiateWasm(name, module);
    },
  };
});

const { equihashHashers, verifyEquihash } = await import('../../src/crypto/equihash.js');
const { decodeBlock } = await import('../../src/codec/block.js');
const { readHexVector, realBlockFiles } = await import('../support/vectors.js');

describe('Equihash without equihash.wasm', () => {
  it('verifies with the one-index-a-call driver, valid and invalid solutions alike', () => {
    expect(equihashHashers.batch).toBeNull();
    expect(equihashHashers.wasm).not.toBeNull();
    const header = decodeBlock(readHexVector(realBlockFiles()[3]!.file)).header;
    const prefix = header.bytes.subarray(0, 140);
    expect(verifyEquihash(200, 9, prefix, header.solution)).toEqual({ ok: true });
    const bad = header.solution.slice();
    bad[5]! ^= 1;
    const verdict = verifyEquihash(200, 9, prefix, bad);
    expect(verdict.ok).toBe(false);
    expect(verdict).toEqual(verifyEquihash(200, 9, prefix, bad, equihashHashers.noble));
  });
});
