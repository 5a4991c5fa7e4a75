/**
 * The Node options `zecrpc serve` runs with in the checkout at `root` (its bin/zecrpc.js's
 * shebang line): each revision's servers are measured with its own launcher's heap settings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function launcherNodeArgs(root: string): string[] {
  const shebang = readFileSync(join(root, 'bin', 'zecrpc.js'), 'utf8').split('\n', 1)[0]!;
  const m = /^#!\/usr\/bin\/env -S node(.*)$/.exec(shebang);
  return m ? m[1]!.split(' ').filter((a) => a !== '') : [];
}
