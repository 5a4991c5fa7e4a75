// `zecrpc import -help` names every option the import command parses, so what the docs show
// (test/docs.test.ts checks them against the same parser) can be found from the command line.
import { describe, expect, it } from 'vitest';
import { importCommand } from '../../src/cli/import.js';
import { importUsage } from '../../src/cli/usage.js';

describe('zecrpc import -help', () => {
  it('lists every --long option import parses', () => {
    const flags = importCommand().options.map((o) => o.long!);
    expect(flags).toContain('--checkpoint');
    const usage = importUsage();
    expect(flags.filter((f) => !usage.includes(f))).toEqual([]);
  });
});
