// docs/library.md's table of TypeScript module settings, checked row by row: a tiny consumer
// project per row, the package resolved by name through a node_modules link (as installed), and
// the real tsc. "works" rows must type-check cleanly, TS1479 rows must fail with exactly that
// error. Needs `npm run build` (the declarations in dist/), as the CLI tests do.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '..');
const tscBin = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');

interface Row {
  module: string;
  moduleResolution: string;
  type: 'module' | 'commonjs';
  file: '.ts' | '.mts' | '.cts';
  works: boolean;
}

/** The rows under the `module-settings` marker of docs/library.md. */
function documentedRows(): Row[] {
  const doc = readFileSync(join(repo, 'docs', 'library.md'), 'utf8');
  const table = doc.slice(doc.indexOf('<!-- module-settings:')).split('\n\n')[0]!;
  return table
    .split('\n')
    .filter((l) => /^\| `/.test(l) && !l.startsWith('| `module`'))
    .map((l) => {
      const cells = l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim().replace(/`/g, ''));
      const [module, moduleResolution, type, file, result] = cells as [string, string, Row['type'], Row['file'], string];
      if (!result.startsWith('works') && result !== 'TS1479') throw new Error(`docs/library.md: unknown result '${result}'`);
      return { module, moduleResolution, type, file, works: result.startsWith('works') };
    });
}

const STATIC_IMPORT = `import { decodeBlock, genesisBlock, type Block } from 'zecrpc';
const block: Block = decodeBlock(genesisBlock('mainnet'));
console.log(block.hashHex);
`;

const DYNAMIC_IMPORT = `import type { Block } from 'zecrpc' with { 'resolution-mode': 'import' };
async function main(): Promise<void> {
  const zecrpc = await import('zecrpc');
  const block: Block = zecrpc.decodeBlock(zecrpc.genesisBlock('mainnet'));
  console.log(block.hashHex);
}
void main();
`;

let dir: string;
beforeAll(() => {
  expect(existsSync(join(repo, 'dist', 'src', 'index.d.ts')), 'dist/ is missing: run npm run build').toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'zecrpc-module-settings-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(repo, join(dir, 'node_modules', 'zecrpc'), 'dir');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** tsc on one file in a fresh project; its output and exit status. */
function typeCheck(name: string, opts: { module: string; moduleResolution: string; type: string; file: string; source: string }) {
  const project = join(dir, name);
  mkdirSync(project);
  symlinkSync(join(dir, 'node_modules'), join(project, 'node_modules'), 'dir');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name, private: true, type: opts.type }));
  const file = `example${opts.file}`;
  writeFileSync(join(project, file), opts.source);
  const compilerOptions = {
    module: opts.module,
    moduleResolution: opts.moduleResolution,
    target: 'es2022',
    strict: true,
    noEmit: true,
    // The resolution of the package is what is checked, not @types/node's own declarations.
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(repo, 'node_modules', '@types')],
  };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: [file] }));
  const r = spawnSync(process.execPath, [tscBin, '-p', project], { cwd: project, encoding: 'utf8' });
  return { status: r.status, output: r.stdout + r.stderr };
}

describe("docs/library.md's TypeScript module settings", () => {
  const rows = documentedRows();

  it('lists the settings a consumer may have, CommonJS under node16 among them', () => {
    expect(rows.length).toBe(7);
    expect(rows).toContainEqual({ module: 'node16', moduleResolution: 'node16', type: 'commonjs', file: '.ts', works: false });
  });

  it.each(rows.map((r, i) => [i, r] as const))(
    'row %i: %o',
    (i, row) => {
      const r = typeCheck(`row${i}`, { ...row, source: STATIC_IMPORT });
      if (row.works) {
        expect(r.output).toBe('');
        expect(r.status).toBe(0);
      } else {
        expect(r.output).toMatch(
          /^example\.ts\(1,\d+\): error TS1479: The current file is a CommonJS module whose imports will produce 'require' calls/,
        );
        expect(r.output.match(/error TS/g)).toHaveLength(1);
        expect(r.status).toBe(2);
      }
    },
    180_000,
  );

  it("the documented way out under node16 CommonJS, await import('zecrpc'), type-checks", () => {
    const r = typeCheck('dynamic', { module: 'node16', moduleResolution: 'node16', type: 'commonjs', file: '.ts', source: DYNAMIC_IMPORT });
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  }, 180_000);
});
