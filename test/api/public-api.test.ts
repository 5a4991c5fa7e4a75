// The package's public API (every entry point of package.json's `exports`) against the approved
// report in api/zecrpc.api.md: an accidental change of an exported name or signature fails here;
// a deliberate one is approved with `npm run api:update`.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_REPORT_PATH, buildApiReport, entryPoints } from '../../scripts/api-report.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

describe('public API', () => {
  it('matches api/zecrpc.api.md (run `npm run api:update` when the change is meant)', () => {
    const report = buildApiReport(root);
    // Every entry point has its section, and the report holds real signatures, not bare names.
    for (const subpath of entryPoints(root).keys()) {
      expect(report).toContain(`## ${subpath === '.' ? 'zecrpc' : `zecrpc/${subpath.slice(2)}`}\n`);
    }
    expect(report).toContain('function decodeTransaction(');
    expect(report).toContain('function startNode(');
    const approved = readFileSync(join(root, API_REPORT_PATH), 'utf8');
    if (report !== approved) {
      const a = approved.split('\n');
      const b = report.split('\n');
      const removed = a.filter((l) => !b.includes(l));
      const added = b.filter((l) => !a.includes(l));
      expect.fail(
        `the public API differs from ${API_REPORT_PATH} (npm run api:update approves a deliberate change):\n` +
          [...removed.map((l) => `- ${l}`), ...added.map((l) => `+ ${l}`)].join('\n'),
      );
    }
  }, 240_000);

  it('reads the entry points from package.json, the source of each types path', () => {
    expect([...entryPoints(root)].map(([subpath, file]) => [subpath, file.slice(root.length + 1)])).toEqual([
      ['.', 'src/index.ts'],
      ['./codec', 'src/codec/index.ts'],
      ['./server', 'src/server.ts'],
      ['./fastify', 'src/fastify.ts'],
    ]);
  });
});
