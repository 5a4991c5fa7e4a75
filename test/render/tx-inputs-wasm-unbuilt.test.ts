// Without tx-inputs.wasm at all (npm run build:wasm not run), byte output writes every input in
// JavaScript, with the same output.
import { describe, expect, it, vi } from 'vitest';
import type * as WasmModule from '../../src/wasm-module.js';

vi.mock('../../src/wasm-module.js', async (original) => {
  const real = await original<typeof WasmModule>();
  return {
    ...real,
    instantiateWasm: (name: string, module?: WebAssembly.Module): WebAssembly.Exports => {
      if (name === 'tx-inputs') throw new Error('WebAssembly module tx-inputs.wasm is missing: run npm run build:wasm');
      return real.instantiateWasm(name, module);
    },
  };
});

const { MAINNET } = await import('../../src/chain/network.js');
const { decodeBlock } = await import('../../src/codec/block.js');
const { inputRunWriter } = await import('../../src/render/input-wasm.js');
const { txToJson, txToJsonBytes } = await import('../../src/render/tx.js');
const { readHexVector } = await import('../support/vectors.js');

describe('no tx-inputs.wasm', () => {
  it('inputs are written in JavaScript with the same output', () => {
    expect(inputRunWriter()).toBeNull();
    const block = decodeBlock(readHexVector('zcashd-2019', '106598.hex'));
    for (const tx of block.transactions) expect(txToJsonBytes(tx, MAINNET).toString('latin1')).toBe(txToJson(tx, MAINNET));
  });
});
