/**
 * How many cores this process can keep busy: the CPU affinity mask (`os.availableParallelism`)
 * capped by a cgroup CPU quota. Node 20's libuv reads only the mask, so in a container limited
 * to one or two CPUs on a many-core host (`docker --cpus`, a Kubernetes CPU limit) it reports
 * the host's cores, and a pool sized from it would run more threads than the quota lets work.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Reads a small system file, undefined when it is absent or unreadable. */
export type ReadSystemFile = (path: string) => string | undefined;

const readSystemFile: ReadSystemFile = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * The CPU quota of this process's cgroup and its ancestors, in cores (1.5: one and a half
 * cores' time each period), or undefined without one. cgroup v2 (`cpu.max`: "quota period" or
 * "max period") and v1 (`cpu.cfs_quota_us`, -1 for none, over `cpu.cfs_period_us`); the
 * smallest limit on the way up to the root holds.
 */
export function cgroupCpuQuota(read: ReadSystemFile = readSystemFile): number | undefined {
  const membership = read('/proc/self/cgroup');
  if (membership === undefined) return undefined;
  let limit: number | undefined;
  const tighten = (cores: number | undefined) => {
    if (cores !== undefined && (limit === undefined || cores < limit)) limit = cores;
  };
  for (const line of membership.split('\n')) {
    // "hierarchy-id:controllers:path"; the path may itself hold colons.
    const first = line.indexOf(':');
    const second = line.indexOf(':', first + 1);
    if (first < 0 || second < 0) continue;
    const controllers = line.slice(first + 1, second);
    const path = line.slice(second + 1).trim();
    if (controllers === '' && line.slice(0, first) === '0') {
      for (const dir of selfAndAncestors('/sys/fs/cgroup', path)) tighten(v2Quota(read(`${dir}/cpu.max`)));
    } else if (controllers.split(',').includes('cpu')) {
      for (const dir of selfAndAncestors(`/sys/fs/cgroup/${controllers}`, path)) {
        tighten(v1Quota(read(`${dir}/cpu.cfs_quota_us`), read(`${dir}/cpu.cfs_period_us`)));
      }
    }
  }
  return limit;
}

/** The cores a thread pool can use: at least 1, at most the affinity mask, within a cgroup quota. */
export function usableCores(read: ReadSystemFile = readSystemFile, parallelism = availableParallelism()): number {
  const quota = cgroupCpuQuota(read);
  const cores = quota === undefined ? parallelism : Math.min(parallelism, Math.ceil(quota));
  return Math.max(1, cores);
}

/** `root` joined with the cgroup path, then each parent directory up to `root` itself. */
function selfAndAncestors(root: string, path: string): string[] {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.' && p !== '..');
  const dirs: string[] = [];
  for (let n = parts.length; n >= 0; n--) dirs.push([root, ...parts.slice(0, n)].join('/'));
  return dirs;
}

function v2Quota(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const [quota, period] = text.trim().split(/\s+/);
  if (quota === undefined || quota === 'max') return undefined;
  return ratio(quota, period ?? '100000');
}

function v1Quota(quotaText: string | undefined, periodText: string | undefined): number | undefined {
  if (quotaText === undefined || periodText === undefined) return undefined;
  return ratio(quotaText.trim(), periodText.trim());
}

/** quota ÷ period for positive integers; undefined for -1 (no quota) or anything unreadable. */
function ratio(quota: string, period: string): number | undefined {
  if (!/^\d+$/.test(quota) || !/^\d+$/.test(period)) return undefined;
  const q = Number(quota);
  const p = Number(period);
  return q > 0 && p > 0 ? q / p : undefined;
}
