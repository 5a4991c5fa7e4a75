// The WebAssembly modules are built from assembly/ and not kept in git: after a pull that changes
// assembly/, modules built from the older sources still load (requireWasmFunctions only catches a
// missing function), and one whose memory layout changed under the same names would write wrong
// bytes. scripts/build-wasm.mjs records the sources' digest beside the modules; this compares it.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_FROM_FILE, wasmSourcesDigest } from '../../scripts/wasm-sources.mjs';

const root = resolve(import.meta.dirname, '../..');

describe('the built WebAssembly modules', () => {
  it('were built from the sources in assembly/ and scripts/build-wasm.mjs as they are now', () => {
    const recorded = JSON.parse(readFileSync(join(root, 'src/crypto/wasm', BUILT_FROM_FILE), 'utf8')) as { sources: string };
    expect(recorded.sources, 'src/crypto/wasm/ holds modules built from other sources: run npm run build:wasm').toBe(
      wasmSourcesDigest(root),
    );
  });

  it('tell apart a tree with one byte of a shared file changed, a source added, the build flags or the compiler changed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zecrpc-wasm-sources-'));
    try {
      cpSync(join(root, 'assembly'), join(dir, 'assembly'), { recursive: true });
      cpSync(join(root, 'scripts/build-wasm.mjs'), join(dir, 'scripts/build-wasm.mjs'));
      cpSync(join(root, 'node_modules/assemblyscript/package.json'), join(dir, 'node_modules/assemblyscript/package.json'));
      const base = wasmSourcesDigest(dir);
      expect(base).toBe(wasmSourcesDigest(root));
      const shared = join(dir, 'assembly/text/hex16.ts');
      const original = readFileSync(shared);
      const text = Buffer.from(original);
      text.writeUInt8(text.readUInt8(text.length - 2) ^ 1, text.length - 2);
      writeFileSync(shared, text);
      const edited = wasmSourcesDigest(dir);
      expect(edited).not.toBe(base);
      writeFileSync(shared, original);
      expect(wasmSourcesDigest(dir)).toBe(base);
      writeFileSync(join(dir, 'assembly/text/extra.ts'), '');
      expect(wasmSourcesDigest(dir)).not.toBe(base);
      rmSync(join(dir, 'assembly/text/extra.ts'));
      // An editor's swap file is no source.
      writeFileSync(join(dir, 'assembly/text/.hex16.ts.swp'), 'x');
      expect(wasmSourcesDigest(dir)).toBe(base);
      writeFileSync(join(dir, 'scripts/build-wasm.mjs'), `${readFileSync(join(root, 'scripts/build-wasm.mjs'), 'utf8')}\n`);
      const flags = wasmSourcesDigest(dir);
      expect(flags).not.toBe(base);
      // Another compiler release.
      const compiler = join(dir, 'node_modules/assemblyscript/package.json');
      writeFileSync(compiler, JSON.stringify({ ...JSON.parse(readFileSync(compiler, 'utf8')), version: '0.0.0-other' }));
      expect(wasmSourcesDigest(dir)).not.toBe(flags);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
