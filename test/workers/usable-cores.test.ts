import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { cgroupCpuQuota, usableCores, type ReadSystemFile } from '../../src/workers/usable-cores.js';

/** A file system holding only these files. */
const files =
  (entries: Record<string, string>): ReadSystemFile =>
  (path) =>
    entries[path];

describe('cgroup CPU quota', () => {
  it('cgroup v2: cpu.max of the process cgroup, "max" meaning none', () => {
    const v2 = (max: string) => files({ '/proc/self/cgroup': '0::/docker/abc\n', '/sys/fs/cgroup/docker/abc/cpu.max': max });
    expect(cgroupCpuQuota(v2('150000 100000\n'))).toBe(1.5);
    expect(cgroupCpuQuota(v2('max 100000\n'))).toBeUndefined();
    expect(usableCores(v2('150000 100000\n'), 16)).toBe(2);
    expect(usableCores(v2('50000 100000\n'), 16)).toBe(1);
    expect(usableCores(v2('max 100000\n'), 16)).toBe(16);
    // A quota above the affinity mask leaves the mask.
    expect(usableCores(v2('800000 100000\n'), 2)).toBe(2);
  });

  it('cgroup v2: a tighter limit on an ancestor, or at the namespace root, holds', () => {
    const read = files({
      '/proc/self/cgroup': '0::/kubepods/pod1/c1\n',
      '/sys/fs/cgroup/kubepods/pod1/c1/cpu.max': 'max 100000',
      '/sys/fs/cgroup/kubepods/pod1/cpu.max': '200000 100000',
      '/sys/fs/cgroup/kubepods/cpu.max': '400000 100000',
    });
    expect(cgroupCpuQuota(read)).toBe(2);
    const atRoot = files({ '/proc/self/cgroup': '0::/\n', '/sys/fs/cgroup/cpu.max': '100000 100000\n' });
    expect(usableCores(atRoot, 64)).toBe(1);
  });

  it('cgroup v1: cfs quota over period, -1 meaning none, also with cpu and cpuacct mounted together', () => {
    const v1 = (quota: string, controllers = 'cpu') =>
      files({
        '/proc/self/cgroup': `12:memory:/x\n4:${controllers}:/docker/abc\n1:name=systemd:/\n`,
        [`/sys/fs/cgroup/${controllers}/docker/abc/cpu.cfs_quota_us`]: quota,
        [`/sys/fs/cgroup/${controllers}/docker/abc/cpu.cfs_period_us`]: '100000\n',
      });
    expect(cgroupCpuQuota(v1('300000\n'))).toBe(3);
    expect(cgroupCpuQuota(v1('-1\n'))).toBeUndefined();
    expect(usableCores(v1('250000\n', 'cpu,cpuacct'), 32)).toBe(3);
    expect(usableCores(v1('-1\n', 'cpu,cpuacct'), 32)).toBe(32);
  });

  it('no cgroup files, unreadable membership or garbage: the affinity mask, never below 1', () => {
    expect(cgroupCpuQuota(files({}))).toBeUndefined();
    expect(usableCores(files({}), 8)).toBe(8);
    const garbage = files({ '/proc/self/cgroup': '0::/a\n', '/sys/fs/cgroup/a/cpu.max': 'lots 0' });
    expect(cgroupCpuQuota(garbage)).toBeUndefined();
    expect(usableCores(files({}), 0)).toBe(1);
  });

  it('on this machine: between 1 and the affinity mask', () => {
    const cores = usableCores();
    expect(cores).toBeGreaterThanOrEqual(1);
    expect(cores).toBeLessThanOrEqual(availableParallelism());
  });
});
