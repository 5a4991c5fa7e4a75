import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { busyShare, machineTicks, parseMachineTicks } from '../../bench/lib/process-cpu.js';
import {
  boundRounds,
  describeBound,
  describeLoopBound,
  LOOP_NOT_MEASURABLE,
  NOT_MEASURABLE,
  oneLoopBound,
  throughputBound,
} from '../../bench/lib/throughput-bound.js';

describe('one-event-loop bound', () => {
  it('is a second of the event loop over its CPU a request', () => {
    expect(oneLoopBound(100)).toBe(10_000);
    expect(oneLoopBound(250)).toBe(4_000);
    expect(() => oneLoopBound(0)).toThrow(/event loop/);
  });

  it('describes each round as a share of that round’s ceiling', () => {
    const rounds = [
      { ceilingRate: 10_000, floorLoopCpu: 100 }, // 10,000 req/s: 100 %
      { ceilingRate: 16_000, floorLoopCpu: 125 }, // 8,000: 50 %
      { ceilingRate: 8_000, floorLoopCpu: 200 }, // 5,000: 62.5 %
    ];
    expect(describeLoopBound(rounds)).toBe(
      "one event loop: the render floor's 125 µs a request, at most 8,000 req/s = 62.5 % (50.0–100.0) of the ceiling",
    );
  });

  it('says a round without an event-loop reading or a ceiling is not measurable', () => {
    expect(describeLoopBound([{ ceilingRate: 0, floorLoopCpu: 100 }])).toBe(LOOP_NOT_MEASURABLE);
    expect(describeLoopBound([{ ceilingRate: 10_000, floorLoopCpu: 0 }])).toBe(LOOP_NOT_MEASURABLE);
  });
});

describe('throughput bound', () => {
  it('is the cores over the CPU a request the server and its clients spend together', () => {
    expect(throughputBound(2, 150, 50)).toBe(10_000);
    expect(throughputBound(1, 1_000, 0)).toBe(1_000);
    expect(() => throughputBound(2, 0, 0)).toThrow(/CPU/);
  });

  it('describes each round as a share of that round’s ceiling', () => {
    const rounds = [
      { ceilingRate: 10_000, floorCpu: 100, clientCpu: 100 }, // 10,000 req/s
      { ceilingRate: 5_000, floorCpu: 300, clientCpu: 100 }, // 5,000
      { ceilingRate: 8_000, floorCpu: 150, clientCpu: 50 }, // 10,000
    ];
    expect(describeBound(rounds, 2)).toBe(
      'bound from the uncached render floor (150 µs) + clients (100 µs) on 2 cores: 10,000 req/s = 100.0 % (100.0–125.0) of the ceiling',
    );
  });

  it('says a run too short to read any CPU is not measurable instead of dividing by zero', () => {
    const measured = { ceilingRate: 10_000, floorCpu: 100, clientCpu: 100 };
    // CLK_TCK 100: a short run can read no tick for the floor and the clients alike.
    expect(describeBound([measured, { ceilingRate: 10_000, floorCpu: 0, clientCpu: 0 }], 2)).toBe(NOT_MEASURABLE);
    expect(describeBound([{ ...measured, ceilingRate: 0 }], 2)).toBe(NOT_MEASURABLE);
    expect(NOT_MEASURABLE).toMatch(/not measurable \(run too short\)/);
    // One of the two terms read is enough.
    expect(describeBound([{ ceilingRate: 10_000, floorCpu: 0, clientCpu: 100 }], 2)).toContain('20,000 req/s = 200.0 %');
  });

  it('pairs each round’s ceiling with that round’s floor and the least clients’ CPU over its targets', () => {
    // Targets: ceiling, a floor, a server; round 1's least is the server's, round 2's the floor's.
    const rounds = boundRounds(
      [4_000, 6_000, 5_000],
      [200, 300, 250],
      [
        [90, 80, 70],
        [95, 60, 75],
        [85, 85, 72],
      ],
    );
    expect(rounds).toEqual([
      { ceilingRate: 4_000, floorCpu: 200, clientCpu: 85 },
      { ceilingRate: 6_000, floorCpu: 300, clientCpu: 60 },
      { ceilingRate: 5_000, floorCpu: 250, clientCpu: 70 },
    ]);
    expect(() => boundRounds([4_000, 6_000], [200, 300], [[90, 80], [95]])).toThrow(/one figure a round/);
  });

  it('counts user, nice, system, irq, softirq and steal ticks busy, idle and iowait not, guest time within user', () => {
    // Each field a distinct power of two, so any field counted wrongly changes the sums.
    const line = 'cpu  1 2 4 8 16 32 64 128 256 512';
    expect(parseMachineTicks(line)).toEqual({ busy: 1 + 2 + 4 + 32 + 64 + 128, total: 1 + 2 + 4 + 8 + 16 + 32 + 64 + 128 });
    expect(() => parseMachineTicks('cpu0 1 2 4 8 16 32 64 128')).toThrow(/cpu line/);
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
