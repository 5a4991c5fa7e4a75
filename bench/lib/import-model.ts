/**
 * The import cost model: the time to import a chain is a sum over what it holds, each unit at its
 * own measured cost (µs per block, per byte, per transaction, per transparent input and output,
 * per Sapling spend — its nullifier and anchor —, per Sapling output and per Orchard action, which
 * carries one nullifier), and what a growing store adds (the store term, bench/lib/store-terms.ts).
 * The costs are fitted by least squares over the imports of chains of varied composition and the
 * windows of one long import (bench/import-eras.ts), none negative; a cost the fit cannot tell
 * from zero stays at zero rather than going negative.
 */
import type { Composition } from '../../test-vectors/era-chain.js';
import { STORE_TERMS, type StoreAmounts, type StoreTerm } from './store-terms.js';

export const UNITS = ['blocks', 'bytes', 'txs', 'inputs', 'outputs', 'saplingSpends', 'saplingOutputs', 'orchardActions'] as const;
export type Unit = (typeof UNITS)[number];

/**
 * µs per unit, and µs per import (`run`: opening the store, starting its threads, the
 * last group's write and closing), which a chain of a few hundred blocks would otherwise charge
 * to its blocks; and, when the fit had windows of a growing store to go on, µs per store term
 * (bench/lib/store-terms.ts).
 */
export type UnitCosts = Record<Unit | 'run', number> & Partial<Record<StoreTerm, number>>;
/**
 * What the model charges: a composition, where the store's growth is known its store amounts, and
 * how many whole imports it spans (`runs`: 1 unless said; 0 for a window inside one import, which
 * pays no opening or closing).
 */
export type ModelAmounts = Composition & Partial<StoreAmounts> & { runs?: number };
const TERMS = [...UNITS, 'run', ...STORE_TERMS] as const;
type Term = (typeof TERMS)[number];
const amount = (c: ModelAmounts, t: Term): number => (t === 'run' ? (c.runs ?? 1) : (c[t] ?? 0));

/**
 * Whether `costs` carry the store terms: then what LevelDB's growth adds to written rows is in
 * them, and bench/lib/leveldb-growth-model.ts adds only its reads.
 */
export const modelsStore = (costs: UnitCosts): boolean => STORE_TERMS.every((t) => costs[t] !== undefined);

/** One measured import: what the chain held and what importing it took. */
export interface ImportSample {
  label: string;
  composition: ModelAmounts;
  /** µs of wall time (or CPU time: the model is fitted on one or the other). */
  micros: number;
}

/** Predicted µs for one import of `c` at `costs`. */
export function predictMicros(costs: UnitCosts, c: ModelAmounts): number {
  return TERMS.reduce((s, t) => s + (costs[t] ?? 0) * amount(c, t), 0);
}

/** Solves the square system `a x = b` by Gaussian elimination with partial pivoting (null if singular). */
export function solveLinear(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (Math.abs(m[pivot]![col]!) < 1e-12) return null;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / m[col]![col]!;
      for (let k = col; k <= n; k++) m[r]![k]! -= f * m[col]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/**
 * Least squares on relative error (each sample weighted by 1/its time, so a 2-second chain counts
 * as much as a 60-second one), with every cost ≥ 0: a unit whose cost comes out negative is fixed
 * at zero and the rest refitted, until none is.
 */
export function fitCosts(samples: readonly ImportSample[]): UnitCosts {
  // The store terms are fitted only when some sample carries them (windows of a growing store).
  const fitted = TERMS.filter((t) => !(STORE_TERMS as readonly Term[]).includes(t) || samples.some((s) => amount(s.composition, t) !== 0));
  const free = new Set<Term>(fitted);
  for (;;) {
    const units = TERMS.filter((u) => free.has(u));
    // Columns scaled to unit norm so that bytes (millions) and blocks (hundreds) condition alike.
    const scale = units.map((u) => Math.hypot(...samples.map((s) => amount(s.composition, u) / s.micros)) || 1);
    const ata = units.map((_, i) => units.map((_, j) => 0 * i * j));
    const atb = units.map(() => 0);
    for (const s of samples) {
      const row = units.map((u, i) => amount(s.composition, u) / s.micros / scale[i]!);
      for (let i = 0; i < units.length; i++) {
        atb[i]! += row[i]!;
        for (let j = 0; j < units.length; j++) ata[i]![j]! += row[i]! * row[j]!;
      }
    }
    const x = solveLinear(ata, atb);
    if (!x) throw new Error(`the calibration chains do not tell ${units.join(', ')} apart`);
    const costs = Object.fromEntries(fitted.map((u) => [u, 0])) as UnitCosts;
    units.forEach((u, i) => (costs[u] = x[i]! / scale[i]!));
    const negative = units.filter((u) => costs[u]! < 0).sort((a, b) => costs[a]! - costs[b]!);
    if (negative.length === 0) return costs;
    free.delete(negative[0]!);
  }
}

/** Each sample's predicted/measured ratio at `costs`: how well the fit holds on its own data. */
export function residuals(costs: UnitCosts, samples: readonly ImportSample[]): { label: string; ratio: number }[] {
  return samples.map((s) => ({ label: s.label, ratio: predictMicros(costs, s.composition) / s.micros }));
}
