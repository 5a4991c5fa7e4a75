/** `--heights A..B` and `--sample N [--seed S]`: which block heights a comparison visits. */
import { CompareError } from './errors.js';

export type HeightSelection = { kind: 'range'; from: number; to: number } | { kind: 'sample'; count: number; seed: number };

export function parseHeightRange(text: string): HeightSelection {
  const m = /^(\d+)(?:\.\.(\d+))?$/.exec(text.trim());
  if (!m) throw new CompareError(`--heights: '${text}' is not A..B (or a single height)`);
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : Number(m[2]);
  if (to < from) throw new CompareError(`--heights: ${from}..${to} is empty`);
  return { kind: 'range', from, to };
}

/** mulberry32: a small seeded generator, so a sample can be repeated with `--seed`. */
function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** The heights to visit, ascending, given the highest height both nodes have. */
export function selectHeights(selection: HeightSelection, commonTip: number): number[] {
  if (selection.kind === 'range') {
    if (selection.to > commonTip) {
      throw new CompareError(
        `--heights ${selection.from}..${selection.to} goes past height ${commonTip}, the highest block both nodes have`,
      );
    }
    return Array.from({ length: selection.to - selection.from + 1 }, (_, i) => selection.from + i);
  }
  const available = commonTip + 1;
  if (selection.count >= available) return Array.from({ length: available }, (_, i) => i);
  const random = seededRandom(selection.seed);
  const picked = new Set<number>();
  while (picked.size < selection.count) picked.add(Math.floor(random() * available));
  return [...picked].sort((a, b) => a - b);
}
