// `-dbcache=<n>` (zecrpc import and verify -repair): the coins cache's memory in MiB, read as
// zcashd reads it (atoi64, then 4 to 16384, a value outside taken as the nearer bound: it never
// fails), and taken only by the commands that import.
import { describe, expect, it } from 'vitest';
import { checkOptions } from '../../src/cli/options.js';
import { openStoreOrExplain } from '../../src/cli/store-open.js';
import { dbcacheBytesOption, loadNodeConfig, parseZcashArgs } from '../../src/config.js';
import { tempDir } from '../support/store.js';

const MIB = 1024 * 1024;
const arg = (value: string | undefined) => ({ getArg: (name: string) => (name === 'dbcache' ? value : undefined) });

describe('-dbcache', () => {
  it("defaults to zcashd's 450 MiB and keeps a value within 4–16384", () => {
    expect(dbcacheBytesOption(arg(undefined))).toBe(450 * MIB);
    expect(dbcacheBytesOption(arg('100'))).toBe(100 * MIB);
    expect(dbcacheBytesOption(arg(' 16384 '))).toBe(16384 * MIB);
  });

  it('takes a value outside the range as the nearer bound, as zcashd does', () => {
    expect(dbcacheBytesOption(arg('0'))).toBe(4 * MIB);
    expect(dbcacheBytesOption(arg('-5'))).toBe(4 * MIB);
    expect(dbcacheBytesOption(arg('99999999999999999999'))).toBe(16384 * MIB);
  });

  it("reads what is no plain integer as zcashd's atoi64 does: its leading digits, else 0", () => {
    expect(dbcacheBytesOption(arg('450M'))).toBe(450 * MIB);
    expect(dbcacheBytesOption(arg('+100'))).toBe(100 * MIB);
    expect(dbcacheBytesOption(arg('1.5'))).toBe(4 * MIB); // 1, below the least
    expect(dbcacheBytesOption(arg('1e3'))).toBe(4 * MIB);
    expect(dbcacheBytesOption(arg('0x10'))).toBe(4 * MIB);
    expect(dbcacheBytesOption(arg('lots'))).toBe(4 * MIB);
    expect(dbcacheBytesOption(arg(''))).toBe(4 * MIB); // a bare -dbcache
  });

  it('is an option of import and verify, not of serve', () => {
    const opts = parseZcashArgs(['-dbcache=100']).options;
    expect(() => checkOptions(opts, 'import')).not.toThrow();
    expect(() => checkOptions(opts, 'verify')).not.toThrow();
    expect(() => checkOptions(opts, 'serve')).toThrow(
      'zecrpc serve does not take -dbcache (it is an option of zecrpc import and zecrpc verify)',
    );
  });

  it("bounds the store's coins cache when a command opens it to import (group commit), and only then", async () => {
    const dir = tempDir('dbcache');
    try {
      const config = loadNodeConfig([`-datadir=${dir.path}`, '-regtest', '-dbcache=64']);
      const importing = await openStoreOrExplain(config, { groupCommit: true, writes: true });
      expect(importing.coinCache.limitBytes).toBe(64 * MIB);
      await importing.close();
      const serving = await openStoreOrExplain(config);
      expect(serving.coinCache.limitBytes).toBe(0);
      await serving.close();
    } finally {
      dir.remove();
    }
  });
});
