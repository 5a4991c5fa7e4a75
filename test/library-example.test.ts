// Runs the README's library example, as written, against the package's public entry point
// (src/index.ts), on the real block it names, and checks what it prints.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFacts, readJsonVector, vectorPath } from './support/vectors.js';

const repo = resolve(import.meta.dirname, '..');

function readmeExample(): string {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Library'));
  const start = section.indexOf('```ts\n') + 6;
  return section.slice(start, section.indexOf('```', start));
}

describe("the README's library example", () => {
  it('runs against the public entry point and prints the real values', () => {
    const code = readmeExample()
      .replace("from 'zecrpc'", `from ${JSON.stringify(join(repo, 'src', 'index.ts'))}`)
      .replace("'419201.hex'", JSON.stringify(vectorPath('blocks', 'mainnet', '419201.hex')));
    const dir = mkdtempSync(join(tmpdir(), 'zecrpc-readme-'));
    try {
      const file = join(dir, 'example.ts');
      writeFileSync(file, code);
      const run = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: repo, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      const facts = readFacts().blocks.find((b) => b.network === 'mainnet' && b.height === 419201)!;
      const testnetGenesis = readFacts().blocks.find((b) => b.network === 'testnet' && b.height === 0)!;
      const root = readJsonVector<{ roots: { network: string; height: number; pool: string; rpc_hex: string }[] }>('roots.json').roots.find(
        (r) => r.network === 'mainnet' && r.height === 419201 && r.pool === 'sapling',
      )!;
      expect(run.stdout.trim().split('\n')).toEqual([
        facts.hash,
        facts.merkleroot,
        facts.txids[1],
        'f'.repeat(64),
        'true',
        'true',
        `${root.rpc_hex} 5`,
        testnetGenesis.hash,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
