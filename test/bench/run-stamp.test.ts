import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { revision, runStarted, utc } from '../../bench/lib/run-stamp.js';

describe('run stamp', () => {
  it('names the checkout’s commit, and none outside a checkout', () => {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    expect(revision(process.cwd())).toMatch(new RegExp(`^${head}( with uncommitted changes)?$`));
    const dir = mkdtempSync(join(tmpdir(), 'zecrpc-run-stamp-'));
    try {
      expect(revision(dir)).toBe('no git commit');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives the time to the second in UTC and the run’s arguments', () => {
    expect(utc(new Date(Date.UTC(2026, 10, 30, 7, 55, 7, 900)))).toBe('2026-11-30 07:55:07 UTC');
    expect(runStarted(process.cwd(), ['--only=decoderawtransaction main-171059#3', '--rounds=9'])).toMatch(
      /^run started \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC at [0-9a-f]{7,}.*: --only=decoderawtransaction main-171059#3 --rounds=9$/,
    );
    expect(runStarted(process.cwd(), [])).toMatch(/: \(no arguments\)$/);
  });
});
