// The bench runner's results pipeline: figures read from suite output, the table, the charts and
// the README section (the runner itself is exercised by `npx tsx bench/run-all.ts --quick`).
import { describe, expect, it } from 'vitest';
import type { BenchResults } from '../../bench/lib/figures.js';
import { PARSERS } from '../../bench/lib/parsers.js';
import {
  README_END,
  README_START,
  latencySvg,
  markdownTable,
  readmeSection,
  replaceReadmeSection,
  throughputSvg,
} from '../../bench/lib/render.js';

const RPC_OUT = [
  'decoderawtransaction of v5 tx abc (9165 bytes in, 31085 bytes out), 1 s per run',
  ' 1 conn: fixed-body Fastify 3911 req/s p99 4 ms | zecrpc 2991 req/s p99 7 ms = 76.5 % | cache off 1049 req/s p99 18 ms = 26.8 %',
  '10 conn: fixed-body Fastify 1005 req/s p99 121 ms | zecrpc 1470 req/s p99 96 ms = 146.3 % | cache off 1375 req/s p99 76 ms = 136.8 %',
].join('\n');

const TREES_APPEND_OUT = [
  'baseline: 4,999 compressions, no tree                    7.149 ms  (median of 5)',
  'append × n                                               6.726 ms  (median of 5)',
  'appendMany, one batch                                    1.943 ms  (median of 5)',
].join('\n');

const CONNECTED_OUT = [
  "block regtest 3: 1,371,074 bytes, 41 txs, 9,250 transparent inputs (mainnet 106598's shape), connected in a LevelDB store",
  'connected-large v1 10 conn: ceiling 42646 req/s p99 0 ms | cached 15360 req/s p99 2 ms = 39.5 % (36.0–43.9) | uncached from the index 6619 req/s p99 6 ms = 15.5 % (14.2–15.8) | uncached decode path 326 req/s p99 37 ms = 1.0 % (0.8–1.4) | index ÷ decode path 14.04× (11.08–20.33) | load 6.33',
].join('\n');

function results(): BenchResults {
  return {
    quick: true,
    startedAt: '2026-01-02T03:04:05.000Z',
    commit: '0123456789abcdef',
    machine: { cpuModel: 'Test CPU', cores: 2, memoryGiB: 24, node: 'v20.0.0', platform: 'linux', loadAverageAtStart: 0.5 },
    suites: [
      { suite: 'rpc', file: 'bench/rpc.ts', args: ['1'], seconds: 1, exitCode: 0, loadAverage: 0.5, figures: PARSERS.rpc!(RPC_OUT) },
      {
        suite: 'trees-append',
        file: 'bench/trees-append.ts',
        args: [],
        seconds: 1,
        exitCode: 0,
        loadAverage: 0.5,
        figures: PARSERS['trees-append']!(TREES_APPEND_OUT),
      },
      {
        suite: 'store-import',
        file: 'bench/store-import.ts',
        args: [],
        seconds: 1,
        exitCode: 1,
        loadAverage: 0.5,
        figures: [],
        problem: 'exited with status 1',
      },
    ],
  };
}

describe('bench results', () => {
  it('reads each figure with its in-run baseline and the ratio in the right direction', () => {
    const rpc = PARSERS.rpc!(RPC_OUT);
    const tput = rpc.find((f) => f.name === 'decoderawtransaction, 1 conn')!;
    expect(tput).toMatchObject({ value: 2991, unit: 'req/s', baseline: { value: 3911 } });
    expect(tput.ratio).toBeCloseTo(2991 / 3911, 10);
    const p99 = rpc.find((f) => f.name === 'decoderawtransaction p99, 10 conn')!;
    expect(p99).toMatchObject({
      value: 96,
      unit: 'ms',
      better: 'lower',
      latency: { percentile: 'p99', connections: 10, series: 'zecrpc' },
    });
    expect(p99.ratio).toBeCloseTo(121 / 96, 10);
    const trees = PARSERS['trees-append']!(TREES_APPEND_OUT);
    expect(trees.map((f) => [f.name, f.value, f.baseline?.value])).toEqual([
      ['Sprout tree: append × n', 6.726, 7.149],
      ['Sprout tree: appendMany, one batch', 1.943, 7.149],
    ]);
    const connected = PARSERS['getblock-connected']!(CONNECTED_OUT);
    const fromIndex = connected.find((f) => f.name.includes('uncached from the index, 10 conn'))!;
    expect(fromIndex).toMatchObject({ value: 6619, unit: 'req/s', baseline: { value: 326 }, ratio: 14.04 });
    expect(fromIndex.name).toBe("getblock 1 connected 1.37 MB block (106598's shape) uncached from the index, 10 conn");
    expect(PARSERS.decode!('nothing recognisable')).toEqual([]);
  });

  it('renders the table, well-formed charts and a README section naming the machine and the run', () => {
    const r = results();
    const table = markdownTable(r);
    expect(table).toContain(
      'Machine: Test CPU, 2 cores, 24 GiB, Node v20.0.0, linux; load average 0.50 at start. Run: 2026-01-02, commit 0123456789, QUICK RUN',
    );
    expect(table).toContain('| rpc | decoderawtransaction, 1 conn | 2,991 req/s | fixed-body Fastify route: 3,911 req/s | 0.76× |');
    expect(table).toContain('| store-import | _exited with status 1_ | | | |');
    for (const svg of [throughputSvg(r), latencySvg(r)]) {
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
      expect(svg.match(/<text/g)!.length).toBe(svg.match(/<\/text>/g)!.length);
    }
    expect(throughputSvg(r)).toContain('0.76×');
    expect(latencySvg(r)).toContain('rpc, 10 conn');

    const section = readmeSection(r, 'bench/results');
    expect(section.startsWith(README_START)).toBe(true);
    expect(section.endsWith(README_END)).toBe(true);
    expect(section).toContain('![ratios against in-run baselines](bench/results/throughput.svg)');
    const readme = `# x\n\nbefore\n${README_START}\nold\n${README_END}\nafter\n`;
    expect(replaceReadmeSection(readme, section)).toBe(`# x\n\nbefore\n${section}\nafter\n`);
    expect(replaceReadmeSection('# no markers\n', section)).toBeNull();
  });
});
