import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { busyShare, machineTicks } from '../../bench/lib/process-cpu.js';
import { addressOutputs, describeBound, throughputBound } from '../../bench/lib/throughput-bound.js';
import { largeTransactions } from '../../bench/lib/large-transactions.js';

describe('throughput bound', () => {
  it('is the cores over the CPU a request the server and its clients spend together', () => {
    expect(throughputBound(2, 150, 50)).toBe(10_000);
    expect(throughputBound(1, 1_000, 0)).toBe(1_000);
    expect(() => throughputBound(2, 0, 0)).toThrow(/CPU/);
  });

  it('describes each round as a share of that round’s ceiling, checksums added to the floor', () => {
    const rounds = [
      { ceilingRate: 10_000, floorCpu: 100, clientCpu: 100 }, // 10,000 req/s without checksums
      { ceilingRate: 5_000, floorCpu: 300, clientCpu: 100 }, // 5,000
      { ceilingRate: 8_000, floorCpu: 150, clientCpu: 50 }, // 10,000
    ];
    expect(describeBound(rounds, 2, 0, 0.05)).toBe(
      'bound from the uncached render floor (150 µs) + clients (100 µs) on 2 cores: 10,000 req/s = 100.0 % (100.0–125.0) of the ceiling',
    );
    // 1,000 addresses × 2 compressions × 0.05 µs = 100 µs more a request: 6,667, 4,000 and 6,667 req/s.
    expect(describeBound(rounds, 2, 1_000, 0.05)).toBe(
      'bound from the uncached render floor (150 µs) + clients (100 µs) + 1,000 address checksums (100.0 µs at 0.0500 µs a SHA-256 block) ' +
        'on 2 cores: 6,667 req/s = 80.0 % (66.7–83.3) of the ceiling; without the checksums 10,000 req/s = 100.0 % (100.0–125.0) of the ceiling',
    );
  });

  it('counts the outputs whose replies show an address', () => {
    const byName = new Map(largeTransactions().map((t) => [t.name, t.tx]));
    expect(addressOutputs(byName.get('main-171059#3')!)).toBe(1_500);
    const v6 = byName.get('main-3428145#3')!;
    expect(addressOutputs(v6)).toBe(v6.data.vout.length);
  });

  it('reads the machine’s busy share from /proc/stat', () => {
    const before = machineTicks();
    expect(before.total).toBeGreaterThanOrEqual(before.busy);
    // Work on this thread until the machine's busy ticks move.
    const data = Buffer.alloc(1 << 20);
    let after = machineTicks();
    while (after.busy === before.busy) {
      createHash('sha256').update(data).digest();
      after = machineTicks();
    }
    const share = busyShare(before, after);
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThanOrEqual(1);
    expect(busyShare(before, before)).toBe(0);
  });
});
