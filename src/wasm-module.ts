/**
 * Loading the WebAssembly modules built from assembly/ (the field arithmetic, the hashers, the
 * address checksums, ZIP 244 and the JSON writer's hex): a leaf beside the folders, so that
 * json/ and crypto/ share it without json/ importing crypto/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The compiled module `src/crypto/wasm/<name>.wasm` (built from `assembly/<name>.ts` by
 * scripts/build-wasm.mjs; `npm run build` copies it next to the compiled code in dist/),
 * compiled synchronously.
 */
export function loadWasmModule(name: string): WebAssembly.Module {
  const path = fileURLToPath(new URL(`./crypto/wasm/${name}.wasm`, import.meta.url));
  if (!existsSync(path)) throw new Error(`WebAssembly module ${path} is missing: run npm run build:wasm`);
  return new WebAssembly.Module(readFileSync(path));
}

/**
 * An instance of `module` (by default `src/crypto/wasm/<name>.wasm`) with the one import every
 * module of assembly/ has: AssemblyScript's `abort`, which throws naming the module.
 */
export function instantiateWasm(name: string, module: WebAssembly.Module = loadWasmModule(name)): WebAssembly.Exports {
  return new WebAssembly.Instance(module, {
    env: {
      abort(): never {
        throw new Error(`${name}.wasm aborted`);
      },
    },
  }).exports;
}

/**
 * `exports`, once every function in `functions` is among them. The built modules are not in git:
 * one built from an older assembly/<name>.ts still loads after a pull, and a function it lacks
 * would fail at its first call, in the middle of a request, where the caller has no fallback.
 * Refused here, the loader's own fallback (JavaScript) takes over instead.
 */
export function requireWasmFunctions(name: string, exports: WebAssembly.Exports, functions: readonly string[]): WebAssembly.Exports {
  const missing = functions.filter((f) => typeof exports[f] !== 'function');
  if (missing.length > 0) {
    throw new Error(
      `WebAssembly module ${name}.wasm lacks ${missing.join(', ')}: it was built from an older assembly/${name}.ts; run npm run build:wasm`,
    );
  }
  return exports;
}
