/** `zecrpc compare` run in this process, its output collected: what the compare tests call. */
import { runCompareCommand } from '../../src/cli/compare.js';
import type { CompareResult } from '../../src/compare/run.js';

/** A writable stream stand-in collecting text. */
function sink(): NodeJS.WriteStream & { text: string } {
  const s = { text: '', isTTY: false, write: (c: string) => ((s.text += c), true) };
  return s as unknown as NodeJS.WriteStream & { text: string };
}

/** Runs `zecrpc compare` with `args` (and no progress output): its exit status, stdout, stderr and stdout's JSON. */
export async function compare(args: string[]): Promise<{ code: number; out: string; err: string; json: () => CompareResult }> {
  const stdout = sink();
  const stderr = sink();
  const code = await runCompareCommand([...args, '--progress', 'none'], { stdout, stderr });
  return { code, out: stdout.text, err: stderr.text, json: () => JSON.parse(stdout.text) as CompareResult };
}
