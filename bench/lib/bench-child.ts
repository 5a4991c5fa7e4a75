/**
 * How a bench starts another Node process: under tsx, with bench/lib/exit-with-parent.ts
 * preloaded so that the child ends when its parent does.
 */

const EXIT_WITH_PARENT = new URL('./exit-with-parent.ts', import.meta.url).href;

/** Node arguments that run a TypeScript script as a child that dies with its parent; `extra` go first (`--cpu-prof`, …). */
export function childNodeArgs(extra: readonly string[] = []): string[] {
  return [...extra, '--import', 'tsx', '--import', EXIT_WITH_PARENT];
}
