/**
 * The import graph of src/ and the layer table ARCHITECTURE.md declares, for the layer test
 * (test/architecture/layers.test.ts). Imports are read with the TypeScript compiler's own
 * pre-processor, so `import type`, `export … from` and `import()` all count: a type from a
 * higher layer is as much a dependency as a value.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import ts from 'typescript';

/** Module path relative to src/ ('chain/network.ts') → the src/ modules it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const posix = (p: string): string => p.split(sep).join('/');

/** Every relative import of every module under `srcDir`, resolved to the module it names. */
export function readImportGraph(srcDir: string): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(srcDir)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets: string[] = [];
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = normalize(join(dirname(file), fileName)).replace(/\.js$/, '.ts');
      targets.push(posix(relative(srcDir, target)));
    }
    graph.set(posix(relative(srcDir, file)), [...new Set(targets)]);
  }
  return graph;
}

/** One floor of the table: its name and the paths (folders end in '/') it holds. */
export interface Floor {
  name: string;
  paths: readonly string[];
}

/**
 * The table between `<!-- layer-table -->` and the end of the fenced block after it: one floor
 * per line, `name  path path …`, lowest floor first.
 */
export function parseLayerTable(markdown: string): Floor[] {
  const start = markdown.indexOf('<!-- layer-table -->');
  if (start < 0) throw new Error('ARCHITECTURE.md has no <!-- layer-table --> marker');
  const open = markdown.indexOf('```', start);
  const body = markdown.indexOf('\n', open) + 1;
  const close = markdown.indexOf('```', body);
  if (open < 0 || close < 0) throw new Error('the layer table is not a fenced block');
  const floors: Floor[] = [];
  for (const line of markdown.slice(body, close).split('\n')) {
    const words = line.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    if (words.length < 2) throw new Error(`layer table line "${line.trim()}" names no path`);
    floors.push({ name: words[0]!, paths: words.slice(1) });
  }
  return floors;
}

/** The floor index of `module`: the floor holding the longest path that names it or a folder above it. */
export function floorOf(module: string, floors: readonly Floor[]): number | null {
  let best: { index: number; length: number } | null = null;
  floors.forEach((floor, index) => {
    for (const p of floor.paths) {
      const matches = p.endsWith('/') ? module.startsWith(p) : module === p;
      if (matches && (best === null || p.length > best.length)) best = { index, length: p.length };
    }
  });
  return best === null ? null : (best as { index: number }).index;
}

export interface LayerViolation {
  from: string;
  to: string;
  why: string;
}

/** Imports from a lower floor to a higher one, and modules (or imports) no floor holds. */
export function layerViolations(graph: ImportGraph, floors: readonly Floor[]): LayerViolation[] {
  const out: LayerViolation[] = [];
  for (const [from, targets] of graph) {
    const own = floorOf(from, floors);
    if (own === null) {
      out.push({ from, to: from, why: 'no floor of the layer table holds it' });
      continue;
    }
    for (const to of targets) {
      const theirs = floorOf(to, floors);
      if (theirs === null) out.push({ from, to, why: 'no floor of the layer table holds the imported module' });
      else if (theirs > own) out.push({ from, to, why: `${floors[own]!.name} imports from ${floors[theirs]!.name}, a higher floor` });
    }
  }
  return out;
}

/** The import cycles: every strongly connected set of more than one module, or a module importing itself. */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}
