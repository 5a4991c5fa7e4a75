import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  floorOf,
  importCycles,
  layerViolations,
  parseLayerTable,
  readImportGraph,
  type Floor,
  type ImportGraph,
} from '../support/import-graph.js';

const root = new URL('../../', import.meta.url);
const floors = parseLayerTable(readFileSync(new URL('ARCHITECTURE.md', root), 'utf8'));
const graph = readImportGraph(new URL('src', root).pathname);

describe("ARCHITECTURE.md's layer table holds for src/", () => {
  it('names the floors in order, lowest first, chain/ split into facts below codec/ and rules above it', () => {
    const names = floors.map((f) => f.name);
    expect(names[0]).toBe('base');
    expect(names.at(-1)).toBe('entry');
    expect(names.indexOf('json')).toBeLessThan(names.indexOf('codec'));
    expect(names.indexOf('chain-facts')).toBeLessThan(names.indexOf('codec'));
    expect(names.indexOf('chain-rules')).toBeGreaterThan(names.indexOf('codec'));
    expect(floors[floorOf('chain/network.ts', floors)!]!.name).toBe('chain-facts');
    expect(floors[floorOf('chain/commitment-era.ts', floors)!]!.name).toBe('chain-rules');
  });

  it('reads a real graph: every module, its imports of every kind', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('chain/commitment-era.ts')).toEqual(['crypto/hash.ts', 'chain/network.ts']);
    // `export … from` counts as an import.
    expect(graph.get('state/trees/hasher.ts')).toEqual(['crypto/merkle-hasher.ts']);
  });

  it('every module sits on a floor and imports only from its own floor or lower ones', () => {
    expect(layerViolations(graph, floors)).toEqual([]);
  });

  it('has no import cycle (type-only imports included)', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('json/ imports neither codec/ nor crypto/', () => {
    const json = [...graph].filter(([from]) => from.startsWith('json/'));
    expect(json.length).toBeGreaterThan(5);
    for (const [from, targets] of json) {
      for (const to of targets) expect(`${from} -> ${to}`).not.toMatch(/-> (codec|crypto)\//);
    }
  });
});

describe('the checks catch what they are for (synthetic graphs)', () => {
  const table: Floor[] = [
    { name: 'low', paths: ['low/'] },
    { name: 'mid', paths: ['mid/', 'low/special.ts'] },
    { name: 'high', paths: ['high/'] },
  ];
  const g = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

  it('a back-arrow (a lower floor importing a higher one) is a violation', () => {
    const violations = layerViolations(g({ 'low/a.ts': ['high/b.ts'], 'high/b.ts': ['mid/c.ts'], 'mid/c.ts': [] }), table);
    expect(violations).toEqual([{ from: 'low/a.ts', to: 'high/b.ts', why: 'low imports from high, a higher floor' }]);
  });

  it('the longest path decides a module’s floor', () => {
    expect(floorOf('low/special.ts', table)).toBe(1);
    expect(floorOf('low/other.ts', table)).toBe(0);
    expect(layerViolations(g({ 'low/x.ts': ['low/special.ts'], 'low/special.ts': [] }), table)).toHaveLength(1);
  });

  it('a module no floor holds is a violation', () => {
    expect(layerViolations(g({ 'elsewhere/x.ts': [] }), table)).toEqual([
      { from: 'elsewhere/x.ts', to: 'elsewhere/x.ts', why: 'no floor of the layer table holds it' },
    ]);
  });

  it('finds cycles, long and self, and nothing in a tree', () => {
    expect(importCycles(g({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': ['a.ts'], 'd.ts': ['a.ts'] }))).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(importCycles(g({ 'a.ts': ['a.ts'] }))).toEqual([['a.ts']]);
    expect(importCycles(g({ 'a.ts': ['b.ts', 'c.ts'], 'b.ts': ['c.ts'], 'c.ts': [] }))).toEqual([]);
  });

  it('parses the table format, lowest floor first, and refuses a line without paths', () => {
    const md = 'text\n<!-- layer-table -->\n```text\nlow   low/\nhigh  high/ top.ts\n```\n';
    expect(parseLayerTable(md)).toEqual([
      { name: 'low', paths: ['low/'] },
      { name: 'high', paths: ['high/', 'top.ts'] },
    ]);
    expect(() => parseLayerTable('<!-- layer-table -->\n```\nlonely\n```')).toThrow('names no path');
    expect(() => parseLayerTable('no table')).toThrow('no <!-- layer-table --> marker');
  });
});
