// bin/relaunch.js: `zecrpc import` starts again in a child process with Node options V8 takes only
// at start-up. The child runs with them and the command ends as the child ended; a signal sent to
// the whole process group (a terminal's Ctrl-C) reaches the child directly and forwarded, and is one
// stop request (src/cli/stop-signals.ts); a child whose parent is killed outright (or gone before
// it ran) stops as on SIGTERM; a profiled run stays in its process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const FIXTURE = join(import.meta.dirname, 'relaunch-fixture.ts');

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The launcher in a process group of its own, as a shell runs a command, with its output by line. */
function launch(
  mode: string,
  nodeOptions: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): {
  proc: ChildProcess;
  lines: string[];
  nextLine: () => Promise<string>;
  seen: (wanted: readonly string[]) => Promise<void>;
  ended: Promise<Ended>;
  output: Promise<string>;
} {
  const proc = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', FIXTURE, mode], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let text = '';
  let all = '';
  proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    all += chunk;
    text += chunk;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n')) {
      const line = text.slice(0, i);
      text = text.slice(i + 1);
      lines.push(line);
      waiters.shift()?.(line);
    }
  });
  let read = 0;
  const nextLine = () =>
    new Promise<string>((resolve) => {
      if (read < lines.length) resolve(lines[read++]!);
      else
        waiters.push((line) => {
          read++;
          resolve(line);
        });
    });
  /** Resolves once every one of `wanted` has been a line of the output, in any order. */
  const seen = (wanted: readonly string[]) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (wanted.every((w) => lines.includes(w))) {
          proc.stdout!.off('data', check);
          resolve();
        }
      };
      proc.stdout!.on('data', check);
      check();
    });
  // The output ends when every holder of the pipe (the launcher and its child) has ended.
  const output = new Promise<string>((resolve) => proc.stdout!.on('end', () => resolve(all)));
  const ended = new Promise<Ended>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  return { proc, lines, nextLine, seen, ended, output };
}

describe('bin/relaunch.js', () => {
  it('runs the command again with the options, in a child, and exits with its code', async () => {
    const run = launch('options');
    const child = JSON.parse(await run.nextLine()) as { execArgv: string[]; ppid: number };
    expect(child.execArgv).toContain('--single-threaded-gc');
    expect(child.ppid).toBe(run.proc.pid);
    expect(await run.ended).toEqual({ code: 7, signal: null });
  });

  it.each([
    // A terminal's Ctrl-C; GNU timeout, kill %1 or systemd's default KillMode.
    { toGroup: 'SIGINT', toLauncher: 'SIGTERM' },
    { toGroup: 'SIGTERM', toLauncher: 'SIGINT' },
  ] as const)(
    'a $toGroup to the whole process group is one stop request; a $toLauncher to the launcher alone a second',
    async ({ toGroup, toLauncher }) => {
      const run = launch('requests');
      expect(await run.nextLine()).toBe('ready');
      process.kill(-run.proc.pid!, toGroup);
      // Both copies arrived, the direct one and the forwarded one, and made one request.
      await run.seen([`request 1 ${toGroup}`, `forwarded ${toGroup}`]);
      run.proc.kill(toLauncher);
      await run.seen([`request 2 ${toLauncher}`]);
      expect(await run.ended).toEqual({ code: 3, signal: null });
      expect(run.lines.filter((l) => l.startsWith('request'))).toEqual([`request 1 ${toGroup}`, `request 2 ${toLauncher}`]);
    },
  );

  it('a child that takes no stop requests gets a forwarded signal raised on itself, and the launcher ends by it', async () => {
    const run = launch('plain');
    expect(await run.nextLine()).toBe('ready');
    run.proc.kill('SIGTERM');
    expect(await run.ended).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('SIGHUP is forwarded as a signal', async () => {
    const run = launch('plain');
    expect(await run.nextLine()).toBe('ready');
    run.proc.kill('SIGHUP');
    expect(await run.ended).toEqual({ code: null, signal: 'SIGHUP' });
  });

  it('a relaunched child whose launcher is gone before it runs stops at once', async () => {
    // As the child of a launcher that died before the child's relaunchWith ran: no IPC channel.
    const run = launch('requests', [], { ...process.env, ZECRPC_RELAUNCHED: '1' });
    expect(await run.ended).toEqual({ code: null, signal: 'SIGTERM' });
    expect(await run.output).toBe('');
  });

  it('a profiled or debugged run is not relaunched, and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zecrpc-relaunch-prof-'));
    try {
      const run = launch('options', ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
      let stderr = '';
      run.proc.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const child = JSON.parse(await run.nextLine()) as { execArgv: string[]; pid: number };
      expect(child.execArgv).not.toContain('--single-threaded-gc');
      expect(child.pid).toBe(run.proc.pid);
      expect(await run.ended).toEqual({ code: 7, signal: null });
      expect(stderr).toBe('note: profiling or debugging, so running without --single-threaded-gc\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a child whose launcher is killed outright stops as on SIGTERM', async () => {
    const run = launch('requests');
    expect(await run.nextLine()).toBe('ready');
    run.proc.kill('SIGKILL');
    expect(await run.ended).toEqual({ code: null, signal: 'SIGKILL' });
    // The child still holds the output: it ends when the child has stopped.
    expect(await run.output).toBe('ready\nrequest 1 SIGTERM\n');
  });
});
