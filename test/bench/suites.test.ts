// `npm run bench` runs every file in bench/ as a suite unless bench/lib/suites.ts says otherwise:
// a file that stops with its usage when given no arguments would fail every full run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSuites, NOT_SUITES } from '../../bench/lib/suites.js';

const BENCH = join(import.meta.dirname, '..', '..', 'bench');
const NEEDS_ARGUMENTS = /console\.error\(\s*['`"]usage:/;

describe('bench suites', () => {
  it('runs no file that needs arguments without giving it some', () => {
    for (const quick of [false, true]) {
      const bare = discoverSuites(BENCH, quick).filter((s) => s.args.length === 0);
      const needing = bare.filter((s) => NEEDS_ARGUMENTS.test(readFileSync(join(BENCH, '..', s.file), 'utf8'))).map((s) => s.suite);
      expect(needing).toEqual([]);
    }
  });

  it('keeps the hand-run tools out, each with its reason', () => {
    const suites = discoverSuites(BENCH, false).map((s) => s.suite);
    for (const [tool, reason] of Object.entries(NOT_SUITES)) {
      expect(suites).not.toContain(tool);
      expect(reason.length).toBeGreaterThan(10);
    }
    expect(Object.keys(NOT_SUITES)).toEqual(
      expect.arrayContaining(['coin-reads', 'coins-cache', 'growth-mix-posthoc', 'import-contiguous']),
    );
  });
});
