// Without a usable tx-outputs.wasm (not built, or built from an older assembly/tx-outputs.ts),
// byte output writes every output in JavaScript, with the same output.
import { describe, expect, it, vi } from 'vitest';
import type * as WasmModule from '../../src/wasm-module.js';

/** How the test below breaks the module: absent, or present without writeOutputs. */
const mode = vi.hoisted(() => ({ missing: true }));

vi.mock('../../src/wasm-module.js', async (original) => {
  const real = await original<typeof WasmModule>();
  return {
    ...real,
    instantiateWasm: (name: string, module?: WebAssembly.Module): WebAssembly.Exports => {
      if (name !== 'tx-outputs') return real.instantiateWasm(name, module);
      if (mode.missing) throw new Error('WebAssembly module tx-outputs.wasm is missing: run npm run build:wasm');
      const { writeOutputs: _dropped, ...older } = real.instantiateWasm(name, module);
      return older;
    },
  };
});

const { MAINNET } = await import('../../src/chain/network.js');
const { decodeBlock } = await import('../../src/codec/block.js');
const { txToJson, txToJsonBytes } = await import('../../src/render/tx.js');
const { readHexVector } = await import('../support/vectors.js');

/** Every transaction of block 171059 (one of 1,500 P2PKH outputs) in byte output equals text output. */
function expectBytesEqualText(): void {
  const block = decodeBlock(readHexVector('zcashd-2019', '171059.hex'));
  for (const tx of block.transactions) expect(txToJsonBytes(tx, MAINNET).toString('latin1')).toBe(txToJson(tx, MAINNET));
}

describe('no usable tx-outputs.wasm', () => {
  it('without the file, outputs are written in JavaScript with the same output', async () => {
    vi.resetModules();
    mode.missing = true;
    const { outputRunWriter } = await import('../../src/render/output-wasm.js');
    expect(outputRunWriter()).toBeNull();
    expectBytesEqualText();
  });

  it('built from an older source (no writeOutputs), it is refused, and outputs are written in JavaScript', async () => {
    vi.resetModules();
    mode.missing = false;
    const { outputRunWriter } = await import('../../src/render/output-wasm.js');
    expect(outputRunWriter()).toBeNull();
    const { txToJson: text, txToJsonBytes: bytes } = await import('../../src/render/tx.js');
    const block = decodeBlock(readHexVector('zcashd-2019', '171059.hex'));
    for (const tx of block.transactions) expect(bytes(tx, MAINNET).toString('latin1')).toBe(text(tx, MAINNET));
  });
});
