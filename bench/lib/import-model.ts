/**
 * The import cost model: the time to import a chain is a sum over what it holds, each unit at its
 * own measured cost (µs per block, per byte, per transaction, per transparent input and output,
 * per Sapling spend — its nullifier and anchor —, per Sapling output and per Orchard action, which
 * carries one nullifier). The costs are fitted by least squares over the imports of chains of
 * varied composition (bench/import-eras.ts), none negative; a cost the fit cannot tell from zero
 * stays at zero rather than going negative.
 */
import type { Composition } from '../../test-vectors/era-chain.js';

export const UNITS = ['blocks', 'bytes', 'txs', 'inputs', 'outputs', 'saplingSpends', 'saplingOutputs', 'orchardActions'] as const;
export type Unit = (typeof UNITS)[number];

/**
 * µs per unit, and µs per import (`run`: opening the store, starting the solution thread, the
 * last group's write and closing), which a chain of a few hundred blocks would otherwise charge
 * to its blocks.
 */
export type UnitCosts = Record<Unit | 'run', number>;
const TERMS = [...UNITS, 'run'] as const;
type Term = (typeof TERMS)[number];
const amount = (c: Composition, t: Term): number => (t === 'run' ? 1 : c[t]);

/** One measured import: what the chain held and what importing it took. */
export interface ImportSample {
  label: string;
  composition: Composition;
  /** µs of wall time (or CPU time: the model is fitted on one or the other). */
  micros: number;
}

/** Predicted µs for one import of `c` at `costs`. */
export function predictMicros(costs: UnitCosts, c: Composition): number {
  return TERMS.reduce((s, t) => s + costs[t] * amount(c, t), 0);
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
  const free = new Set<Term>(TERMS);
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
    const costs = Object.fromEntries(TERMS.map((u) => [u, 0])) as UnitCosts;
    units.forEach((u, i) => (costs[u] = x[i]! / scale[i]!));
    const negative = units.filter((u) => costs[u] < 0).sort((a, b) => costs[a] - costs[b]);
    if (negative.length === 0) return costs;
    free.delete(negative[0]!);
  }
}

/** Each sample's predicted/measured ratio at `costs`: how well the fit holds on its own data. */
export function residuals(costs: UnitCosts, samples: readonly ImportSample[]): { label: string; ratio: number }[] {
  return samples.map((s) => ({ label: s.label, ratio: predictMicros(costs, s.composition) / s.micros }));
}
