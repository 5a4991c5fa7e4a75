/**
 * Module hooks for a bench child that runs a checkout's compiled server (child-server.ts, `dist`
 * mode): every import of that checkout's `src/` is answered from its `dist/src/` (what `npm run
 * build` made and `zecrpc serve` runs), and the bench's own TypeScript helpers (bench/lib, and
 * test/support from the checkout measured) are transpiled by the TypeScript compiler, which adds
 * no helper to the functions they create (tsx's esbuild gives each one a `__name` call).
 *
 * Registered by dist-register.mjs with { bench, root }: the checkout the bench runs from, and the
 * checkout measured (the same one, or another revision's).
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

let bench = '';
let root = '';

export function initialize(data) {
  bench = data.bench;
  root = data.root;
}

/** `path` inside `base` as a relative path with `/` separators, or null outside it. */
function inside(base, path) {
  const rel = relative(base, path);
  return rel.startsWith('..') || rel === '' ? null : rel.split(sep).join('/');
}

/** Where a file of either checkout is taken from: sources from the measured one's build. */
function mapped(path) {
  const rel = inside(root, path) ?? inside(bench, path);
  if (rel === null) return path;
  if (rel.startsWith('src/')) return `${root}/dist/${rel.replace(/\.ts$/, '.js')}`;
  if (rel.startsWith('test/')) return withSource(`${root}/${rel}`);
  return withSource(path);
}

/** A `.js` specifier names its `.ts` source in a checkout. */
const withSource = (path) => (path.endsWith('.js') && !existsSync(path) ? `${path.slice(0, -3)}.ts` : path);

export async function resolve(specifier, context, nextResolve) {
  if ((specifier.startsWith('.') || specifier.startsWith('file:')) && context.parentURL?.startsWith('file:')) {
    const path = fileURLToPath(new URL(specifier, context.parentURL));
    const target = mapped(path);
    if (!existsSync(target))
      throw new Error(`${specifier} (from ${context.parentURL}): ${target} does not exist; run npm run build in ${root}`);
    return { url: pathToFileURL(target).href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const source = readFileSync(fileURLToPath(url), 'utf8');
  const out = ts.transpileModule(source, {
    fileName: fileURLToPath(url),
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
  });
  return { format: 'module', source: out.outputText, shortCircuit: true };
}
