// Temporary data dirs scoped to a vitest suite; apart from store.ts, which benches import outside vitest.
import { afterAll } from 'vitest';
import { tempDir } from './store.js';

/** Within a describe: a maker of temporary data dirs, all removed after the suite. */
export function suiteTempDirs(): (label: string) => string {
  const dirs: ReturnType<typeof tempDir>[] = [];
  afterAll(() => dirs.forEach((d) => d.remove()));
  return (label) => {
    const d = tempDir(label);
    dirs.push(d);
    return d.path;
  };
}
