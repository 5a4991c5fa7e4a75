/**
 * The zecrpc command as the person reading a hint can type it: `zecrpc` where their shell finds
 * it (a global install), `npx zecrpc` otherwise (a clone, or a project that depends on zecrpc,
 * whose `node_modules/.bin` is not on the shell's PATH).
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** `zecrpc` when an executable of that name is on the shell's PATH, else `npx zecrpc`. */
export function typedCommand(env: NodeJS.ProcessEnv = process.env): string {
  // Under `npm start`, `npm run` or `npx`, PATH holds npm's own additions (node_modules/.bin),
  // which the shell the hint is read in does not have.
  if (env.npm_command) return 'npx zecrpc';
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, 'zecrpc'), constants.X_OK);
      return 'zecrpc';
    } catch {
      // not in this directory
    }
  }
  return 'npx zecrpc';
}
