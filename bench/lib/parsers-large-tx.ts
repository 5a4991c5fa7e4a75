/**
 * Figures from bench/large-tx.ts: per transaction, method and cache setting, this revision's
 * throughput against the replay ceiling's (the median of the per-round ratios) and its server
 * CPU per request against the ceiling's (likewise); the same two for each replay floor on the
 * promised stack (node:http, bare Fastify) when the line has them, and this revision's throughput
 * and CPU against the bare-Fastify floor's; for an uncached case measured against the render floor,
 * the most requests a second a server could answer under the same load (throughput-bound.ts),
 * the bound for every server (without the address checksums a server memoizing addresses skips),
 * against the ceiling's rate. A `base` revision's part of a line is not a figure:
 * it is a comparison made by hand, written up in bench/results/large-replies.md.
 */
import { figure, type Figure } from './figures.js';

const num = (s: string): number => Number(s.replace(/,/g, ''));

const LINE =
  /^(decoderawtransaction|getrawtransaction 1|getblock 2) (\S+) (cached|uncached)[^:]*: ceiling ([\d,]+) req\/s ([\d,]+) µs CPU \|.*?\bzecrpc ([\d,]+) req\/s = ([\d.]+) % \([^)]*\) of the ceiling, ([\d,]+) µs CPU, ceiling CPU ÷ zecrpc CPU ([\d.]+) %/;
const FLOOR =
  /\| (node:http floor|bare-Fastify floor) ([\d,]+) req\/s = ([\d.]+) % \([^)]*\) of the ceiling, ([\d,]+) µs CPU, ceiling CPU ÷ \1 CPU ([\d.]+) %/g;
const BOUND =
  /^(decoderawtransaction|getrawtransaction 1) (\S+) uncached, the machine's CPU: .*\| bound from the uncached render floor [^:]*: ([\d,]+) req\/s = ([\d.]+) % /;
const OF_FASTIFY = /\| zecrpc of the bare-Fastify floor: throughput ([\d.]+) % \([^)]*\), CPU \(floor ÷ zecrpc\) ([\d.]+) %/;

/** The throughput and CPU figures of `value` req/s and `cpu` µs against a baseline's, with the per-round ratios' medians. */
function pair(
  what: string,
  rate: number,
  cpu: number,
  baseline: string,
  baseRate: number,
  baseCpu: number,
  rateRatio: number,
  cpuRatio: number,
): Figure[] {
  return [
    { ...figure('large-tx', what, rate, 'req/s', 'higher', { name: baseline, value: baseRate }), ratio: rateRatio },
    { ...figure('large-tx', `${what}, server CPU per request`, cpu, 'µs', 'lower', { name: baseline, value: baseCpu }), ratio: cpuRatio },
  ];
}

export function largeTx(out: string): Figure[] {
  const figs: Figure[] = [];
  /** The ceiling's rate on each case's line, for the bound's line after it. */
  const ceilingRates = new Map<string, number>();
  for (const line of out.split('\n')) {
    const b = BOUND.exec(line);
    const boundOf = b ? ceilingRates.get(`${b[1]} ${b[2]} uncached`) : undefined;
    if (b && boundOf !== undefined) {
      const what = `${b[1]} ${b[2]} uncached, throughput bound from the render floor`;
      figs.push({
        ...figure('large-tx', what, num(b[3]!), 'req/s', 'higher', { name: 'replay ceiling', value: boundOf }),
        ratio: num(b[4]!) / 100,
      });
    }
    const m = LINE.exec(line);
    if (!m) continue;
    const what = `${m[1]} ${m[2]} ${m[3]}`;
    const ceilingRate = num(m[4]!);
    ceilingRates.set(what, ceilingRate);
    const ceilingCpu = num(m[5]!);
    const rate = num(m[6]!);
    const cpu = num(m[8]!);
    figs.push(...pair(what, rate, cpu, 'replay ceiling', ceilingRate, ceilingCpu, num(m[7]!) / 100, num(m[9]!) / 100));
    const floors = new Map<string, { rate: number; cpu: number }>();
    for (const f of line.matchAll(FLOOR)) {
      floors.set(f[1]!, { rate: num(f[2]!), cpu: num(f[4]!) });
      figs.push(
        ...pair(`${what}, ${f[1]}`, num(f[2]!), num(f[4]!), 'replay ceiling', ceilingRate, ceilingCpu, num(f[3]!) / 100, num(f[5]!) / 100),
      );
    }
    const fastify = floors.get('bare-Fastify floor');
    const of = OF_FASTIFY.exec(line);
    if (fastify && of) {
      figs.push(
        ...pair(
          `${what} against the bare-Fastify floor`,
          rate,
          cpu,
          'bare-Fastify floor',
          fastify.rate,
          fastify.cpu,
          num(of[1]!) / 100,
          num(of[2]!) / 100,
        ),
      );
    }
  }
  return figs;
}
