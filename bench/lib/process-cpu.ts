/**
 * Another process's CPU time (user + system), from the kernel's accounting in /proc/<pid>/stat:
 * the counters process.cpuUsage() reads inside that process, read from outside, so a server of
 * any revision can be measured without changing it. Linux only; the clock tick (10 ms at
 * CLK_TCK 100) is why runs measured this way should cost a second of CPU or more.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { usableCores } from '../../src/workers/usable-cores.js';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** CPU µs `pid` (or its thread `tid`) has used so far. */
export function processCpuMicros(pid: number, tid?: number): number {
  const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / TICKS_PER_SECOND;
}

/**
 * CPU µs the processes `pids` (a server and the workers it answers from, cluster-workers.ts) have
 * used so far; with `mainThreads`, each one's main thread (its event loop) only. Throws when one
 * has ended: its time would drop out of a reading.
 */
export function processesCpuMicros(pids: readonly number[], mainThreads = false): number {
  return pids.reduce((sum, p) => sum + processCpuMicros(p, mainThreads ? p : undefined), 0);
}

/**
 * CPU µs this process's main thread has used so far (its task's line in /proc): the JavaScript
 * thread that validates and connects blocks, without LevelDB's writer and compaction threads,
 * the worker threads and the garbage collector's helpers, which process.cpuUsage() also counts.
 */
export function mainThreadCpuMicros(): number {
  return processCpuMicros(process.pid, process.pid);
}

/** This process's threads (task ids in /proc); Node names none of them, so they are told apart by when they started. */
export function threadIds(): number[] {
  return readdirSync('/proc/self/task').map(Number);
}

/**
 * CPU µs the threads `tids` of this process have used so far. Throws when one has ended: its time
 * would drop out of a reading.
 */
export function threadsCpuMicros(tids: Iterable<number>): number {
  let sum = 0;
  for (const tid of tids) sum += processCpuMicros(process.pid, tid);
  return sum;
}

/** The whole machine's CPU time, in clock ticks over every core, from the first line of /proc/stat. */
export interface MachineTicks {
  /** Ticks spent on anything: user, nice, system, interrupts, softirqs, steal (guest time is within user). */
  busy: number;
  /** Busy plus idle and I/O wait. */
  total: number;
}

export function machineTicks(): MachineTicks {
  return parseMachineTicks(readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!);
}

/** The ticks of /proc/stat's first line ("cpu  user nice system idle iowait irq softirq steal guest guest_nice"). */
export function parseMachineTicks(line: string): MachineTicks {
  const fields = line.trim().split(/\s+/);
  if (fields[0] !== 'cpu' || fields.length < 9) throw new Error(`not /proc/stat's cpu line: ${line}`);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.slice(1, 9).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/** The share of every core's time, 0..1, the machine was busy between two readings. */
export const busyShare = (before: MachineTicks, after: MachineTicks): number =>
  after.total === before.total ? 0 : (after.busy - before.busy) / (after.total - before.total);

/**
 * Cores this process may run on: the CPU seconds the machine has each second, the affinity mask
 * within a cgroup CPU quota (src/workers/usable-cores.ts). /proc/stat still counts the whole
 * host: on a host with more cores than the mask or the quota allows, the machine's busy share
 * and these cores disagree.
 */
export const CORES = usableCores();
