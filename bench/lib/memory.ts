/**
 * Memory measurements shared by the benches that weigh a reservation against what it covers
 * (insight-memory.ts, request-memory.ts): each case runs in a fresh child process, where the
 * heap and the kernel's high-water mark hold nothing of the cases before it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { childNodeArgs } from './bench-child.js';
import { exposeGc } from '../../src/rpc/http/memory-release.js';

/**
 * Heap and buffer memory in use once everything unreferenced is collected: full collections
 * with turns of the event loop between them, so buffers freed by one (released after it) are gone.
 */
export async function settledMemory(): Promise<number> {
  const collect = exposeGc();
  if (!collect) throw new Error('cannot expose the garbage collector');
  for (let i = 0; i < 3; i++) {
    collect();
    await new Promise((r) => setImmediate(r));
  }
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** A line of /proc/self/status, in bytes (its values are in kB). */
function procStatusBytes(field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
  if (!m) throw new Error(`no ${field} in /proc/self/status`);
  return Number(m[1]) * 1024;
}

/**
 * Sets the kernel's high-water mark of resident memory back to what is resident now (Linux ≥ 4.0:
 * "5" written to clear_refs), so the mark read after a call is that call's peak, not an earlier
 * one's; returns what is resident.
 */
export function resetPeakResident(): number {
  writeFileSync('/proc/self/clear_refs', '5');
  return procStatusBytes('VmRSS');
}

export const peakResident = (): number => procStatusBytes('VmHWM');

/**
 * Runs `file` (a bench, under tsx) in a child process with `env` added, and returns the JSON its
 * last line of output prints; `label` names the case in the error when the child fails.
 */
export function measureInChild<T>(file: string, env: Record<string, string>, args: readonly string[], label: string): T {
  const child = spawnSync(process.execPath, [...childNodeArgs(), file, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`${label}: the measuring process failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as T;
}
