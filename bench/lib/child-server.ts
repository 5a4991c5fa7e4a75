/**
 * Servers under measurement run in child processes, apart from the load generator (in
 * processes of its own, bench/lib/load-generator.ts): a server sharing its process with the
 * generator competes with it for the event loop, which drags every ratio toward 100 %. Same
 * approach as the hostile-load runs (test/long/stress/run.ts): the child prints `PORT <n>` once
 * listening and exits on SIGTERM, and on its parent's death (bench/lib/exit-with-parent.ts, over
 * the IPC channel it is given).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VECTORS_DIR } from '../../test/support/vectors.js';
import { childNodeArgs } from './bench-child.js';

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface ChildServer {
  port: number;
  pid: number;
  /** The processes it answers from besides `pid`, when it prints them (cluster-workers.ts). */
  workers: number[];
  /** Its render threads' ids in /proc/<pid>/task, when it prints them (render-floor-server.ts' FLOOR_THREADS). */
  threads: number[];
  stop(): Promise<void>;
}

export interface ChildOptions {
  /** The checkout measured (default this one): another revision's, to compare with. */
  root?: string;
  /** Node options before the script (`--cpu-prof`, …). */
  nodeArgs?: readonly string[];
  /**
   * 'tsx' (default): the root's own `script` under tsx, sources and all. 'dist': this checkout's
   * `script` in plain Node, with the root's sources taken from its compiled `dist/` (what `zecrpc
   * serve` runs; `npm run build` there first) and the bench helpers transpiled (dist-hooks.mjs).
   */
  mode?: 'tsx' | 'dist';
}

/** The node arguments and environment that run `script` as `options` ask. */
function launch(script: string, options: ChildOptions): { args: string[]; env: Record<string, string>; cwd: string } {
  const root = resolve(options.root ?? REPO);
  // The vectors are found from this checkout: another one may sit where ../shared is absent.
  if (options.mode !== 'dist')
    return { args: [...childNodeArgs(options.nodeArgs), script], env: { ZECRPC_VECTORS: VECTORS_DIR }, cwd: root };
  assertBuilt(root);
  return {
    args: [
      ...(options.nodeArgs ?? []),
      '--import',
      join(REPO, 'bench/lib/dist-register.mjs'),
      // As childNodeArgs does: the child ends with its parent (transpiled by the hooks above).
      '--import',
      new URL('./exit-with-parent.ts', import.meta.url).href,
      join(REPO, script),
    ],
    env: { ZECRPC_BENCH_ROOT: root, ZECRPC_BENCH_REPO: REPO, ZECRPC_VECTORS: VECTORS_DIR },
    cwd: root,
  };
}

/** Every file under `root/dir` whose name ends with `ext`, as paths from `root`. */
function filesUnder(root: string, dir: string, ext: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(root, path, ext);
    return entry.name.endsWith(ext) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Refuses a checkout whose `dist/` is older than its sources, or lacks its WebAssembly modules:
 * measured, it would be an earlier revision than the one named, or one running the JavaScript
 * fallbacks, which give the same replies at another cost.
 */
function assertBuilt(root: string): void {
  const build = 'run npm run build:wasm && npm run build there first';
  const time = (path: string) => (existsSync(join(root, path)) ? statSync(join(root, path)).mtimeMs : -1);
  const modules = filesUnder(root, 'src/crypto/wasm', '.wasm');
  if (modules.length === 0) throw new Error(`${root}: no WebAssembly modules in src/crypto/wasm; ${build}`);
  // The modules are built from assembly/: none may be older than a file there.
  const oldestModule = Math.min(...modules.map(time));
  const newerSource = filesUnder(root, 'assembly', '.ts').find((path) => time(path) > oldestModule);
  if (newerSource !== undefined) throw new Error(`${root}: src/crypto/wasm is older than ${newerSource}; ${build}`);
  const builtFrom = [
    ...filesUnder(root, 'src', '.ts').map((path) => [path, `dist/${path.replace(/\.ts$/, '.js')}`]),
    ...modules.map((path) => [path, `dist/${path}`]),
  ];
  const stale = builtFrom.find(([source, built]) => time(built!) < time(source!));
  if (stale !== undefined) throw new Error(`${root}: dist/ is older than ${stale[0]}; ${build}`);
}

/** Starts `script` (a path from the repository root) with `env` added, as `options.mode` says; resolves once it listens. */
export async function startChildServer(script: string, env: Record<string, string>, options: ChildOptions = {}): Promise<ChildServer> {
  const how = launch(script, options);
  const proc: ChildProcess = spawn(process.execPath, how.args, {
    cwd: how.cwd,
    env: { ...process.env, ...how.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  // The channel is only the child's lifeline (it closes when this process ends): it must not keep this process alive.
  proc.channel?.unref();
  let out = '';
  const workers: number[] = [];
  const threads: number[] = [];
  const exited = new Promise<void>((done) => proc.once('exit', () => done()));
  const port = await new Promise<number>((done, fail) => {
    const onData = (d: Buffer): void => {
      out += d.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) {
        // Printed before the port by a server on several processes.
        workers.push(...(/WORKERS ([\d ]+)\n/.exec(out)?.[1]!.split(' ').map(Number) ?? []));
        threads.push(...(/THREADS ([\d ]+)\n/.exec(out)?.[1]!.split(' ').map(Number) ?? []));
        proc.stdout!.off('data', onData);
        // Keep draining so a chatty child never blocks on a full pipe.
        proc.stdout!.resume();
        done(Number(m[1]));
      }
    };
    proc.stdout!.on('data', onData);
    proc.once('exit', (code) => fail(new Error(`${script} exited with ${code} before listening`)));
  });
  return {
    port,
    pid: proc.pid!,
    workers,
    threads,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** A recorded exchange: the request body and zecrpc's whole reply (head included), base64. */
export interface RecordedReply {
  body: string;
  reply: string;
}

/** The ceiling server (ceiling-server.ts) replaying `recorded`, whose file it writes into `dir`. */
export function startReplayCeiling(dir: string, recorded: readonly RecordedReply[], options: ChildOptions = {}): Promise<ChildServer> {
  const file = join(dir, 'replies.json');
  writeFileSync(file, JSON.stringify(recorded));
  return startChildServer('bench/lib/ceiling-server.ts', { REPLIES: file }, options);
}
