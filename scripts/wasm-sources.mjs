// What the WebAssembly modules are built from, as one digest: every .ts file under assembly/
// (entry files and the shared code they import), the build script itself (its compiler flags)
// and the AssemblyScript compiler's version.
// build-wasm.mjs records it beside the modules, and a test compares it with the sources', so a
// module left from older sources (the modules are not in git, and a pull does not rebuild them)
// is found by the tests rather than by a wrong reply.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The file, beside the built modules, that names the sources they were built from. */
export const BUILT_FROM_FILE = 'built-from.json';

/**
 * The SHA-256 (hex) of assembly/'s .ts files (by path, in sorted order), scripts/build-wasm.mjs
 * and node_modules/assemblyscript's version under `root` (none when it is not installed).
 */
export function wasmSourcesDigest(root) {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      // Sources only: an editor's swap or backup file beside them changes no module.
      else if (e.isFile() && e.name.endsWith('.ts')) files.push(path);
    }
  };
  walk(join(root, 'assembly'));
  files.push(join(root, 'scripts', 'build-wasm.mjs'));
  const named = files.map((f) => ({ name: relative(root, f).split(sep).join('/'), path: f }));
  named.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const hash = createHash('sha256');
  for (const { name, path } of named) {
    const content = readFileSync(path);
    // Name, length, content: no two different trees hash the same stream.
    hash.update(`${name}\0${content.length}\0`);
    hash.update(content);
  }
  hash.update(`assemblyscript\0${compilerVersion(root)}`);
  return hash.digest('hex');
}

function compilerVersion(root) {
  const manifest = join(root, 'node_modules', 'assemblyscript', 'package.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : '';
}
