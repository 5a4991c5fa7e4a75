// Latency as the HTTP benches record it: nearest-rank percentiles over every request, printed at
// the resolution measured (microseconds), and read back from the suites' lines.
import { describe, expect, it } from 'vitest';
import { rotated } from '../../bench/lib/interleaved.js';
import { describeLatency, formatLatency, LATENCY_PATTERN, nearestRank, summariseNanos } from '../../bench/lib/latency.js';
import { parseCell } from '../../bench/lib/parsers-http.js';
import { PARSERS } from '../../bench/lib/parsers.js';

describe('latency percentiles', () => {
  it('takes the nearest rank: the smallest value with at least p % at or below it', () => {
    const hundred = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect([50, 90, 99, 100].map((p) => nearestRank(hundred, p))).toEqual([50, 90, 99, 100]);
    // 10 samples: p99 is the largest, p90 the ninth, p50 the fifth.
    const ten = Float64Array.from({ length: 10 }, (_, i) => (i + 1) * 10);
    expect([50, 90, 99].map((p) => nearestRank(ten, p))).toEqual([50, 90, 100]);
    expect(nearestRank([7], 1)).toBe(7);
    expect(() => nearestRank([], 50)).toThrow('no samples');
    expect(() => nearestRank([1], 0)).toThrow('not in (0, 100]');
  });

  it('pools every round before taking percentiles, and reports milliseconds from nanoseconds', () => {
    // Round one fast (0.1–1.0 ms), round two slow (10 ms each): the slow round owns the tail.
    const fast = Float64Array.from({ length: 10 }, (_, i) => (i + 1) * 100_000);
    const slow = Float64Array.from({ length: 10 }, () => 10_000_000);
    const s = summariseNanos([fast, slow]);
    expect(s).toEqual({ count: 20, p50: 1, p90: 10, p99: 10 });
    // Unsorted input, sub-millisecond values kept to the nanosecond.
    expect(summariseNanos([Float64Array.of(2_500, 1_234, 999_999)])).toEqual({ count: 3, p50: 0.0025, p90: 0.999999, p99: 0.999999 });
  });

  it('prints what the parsers read back, microseconds included', () => {
    const line = describeLatency({ count: 12345, p50: 0.2144, p90: 0.35, p99: 12.3456 });
    expect(line).toBe('p50 0.214 p90 0.350 p99 12.346 ms, 12345 requests');
    expect(new RegExp(LATENCY_PATTERN).exec(line)!.slice(1)).toEqual(['0.214', '0.350', '12.346', '12345']);
  });

  it('formats a latency at its resolution: sub-millisecond values as such, never 0.00', () => {
    expect(formatLatency(0.2144, 0.001)).toBe('0.214 ms');
    expect(formatLatency(0.0421, 0.001)).toBe('0.042 ms');
    expect(formatLatency(0.0004, 0.001)).toBe('< 0.001 ms');
    expect(formatLatency(3.14159, 0.001)).toBe('3.14 ms');
    expect(formatLatency(26.61, 0.001)).toBe('26.6 ms');
    expect(formatLatency(882.4, 0.001)).toBe('882 ms');
    expect(formatLatency(1234.5, 0.001)).toBe('1,235 ms');
    // autocannon's whole milliseconds (older results).
    expect(formatLatency(0, 1)).toBe('< 1 ms');
    expect(formatLatency(7, 1)).toBe('7 ms');
  });
});

describe('interleaved rounds', () => {
  it('rotates the targets: each starts one round in turn', () => {
    const t = ['ceiling', 'cached', 'uncached'];
    expect([0, 1, 2, 3].map((r) => rotated(t, r))).toEqual([
      ['ceiling', 'cached', 'uncached'],
      ['cached', 'uncached', 'ceiling'],
      ['uncached', 'ceiling', 'cached'],
      ['ceiling', 'cached', 'uncached'],
    ]);
  });

  it('reads a printed cell back per target', () => {
    const cell = parseCell(
      'ceiling 614 req/s p50 1.104 p90 2.970 p99 3.902 ms, 14000 requests, server CPU 61 µs/req | ' +
        'zecrpc 101 req/s p50 5.511 p90 32.021 p99 32.021 ms, 10200 requests = 16.5 % (16.0–17.5) | load 17.90',
    )!;
    expect([...cell.keys()]).toEqual(['ceiling', 'zecrpc']);
    expect(cell.get('ceiling')).toEqual({
      rate: 614,
      latency: { p50: 1.104, p90: 2.97, p99: 3.902, count: 14000 },
      cpuMicros: 61,
      percent: null,
    });
    expect(cell.get('zecrpc')).toMatchObject({ rate: 101, cpuMicros: null, percent: 16.5, latency: { count: 10200 } });
    expect(parseCell('zecrpc 101 req/s p99 5 ms')).toBeNull();
  });

  it('reads the address index’s HTTP line as printed now: its store named, the rates read past the percentiles', () => {
    const figs = PARSERS['address-index']!(
      'getaddresstxids over HTTP, 10 conn, address with 1000 index entries (86 unspent), served from LevelDB, 5 interleaved rounds: ' +
        'ceiling 42164 req/s p50 0.101 p90 0.180 p99 0.702 ms, 30000 requests, server CPU 22 µs/req | ' +
        'zecrpc 595 req/s p50 15.200 p90 20.100 p99 27.300 ms, 2975 requests, server CPU 1610 µs/req = 1.4 % (1.3–1.5) | load 1.27',
    );
    expect(figs.map((f) => [f.name, f.value, f.baseline?.value])).toEqual([
      ['getaddresstxids over HTTP, LevelDB store, 10 conn, 1,000 index entries', 595, 42164],
    ]);
    // The printed median of the per-round ratios.
    expect(figs[0]!.ratio).toBeCloseTo(0.014, 10);
  });
});
