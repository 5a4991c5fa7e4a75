/**
 * Where a server's main thread spent its time, from the `.cpuprofile` files `node --cpu-prof`
 * wrote (bench/front-end.ts `--profile=DIR` writes one folder per server): self and inclusive
 * shares per function, over the samples of the serving window.
 *
 *   npx tsx bench/cpu-profile-summary.ts DIR [--skip=0.2] [--top=40]
 *
 * The main thread's profile is the one whose name has thread id 0. Left out: idle and
 * `(program)` samples, `writev` (a process descheduled inside the socket write shows there under
 * load; its process CPU time is what it really costs), the first `--skip` of the samples (JIT
 * warm-up), and samples under module loading or the server's start.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { numberFlag, positional } from './lib/measure.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
}

const LEFT_OUT = new Set(['(idle)', '(program)', 'writev']);
/** Frames under which a sample belongs to loading or starting, not to serving. */
const STARTUP = new Set(['evaluate', 'Module._load', 'startRpcServer', 'link', 'instantiate']);
const STARTUP_URL = /internal\/modules\//;

function mainThreadProfile(dir: string): CpuProfile {
  const name = readdirSync(dir).find((f) => /\.0\.\d+\.cpuprofile$/.test(f));
  if (!name) throw new Error(`no main-thread .cpuprofile in ${dir}`);
  return JSON.parse(readFileSync(join(dir, name), 'utf8')) as CpuProfile;
}

const frameName = (n: ProfileNode): string =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;

/** Self and inclusive sample counts per function over the serving window, and the window's sample count. */
export function summarize(profile: CpuProfile, skip: number): { total: number; self: Map<string, number>; inclusive: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  sample: for (let i = Math.floor(profile.samples.length * skip); i < profile.samples.length; i++) {
    const leaf = byId.get(profile.samples[i]!)!;
    if (LEFT_OUT.has(leaf.callFrame.functionName)) continue;
    const stack: ProfileNode[] = [];
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id)!;
      if (STARTUP.has(n.callFrame.functionName) || STARTUP_URL.test(n.callFrame.url)) continue sample;
      stack.push(n);
    }
    total++;
    self.set(frameName(leaf), (self.get(frameName(leaf)) ?? 0) + 1);
    // A recursive function counts once per sample.
    for (const name of new Set(stack.map(frameName))) inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
  }
  return { total, self, inclusive };
}

function main(): void {
  const [dir] = positional();
  if (!dir) throw new Error('usage: npx tsx bench/cpu-profile-summary.ts DIR [--skip=0.2] [--top=40]');
  const top = numberFlag('top', 40);
  const { total, self, inclusive } = summarize(mainThreadProfile(dir), numberFlag('skip', 0.2));
  const share = (n: number) => `${((100 * n) / total).toFixed(1).padStart(5)} %`;
  const ranked = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  console.log(`${dir}: ${total} samples in the serving window`);
  console.log('self:');
  for (const [name, n] of ranked(self)) console.log(`${share(n)}  ${name}`);
  console.log('inclusive:');
  for (const [name, n] of ranked(inclusive)) console.log(`${share(n)}  ${name}`);
}

main();
