import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveNodeAuth } from '../../src/compare/auth.js';
import { CompareError } from '../../src/compare/errors.js';
import { locateFirstDifference } from '../../src/compare/first-difference.js';
import { selectHeights } from '../../src/compare/heights.js';
import { diffJson } from '../../src/compare/json-diff.js';
import { percentile } from '../../src/compare/latency.js';
import { parseMethodSelection } from '../../src/compare/methods.js';
import { parseJson } from '../../src/json/reader.js';

const diff = (a: string, b: string) => diffJson(parseJson(a), parseJson(b));

describe('JSON diff on number tokens and member order', () => {
  it('tells a re-formatted number from a changed one', () => {
    expect(diff('{"v":0.0005}', '{"v":0.00050000}')).toEqual([
      { kind: 'number-format', path: 'v', key: 'v', reference: '0.0005', target: '0.00050000' },
    ]);
    expect(diff('[1.0, 1e3, -0.5]', '[1, 1000, -0.50]').map((d) => d.kind)).toEqual(['number-format', 'number-format', 'number-format']);
    expect(diff('{"v":0.0005}', '{"v":0.00050001}')[0]!.kind).toBe('value');
    expect(diff('{"v":10}', '{"v":1}')[0]!.kind).toBe('value');
  });

  it('names missing members, order and array length by path', () => {
    expect(diff('{"a":{"x":[1,{"k":2}]}}', '{"a":{"x":[1,{"k":3}]}}')).toEqual([
      { kind: 'value', path: 'a.x[1].k', key: 'k', reference: '2', target: '3' },
    ]);
    expect(diff('{"a":1,"b":2}', '{"b":2,"a":1}')).toEqual([
      { kind: 'member-order', path: '', key: null, reference: 'a,b', target: 'b,a' },
    ]);
    expect(diff('{"a":1,"weird key":2}', '{"a":1,"c":[]}')).toEqual([
      { kind: 'missing-in-target', path: '["weird key"]', key: 'weird key', reference: '2' },
      { kind: 'missing-in-reference', path: 'c', key: 'c', target: '[]' },
    ]);
    expect(diff('[1,2,3]', '[1,2]')).toEqual([
      { kind: 'array-length', path: '', key: null, reference: '3 elements', target: '2 elements' },
    ]);
    expect(diff('{"a":"1"}', '{"a":1}')[0]!.kind).toBe('type');
  });
});

describe('first differing byte', () => {
  it('is found in long bodies, at a prefix end, and not at all for identical bodies', () => {
    const a = Buffer.alloc(100_000, 0x61);
    const b = Buffer.from(a);
    b[77_777] = 0x62;
    expect(locateFirstDifference(a, b)!.offset).toBe(77_777);
    expect(locateFirstDifference(a, a.subarray(0, 5000))!.offset).toBe(5000);
    expect(locateFirstDifference(a, Buffer.from(a))).toBeNull();
    const small = locateFirstDifference(Buffer.from('{"size":1617}\n'), Buffer.from('{"size":1618}\n'), 4)!;
    expect(small).toMatchObject({ offset: 11, referenceExcerpt: '…:161⟦7⟧}\\n', targetExcerpt: '…:161⟦8⟧}\\n' });
  });
});

describe('method selection, heights and percentiles', () => {
  it('reads variants after a method name, with defaults for methods given bare', () => {
    expect(parseMethodSelection('getblock:0,1,2,decoderawtransaction,getblockheader')).toEqual([
      { method: 'getblock', scope: 'height', variants: [0, 1, 2] },
      { method: 'decoderawtransaction', scope: 'transaction', variants: [] },
      { method: 'getblockheader', scope: 'height', variants: [true, false] },
    ]);
    expect(() => parseMethodSelection('getblock:0,z_sendmany')).toThrow(/unknown method 'z_sendmany'/);
    expect(() => parseMethodSelection('decoderawtransaction:1')).toThrow(/bad variant/);
  });

  it('samples distinct heights reproducibly, and all of them when asked for more', () => {
    const a = selectHeights({ kind: 'sample', count: 50, seed: 3 }, 999);
    expect(new Set(a).size).toBe(50);
    expect(a).toEqual([...a].sort((x, y) => x - y));
    expect(selectHeights({ kind: 'sample', count: 50, seed: 3 }, 999)).toEqual(a);
    expect(selectHeights({ kind: 'sample', count: 50, seed: 4 }, 999)).not.toEqual(a);
    expect(selectHeights({ kind: 'sample', count: 50, seed: 3 }, 9)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(() => selectHeights({ kind: 'range', from: 5, to: 30 }, 20)).toThrow(/past height 20/);
  });

  it('takes nearest-rank percentiles', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(sorted, 50), percentile(sorted, 90), percentile(sorted, 99), percentile(sorted, 100)]).toEqual([50, 90, 99, 100]);
    expect(percentile([7], 99)).toBe(7);
  });
});

describe('node credentials', () => {
  const url = new URL('http://127.0.0.1:8232/');
  const dir = mkdtempSync(join(tmpdir(), 'zecrpc-compare-auth-'));

  it('reads a cookie file, and refuses one that never ends after 64 KiB', () => {
    const cookie = join(dir, '.cookie');
    writeFileSync(cookie, '__cookie__:c00k1e');
    expect(resolveNodeAuth(url, { cookieFile: cookie }, 'reference')).toEqual({
      header: 'Basic ' + Buffer.from('__cookie__:c00k1e').toString('base64'),
      source: `cookie ${cookie}`,
    });
    if (!existsSync('/dev/zero')) return;
    expect(() => resolveNodeAuth(url, { cookieFile: '/dev/zero' }, 'reference')).toThrow(
      new CompareError(
        'reference: cannot read the cookie file /dev/zero (/dev/zero is larger than 65536 bytes, too large for an RPC cookie file)',
      ),
    );
    expect(() => resolveNodeAuth(url, { confFile: '/dev/zero' }, 'target')).toThrow(
      new CompareError('target: cannot read /dev/zero (/dev/zero is larger than 16777216 bytes, too large for a configuration file)'),
    );
  });
});
