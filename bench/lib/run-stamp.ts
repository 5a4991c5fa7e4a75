/**
 * What a bench's output says about its own run: when it started and ended (UTC), the checkout's
 * commit and the command line. A log is then read on its own, whatever file name a script gave
 * it or whichever run later took that name.
 */
import { execFileSync } from 'node:child_process';

/** "6728020" or "6728020 with uncommitted changes"; "no git commit" outside a checkout. */
export function revision(dir: string): string {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') ? `${commit} with uncommitted changes` : commit;
  } catch {
    return 'no git commit';
  }
}

/** "2026-11-30 07:55:07 UTC": to the second. */
export const utc = (at: Date = new Date()): string => `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** The run's opening line: start time, commit and the arguments it was given. */
export const runStarted = (dir: string, args: readonly string[] = process.argv.slice(2)): string =>
  `run started ${utc()} at ${revision(dir)}: ${args.length ? args.join(' ') : '(no arguments)'}`;
