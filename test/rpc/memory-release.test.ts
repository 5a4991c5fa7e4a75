// The memory releaser asks for a full collection once enough reply memory has been given back,
// but never while the server is busy: the collection stops the event loop, and every request
// waiting then would pay for it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryReleaser } from '../../src/rpc/http/memory-release.js';

describe('memory releaser', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function releaser(busy: { now: boolean }) {
    const collect = vi.fn();
    const r = new MemoryReleaser({ busy: () => busy.now, collect, thresholdBytes: 100, minIntervalMs: 1000, quietCheckMs: 50 });
    return { r, collect };
  }

  it('collects once the released bytes pass the threshold and the server is quiet', () => {
    const { r, collect } = releaser({ now: false });
    r.noteRelease(60);
    vi.advanceTimersByTime(5000);
    expect(collect).not.toHaveBeenCalled();
    r.noteRelease(60);
    vi.advanceTimersByTime(50);
    expect(collect).toHaveBeenCalledTimes(1);
    r.close();
  });

  it('waits while requests are running, then collects when they are done', () => {
    const busy = { now: true };
    const { r, collect } = releaser(busy);
    r.noteRelease(500);
    vi.advanceTimersByTime(10_000);
    expect(collect).not.toHaveBeenCalled();
    busy.now = false;
    vi.advanceTimersByTime(50);
    expect(collect).toHaveBeenCalledTimes(1);
    r.close();
  });

  it('leaves at least the minimum interval between collections', () => {
    const { r, collect } = releaser({ now: false });
    r.noteRelease(500);
    vi.advanceTimersByTime(50);
    expect(collect).toHaveBeenCalledTimes(1);
    r.noteRelease(500);
    vi.advanceTimersByTime(900);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(100);
    expect(collect).toHaveBeenCalledTimes(2);
    r.close();
  });

  it('collects thoroughly at once when the server goes idle, and counts released bytes afresh', () => {
    const collect = vi.fn();
    const collectThoroughly = vi.fn();
    const r = new MemoryReleaser({
      busy: () => false,
      collect,
      collectThoroughly,
      thresholdBytes: 100,
      minIntervalMs: 1000,
      quietCheckMs: 50,
    });
    r.noteRelease(500);
    expect(r.collectNow()).toBe(true);
    expect(collectThoroughly).toHaveBeenCalledTimes(1);
    // The collection the release had asked for is the one just run.
    vi.advanceTimersByTime(5000);
    expect(collect).not.toHaveBeenCalled();
    r.noteRelease(60);
    vi.advanceTimersByTime(5000);
    expect(collect).not.toHaveBeenCalled();
    r.close();
    expect(new MemoryReleaser({ busy: () => false, collect: null, collectThoroughly: null }).collectNow()).toBe(false);
  });

  it('does nothing when no collection can be run', () => {
    const r = new MemoryReleaser({ busy: () => false, collect: null, thresholdBytes: 1 });
    r.noteRelease(10);
    expect(vi.getTimerCount()).toBe(0);
    r.close();
  });
});

describe("V8's collection for an idle server", () => {
  it('frees the memory of buffers nothing holds any more (a dropped reply cache) before it returns', () => {
    const r = new MemoryReleaser({ busy: () => false });
    const before = process.memoryUsage().arrayBuffers;
    const cache = new Map<number, Buffer>();
    for (let i = 0; i < 16; i++) cache.set(i, Buffer.alloc(8 * 1024 * 1024, i));
    // (Less whatever garbage the allocations themselves made V8 collect.)
    expect(process.memoryUsage().arrayBuffers - before).toBeGreaterThan(100 * 1024 * 1024);
    cache.clear();
    expect(r.collectNow()).toBe(true);
    // Within 16 MiB of where it started: the 128 MiB are gone, whatever else the process allocated meanwhile.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
    r.close();
  });
});
