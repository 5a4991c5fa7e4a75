// Runs the README's JavaScript library examples, as written, with plain node against the built
// package (resolved by name through a node_modules link, as an installed package is), on the real
// block they name, and checks what they print; type-checks the TypeScript example against the
// package's declarations. Needs `npm run build`, as the CLI tests do.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFacts, readJsonVector, vectorPath } from './support/vectors.js';

const repo = resolve(import.meta.dirname, '..');

/** The README's ```js blocks under "## Library", in order. */
function readmeJsExamples(): string[] {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Library'), readme.indexOf('\n## ', readme.indexOf('## Library') + 1));
  return [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

describe("the README's JavaScript library examples", () => {
  let dir: string;
  beforeAll(() => {
    expect(existsSync(join(repo, 'dist', 'src', 'index.js')), 'dist/ is missing: run npm run build').toBe(true);
    dir = mkdtempSync(join(tmpdir(), 'zecrpc-readme-js-'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(repo, join(dir, 'node_modules', 'zecrpc'), 'dir');
    writeFileSync(join(dir, '419201.hex'), readFileSync(vectorPath('blocks', 'mainnet', '419201.hex')));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (file: string, code: string) => {
    writeFileSync(join(dir, file), code);
    const out = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8' });
    expect(out.stderr).toBe('');
    return out.stdout.trim().split('\n');
  };
  const facts = () => readFacts().blocks.find((b) => b.network === 'mainnet' && b.height === 419201)!;

  it('has an ES module example and a CommonJS one', () => {
    const [esm, cjs] = readmeJsExamples();
    expect(esm).toMatch(/^import .* from 'zecrpc';$/m);
    expect(cjs).toMatch(/require\('zecrpc'\)/);
  });

  it('the ES module example prints the block, its second transaction and its JSON', () => {
    const lines = run('example.mjs', readmeJsExamples()[0]!);
    const f = facts();
    expect(lines).toEqual([`${f.hash} ${f.tx_count}`, f.txids[1], `{"txid":"${f.txids[1]}`.slice(0, 64)]);
  });

  // docs/library.md names the module settings the declarations resolve under; each is type-checked here.
  it.each([
    ['nodenext', 'nodenext'],
    ['node16', 'node16'],
    ['esnext', 'bundler'],
  ])(
    'the TypeScript example type-checks against the declarations with module %s, moduleResolution %s',
    (module, moduleResolution) => {
      const readme = readFileSync(join(repo, 'README.md'), 'utf8');
      const section = readme.slice(readme.indexOf('## Library'));
      const example = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
      const project = join(dir, `ts-${moduleResolution}`);
      mkdirSync(project);
      symlinkSync(join(dir, 'node_modules'), join(project, 'node_modules'), 'dir');
      writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
      writeFileSync(join(project, 'example.ts'), example);
      const compilerOptions = {
        module,
        moduleResolution,
        target: 'es2022',
        strict: true,
        noEmit: true,
        // The example and its resolution are what is checked, not @types/node's own declarations.
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(repo, 'node_modules', '@types')],
      };
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['example.ts'] }));
      const tsc = spawnSync(process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], {
        encoding: 'utf8',
      });
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.status).toBe(0);
    },
    180_000,
  );

  it('the CommonJS example prints the Sapling root of the block', () => {
    const root = readJsonVector<{ roots: { network: string; height: number; pool: string; rpc_hex: string }[] }>('roots.json').roots.find(
      (r) => r.network === 'mainnet' && r.height === 419201 && r.pool === 'sapling',
    )!;
    expect(run('example.cjs', readmeJsExamples()[1]!)).toEqual([`${root.rpc_hex} 5`]);
  });
});
