/**
 * The package version, read from the package.json that ships with the code. The compiled CLI
 * (dist/src/cli/) and the sources run by tsx (src/cli/) sit at different depths below it, so the
 * nearest package.json named zecrpc going up from this file is the one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function packageVersion(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'zecrpc' && typeof pkg.version === 'string') return (cached = pkg.version);
    }
    const parent = dirname(dir);
    if (parent === dir) return (cached = 'unknown');
    dir = parent;
  }
}

/** The first line of `-version` and of every help text. */
export function versionLine(program: string): string {
  return `${program} version v${packageVersion()} (zcashd v6.12.2-compatible block server)`;
}
