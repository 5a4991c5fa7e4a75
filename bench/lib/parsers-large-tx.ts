/**
 * Figures from bench/large-tx.ts: per transaction, method and cache setting, this revision's
 * throughput against the replay ceiling's (the median of the per-round ratios) and its server
 * CPU per request against the ceiling's (likewise). A `base` revision's part of a line is not a
 * figure: it is a comparison made by hand, written up in bench/results/large-replies.md.
 */
import { figure, type Figure } from './figures.js';

const num = (s: string): number => Number(s.replace(/,/g, ''));

const LINE =
  /^(decoderawtransaction|getrawtransaction 1|getblock 2) (\S+) (cached|uncached)[^:]*: ceiling ([\d,]+) req\/s ([\d,]+) µs CPU \|.*?\bzecrpc ([\d,]+) req\/s = ([\d.]+) % \([^)]*\) of the ceiling, ([\d,]+) µs CPU, ceiling CPU ÷ zecrpc CPU ([\d.]+) %/;

export function largeTx(out: string): Figure[] {
  const figs: Figure[] = [];
  for (const line of out.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const what = `${m[1]} ${m[2]} ${m[3]}`;
    figs.push(
      {
        ...figure('large-tx', what, num(m[6]!), 'req/s', 'higher', { name: 'replay ceiling', value: num(m[4]!) }),
        ratio: num(m[7]!) / 100,
      },
      {
        ...figure('large-tx', `${what}, server CPU per request`, num(m[8]!), 'µs', 'lower', { name: 'replay ceiling', value: num(m[5]!) }),
        ratio: num(m[9]!) / 100,
      },
    );
  }
  return figs;
}
