import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { busyShare, machineTicks, parseMachineTicks } from '../../bench/lib/process-cpu.js';
import {
  addressOutputs,
  addressTextMicros,
  boundRounds,
  describeBound,
  describeLoopBound,
  LOOP_NOT_MEASURABLE,
  NOT_MEASURABLE,
  oneLoopBound,
  sha256dBlocks,
  sha256BlockMicros,
  throughputBound,
} from '../../bench/lib/throughput-bound.js';
import { largeTransactions } from '../../bench/lib/large-transactions.js';

describe('one-event-loop bound', () => {
  it('is a second of the event loop over its CPU a request', () => {
    expect(oneLoopBound(100)).toBe(10_000);
    expect(oneLoopBound(250)).toBe(4_000);
    expect(() => oneLoopBound(0)).toThrow(/event loop/);
  });

  it('counts SHA-256d’s compressions: the padded message’s blocks and one for the digest', () => {
    // 55 bytes + 1 + 8 fit one block; 56 need two.
    expect(sha256dBlocks(0)).toBe(2);
    expect(sha256dBlocks(55)).toBe(2);
    expect(sha256dBlocks(56)).toBe(3);
    expect(sha256dBlocks(119)).toBe(3);
    expect(sha256dBlocks(120)).toBe(4);
    // main-106598#40: 66,017 bytes → 1,032 blocks and the digest's.
    expect(sha256dBlocks(66_017)).toBe(1_033);
    for (const n of [0, 1, 55, 56, 63, 64, 119, 120, 66_017]) {
      // The padded message is n + 9 bytes (0x80 and the 8-byte length) rounded up to 64.
      expect(sha256dBlocks(n) - 1).toBe(Math.ceil((n + 9) / 64));
    }
    expect(() => sha256dBlocks(-1)).toThrow();
    expect(() => sha256dBlocks(1.5)).toThrow();
  });

  it('describes each round as a share of that round’s ceiling, with the txid check added when asked', () => {
    const rounds = [
      { ceilingRate: 10_000, floorLoopCpu: 100 }, // 10,000 req/s: 100 %
      { ceilingRate: 16_000, floorLoopCpu: 125 }, // 8,000: 50 %
      { ceilingRate: 8_000, floorLoopCpu: 200 }, // 5,000: 62.5 %
    ];
    expect(describeLoopBound(rounds, 0, 0.05)).toBe(
      "one event loop: the render floor's 125 µs a request, at most 8,000 req/s = 62.5 % (50.0–100.0) of the ceiling",
    );
    // 66,017 bytes: 1,033 blocks × 0.05 µs = 51.65 µs more: 1e6 ÷ 151.65, 176.65, 251.65 = 6,594, 5,661, 3,974 req/s.
    expect(describeLoopBound(rounds, 66_017, 0.05)).toBe(
      "one event loop: the render floor's 125 µs a request, at most 8,000 req/s = 62.5 % (50.0–100.0) of the ceiling; " +
        'with the txid check of what is read (SHA-256d of the transaction, 66,017 bytes on average: 51.7 µs at 0.0500 µs a SHA-256 block): ' +
        '5,661 req/s = 49.7 % (35.4–65.9) of the ceiling',
    );
  });

  it('adds the address checksums of a server that does not memoize addresses, after the txid check when there is one', () => {
    const rounds = [
      { ceilingRate: 10_000, floorLoopCpu: 100 },
      { ceilingRate: 16_000, floorLoopCpu: 125 },
      { ceilingRate: 8_000, floorLoopCpu: 200 },
    ];
    // 1,500 addresses × 2 compressions × 0.05 µs = 150 µs more: 1e6 ÷ 250, 275, 350 = 4,000, 3,636, 2,857 req/s.
    expect(describeLoopBound(rounds, 0, 0.05, 1_500)).toBe(
      "one event loop: the render floor's 125 µs a request, at most 8,000 req/s = 62.5 % (50.0–100.0) of the ceiling; " +
        'with 1,500 address checksums (150.0 µs at 0.0500 µs a SHA-256 block), for a server that does not memoize addresses: 3,636 req/s = 35.7 % (22.7–40.0) of the ceiling',
    );
    expect(describeLoopBound(rounds, 66_017, 0.05, 1)).toMatch(
      /51\.7 µs at 0\.0500 µs a SHA-256 block\): 5,661 req\/s = 49\.7 % \(35\.4–65\.9\) of the ceiling; with 1 address checksum \(0\.1 µs at 0\.0500 µs a SHA-256 block\)/,
    );
  });

  it('adds the addresses with their Base58 at this checkout’s fastest rate as a term of its own', () => {
    const rounds = [{ ceilingRate: 10_000, floorLoopCpu: 100 }];
    // 1,500 × 0.1 µs = 150 µs: 1e6 ÷ 250 = 4,000 req/s; the checksums alone 1,500 × 2 × 0.05 = 150 µs too.
    expect(describeLoopBound(rounds, 0, 0.05, 1_500, 0.1)).toBe(
      "one event loop: the render floor's 100 µs a request, at most 10,000 req/s = 100.0 % (100.0–100.0) of the ceiling; " +
        'with 1,500 address checksums (150.0 µs at 0.0500 µs a SHA-256 block), for a server that does not memoize addresses: 4,000 req/s = 40.0 % (40.0–40.0) of the ceiling; ' +
        "with them and their Base58 at this checkout's fastest instead (batched in WebAssembly, 0.1000 µs an address: 150.0 µs): 4,000 req/s = 40.0 % (40.0–40.0) of the ceiling",
    );
    // No addresses, or no module: no such term.
    expect(describeLoopBound(rounds, 0, 0.05, 0, 0.1)).not.toContain('Base58');
    expect(describeLoopBound(rounds, 0, 0.05, 1_500, null)).not.toContain('Base58');
  });

  it('times an address’s text per address over whole batches, the least of its rounds', () => {
    // A scripted clock: the rounds take 2,048, 1,024 and 4,096 µs for 10 batches of 1,024 addresses.
    const readings = [0, 2_048, 0, 1_024, 0, 4_096];
    expect(addressTextMicros(3, 10, () => readings.shift()!)).toBeCloseTo(0.1, 12);
    const real = addressTextMicros(1, 2);
    expect(real).not.toBeNull();
    expect(real!).toBeGreaterThanOrEqual(0);
  });

  it('says a round without an event-loop reading is not measurable', () => {
    expect(describeLoopBound([{ ceilingRate: 10_000, floorLoopCpu: 0 }], 0, 0.05)).toBe(LOOP_NOT_MEASURABLE);
    expect(describeLoopBound([{ ceilingRate: 0, floorLoopCpu: 100 }], 66_017, 0.05)).toBe(LOOP_NOT_MEASURABLE);
  });
});

describe('throughput bound', () => {
  it('is the cores over the CPU a request the server and its clients spend together', () => {
    expect(throughputBound(2, 150, 50)).toBe(10_000);
    expect(throughputBound(1, 1_000, 0)).toBe(1_000);
    expect(() => throughputBound(2, 0, 0)).toThrow(/CPU/);
  });

  it('describes each round as a share of that round’s ceiling, the bound for every server first, then with checksums', () => {
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
      'bound from the uncached render floor (150 µs) + clients (100 µs) on 2 cores: 10,000 req/s = 100.0 % (100.0–125.0) of the ceiling; ' +
        'with 1,000 address checksums (100.0 µs at 0.0500 µs a SHA-256 block), for a server that does not memoize addresses: ' +
        '6,667 req/s = 80.0 % (66.7–83.3) of the ceiling',
    );
    expect(describeBound(rounds, 2, 1, 0.05)).toContain('with 1 address checksum (0.1 µs');
  });

  it('says a run too short to read any CPU is not measurable instead of dividing by zero', () => {
    const measured = { ceilingRate: 10_000, floorCpu: 100, clientCpu: 100 };
    // CLK_TCK 100: a short run can read no tick for the floor and the clients alike.
    expect(describeBound([measured, { ceilingRate: 10_000, floorCpu: 0, clientCpu: 0 }], 2, 0, 0.05)).toBe(NOT_MEASURABLE);
    expect(describeBound([{ ...measured, ceilingRate: 0 }], 2, 1_500, 0.05)).toBe(NOT_MEASURABLE);
    expect(NOT_MEASURABLE).toMatch(/not measurable \(run too short\)/);
    // One of the two terms read is enough.
    expect(describeBound([{ ceilingRate: 10_000, floorCpu: 0, clientCpu: 100 }], 2, 0, 0.05)).toContain('20,000 req/s = 200.0 %');
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

  it('times a SHA-256 compression as the least CPU a 64-byte block over the rounds', () => {
    // A scripted clock: the rounds' hashes take 640, 320 and 480 µs of 1 KiB (16 blocks).
    const readings = [0, 640, 1_000, 1_320, 2_000, 2_480];
    let at = 0;
    expect(sha256BlockMicros(1_024, 3, () => readings[at++]!)).toBe(20);
    expect(at).toBe(6);
    expect(() => sha256BlockMicros(100, 1)).toThrow(/64-byte blocks/);
  });

  it('counts the outputs whose replies show an address', () => {
    const byName = new Map(largeTransactions().map((t) => [t.name, t.tx]));
    expect(addressOutputs(byName.get('main-171059#3')!)).toBe(1_500);
    const v6 = byName.get('main-3428145#3')!;
    expect(addressOutputs(v6)).toBe(v6.data.vout.length);
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
