#!/usr/bin/env node
// Compiles every top-level assembly/<name>.ts (AssemblyScript) into src/crypto/wasm/<name>.wasm.
// Files in subfolders of assembly/ are shared code, imported by the entry files.
// Runs from `npm run build:wasm` and from `prepare`, so `npm ci` produces the modules.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILT_FROM_FILE, wasmSourcesDigest } from './wasm-sources.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = join(root, 'assembly');
const outDir = join(root, 'src', 'crypto', 'wasm');

async function main() {
  // assemblyscript is a devDependency: an install without dev dependencies cannot build the
  // modules, and their users must do without (the Sapling tree hasher falls back to its pure
  // TypeScript version: same results, slower).
  let asc;
  try {
    asc = (await import('assemblyscript/asc')).default;
  } catch {
    process.stderr.write('build-wasm: assemblyscript is not installed; WebAssembly modules not built\n');
    return true;
  }

  const entries = readdirSync(sourceDir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => e.name.slice(0, -3))
    .sort();

  // WebAssembly features a module needs beyond the defaults (SIMD is in every Node ≥ 16.4).
  const features = {
    hex: ['--enable', 'simd'],
    'address-checksums': ['--enable', 'simd'],
    equihash: ['--enable', 'simd'],
    'tx-inputs': ['--enable', 'simd'],
    'tx-outputs': ['--enable', 'simd'],
  };

  mkdirSync(outDir, { recursive: true });
  // Taken before compiling: sources edited during the build are then found stale, not recorded as built.
  const sources = wasmSourcesDigest(root);
  rmSync(join(outDir, BUILT_FROM_FILE), { force: true });
  let ok = true;
  for (const name of entries) {
    const { error, stderr } = await asc.main([
      join(sourceDir, `${name}.ts`),
      '--outFile',
      join(outDir, `${name}.wasm`),
      '--optimizeLevel',
      '3',
      '--shrinkLevel',
      '0',
      '--converge',
      // No managed objects are used: memory is laid out by hand, so the smallest runtime suffices.
      '--runtime',
      'stub',
      '--noAssert',
      ...(features[name] ?? []),
    ]);
    if (error) {
      ok = false;
      process.stderr.write(`build-wasm: ${name}: ${error.message}\n${stderr.toString()}`);
    } else {
      // stderr: `npm pack --json` prints its JSON on stdout, which prepare shares.
      process.stderr.write(`build-wasm: ${name}.wasm\n`);
    }
  }
  if (ok) writeFileSync(join(outDir, BUILT_FROM_FILE), `${JSON.stringify({ sources })}\n`);
  return ok;
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (err) => {
    process.stderr.write(`build-wasm: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
