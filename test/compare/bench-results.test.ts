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

const ADDRESS_OUT = [
  'regtest chain: 6001 blocks, 4.6 MB',
  'import, group commit (zecrpc import), index off: 7300 blocks/s (median of 5, load 1.20)',
  'import, group commit (zecrpc import), index on:  3967 blocks/s (median of 5)',
  'import rate with / without the address index, group commit (zecrpc import): 0.59× (min–max 0.48–0.97; per round 0.97, 0.59, 0.48, 0.55, 0.60; target ≥ 0.80×, i.e. at most 25 % slower: median slowdown 69.1 %)',
  'import, one batch per block, index off: 2677 blocks/s (median of 5, load 1.20)',
  'import, one batch per block, index on:  2363 blocks/s (median of 5)',
  'import rate with / without the address index, one batch per block: 0.89× (min–max 0.88–0.90; per round 0.89, 0.88, 0.90, 0.89, 0.89; target ≥ 0.80×, i.e. at most 25 % slower: median slowdown 12.5 %)',
  'getaddresstxids: 147 req/s, 10 in flight, address with 2594 index entries (132 unspent)',
  'getaddresstxids over HTTP: reply 52,605 bytes, 783 items',
  'getaddresstxids over HTTP, 10 conn, address with 1000 index entries (86 unspent), 5 interleaved rounds: ceiling 42164 req/s p99 0 ms | zecrpc 595 req/s p99 27 ms = 1.4 % (1.3–1.5) | load 1.27',
].join('\n');

const DECODE_OUT =
  'v4   343 txs    391 kB | zecrpc decode+txid 503,702 tx/s 574.7 MB/s ±0% | utxo-lib parses 287/343 | on those, decode+txid: zecrpc 726,487 tx/s 718.5 MB/s, utxo-lib 139,658 tx/s 138.1 MB/s → 5.2× | decode only: 6,105,006 vs 626,386 tx/s → 9.7× | txid alone: 989,662 tx/s → ceiling 7.1× | listed decode+txid: zecrpc 851,101 tx/s, utxo-lib 141,200 tx/s → 6.0× (share of ceiling: one call each 73 %, listed 86 %)\n' +
  "v4 shares of the txid hashing alone, 7 interleaved rounds: txid alone 1,084,387 tx/s, decode+txid one call each 883,485 tx/s, listed 908,459 tx/s | one call each 82.0 % (80.6–90.4), listed 84.1 % (72.6–92.5) | only finding each transaction's end, then its txid, one call each 1,030,168 tx/s, 95.0 % (91.8–98.0) | the least conforming v4 decoder (bench/lib/least-decoder.ts), one call each 902,141 tx/s, 83.1 % (79.9–85.0) | the same behind a version dispatch, one call each 887,032 tx/s, 81.8 % (78.8–84.1)\n" +
  'alternation cost, v4 transactions utxo-lib parses: decode 160 ns/tx, 1-byte SHA-256 266 ns, alternating 567 ns → 141 ns per transaction more than the two apart\n' +
  'alternation control, v4 transactions utxo-lib parses: decode 160 ns/tx, 1-byte Buffer.compare 47 ns, alternating 214 ns → 7 ns per transaction more than the two apart\n' +
  'alternation control, v4 transactions utxo-lib parses: decode 160 ns/tx, 1-byte timingSafeEqual (OpenSSL, no digest) 33 ns, alternating 196 ns → 3 ns per transaction more than the two apart\n' +
  'alternation control, v4 transactions utxo-lib parses: decode 160 ns/tx, 1-byte HMAC-SHA-256 1,241 ns, alternating 1,618 ns → 217 ns per transaction more than the two apart\n' +
  'alternation control, v4 transactions utxo-lib parses: 64-byte JS sum 82 ns/tx, 1-byte SHA-256 266 ns, alternating 384 ns → 36 ns per transaction more than the two apart';

const IMPORT_OUT = [
  'regtest + spends, (c) chain state off (TxIndex only)           6,796 blocks/s    6.11 MB/s  (1,201 blocks, 1.1 MB, median 177 ms, 1.00× (c), 34,021 tx/s; load 2.11)',
  'regtest + spends, (a) everything on                            2,542 blocks/s    2.29 MB/s  (1,201 blocks, 1.1 MB, median 473 ms, 0.37× (c), 12,723 tx/s; load 2.11)',
  'regtest + spends, (e) everything on, group commit (as `zecrpc import`)   3,733 blocks/s    3.36 MB/s  (1,201 blocks, 1.1 MB, median 322 ms, 0.55× (c), 18,687 tx/s; load 2.11)',
  'group commit (e) vs one batch per block (a), everything on: 1.80× (per round 2.01, 1.33, 1.80; target ≥ 2×)',
  'mainnet 0..20 (real), everything on, 15 fresh stores              2,038 blocks/s    3.15 MB/s  (21 blocks, 0.0 MB, median 10 ms; load 1.00)',
  'mainnet 0..20 (real), as `zecrpc import` (group commit, solutions ahead)   3,294 blocks/s    5.09 MB/s  (21 blocks, 0.0 MB, median 6 ms, 1.42× the line above per round (1.20–1.61); load 1.00)',
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
    const address = PARSERS['address-index']!(ADDRESS_OUT);
    expect(address.map((f) => [f.name, f.value, f.baseline?.value])).toEqual([
      ['import with the address index on, group commit (zecrpc import), 6,001-block regtest chain', 3967, 7300],
      ['import with the address index on, one batch per block, 6,001-block regtest chain', 2363, 2677],
      ['getaddresstxids, method level, 10 in flight, 2,594 index entries', 147, undefined],
      ['getaddresstxids over HTTP, 10 conn, 1,000 index entries', 595, 42164],
    ]);
    expect(address[3]!.ratio).toBeCloseTo(0.014, 6);
    // The ratio is the median per-round ratio the suite printed, not the quotient of the medians.
    expect(address[0]!.ratio).toBe(0.59);
    expect(address[1]!.ratio).toBe(0.89);
    const imports = PARSERS['store-import']!(IMPORT_OUT);
    expect(imports.find((f) => f.name === 'import, everything on, group commit (zecrpc import)')).toMatchObject({
      value: 3733,
      baseline: { value: 2542 },
      ratio: 1.8,
    });
    expect(imports.find((f) => f.name.startsWith('projected mainnet import'))).toBeUndefined();
    const eras = PARSERS['import-eras']!(
      [
        'import era spam (1.9 MB Sapling-output blocks)             6 blocks/s   1.47 MB/s  (median of 2: 19.34 s wall, 1.70 s CPU; load 20.39)',
        "projection, full mainnet (3,439,808 blocks, 290 GB; Zebra's whole state 277 GB) on 2 cores: 17.38 h from CPU costs, 188.73 h at the load measured (load 20.67)",
      ].join('\n'),
    );
    expect(eras.map((f) => [f.name, f.value, f.baseline?.value])).toEqual([
      ["import, era spam chain (zecrpc import's way)", 1.47, undefined],
      ['projected full mainnet import, 2 cores (CPU costs)', 17.38, 188.73],
    ]);
    expect(imports.find((f) => f.name.startsWith('import, real mainnet 0..20'))).toMatchObject({
      value: 3294,
      baseline: { value: 2038 },
      ratio: 1.42,
    });
    const large = PARSERS['large-tx']!(
      'decoderawtransaction main-106598#40 cached: ceiling 65 req/s 2,361 µs CPU | base 29 req/s = 50.6 % (47.8–65.6) of the ceiling, 8,000 µs CPU, ' +
        'ceiling CPU ÷ base CPU 37.5 % (23.3–45.8) | zecrpc 45 req/s = 72.0 % (49.9–94.0) of the ceiling, 4,583 µs CPU, ceiling CPU ÷ zecrpc CPU 52.2 % (44.4–60.0) | load 19.84',
    );
    expect(large.map((f) => [f.name, f.value, f.baseline?.value, f.ratio])).toEqual([
      ['decoderawtransaction main-106598#40 cached', 45, 65, 0.72],
      ['decoderawtransaction main-106598#40 cached, server CPU per request', 4583, 2361, 0.522],
    ]);
    const withFloors = PARSERS['large-tx']!(
      'decoderawtransaction main-3428145#3 uncached (16 distinct txs, reply cache off): ceiling 4,232 req/s 120 µs CPU | ' +
        'node:http floor 3,387 req/s = 80.0 % (70.1–90.2) of the ceiling, 212 µs CPU, ceiling CPU ÷ node:http floor CPU 56.6 % (50.0–60.0) | ' +
        'bare-Fastify floor 2,917 req/s = 68.9 % (60.0–75.5) of the ceiling, 282 µs CPU, ceiling CPU ÷ bare-Fastify floor CPU 42.6 % (40.0–45.0) | ' +
        'base 611 req/s = 14.4 % (12.0–16.0) of the ceiling, 1,778 µs CPU, ceiling CPU ÷ base CPU 6.7 % (6.0–7.0) | ' +
        'zecrpc 1,211 req/s = 28.6 % (25.0–31.0) of the ceiling, 878 µs CPU, ceiling CPU ÷ zecrpc CPU 13.7 % (12.0–15.0) | ' +
        'base of the bare-Fastify floor: throughput 20.9 % (18.0–23.0), CPU (floor ÷ base) 15.9 % (15.0–17.0) | ' +
        'zecrpc of the bare-Fastify floor: throughput 41.5 % (39.0–44.0), CPU (floor ÷ zecrpc) 32.1 % (30.0–34.0) | load 2.88',
    );
    const what = 'decoderawtransaction main-3428145#3 uncached';
    expect(withFloors.map((f) => [f.name, f.value, f.baseline?.name, f.baseline?.value, f.ratio])).toEqual([
      [what, 1211, 'replay ceiling', 4232, 28.6 / 100],
      [`${what}, server CPU per request`, 878, 'replay ceiling', 120, 13.7 / 100],
      [`${what}, node:http floor`, 3387, 'replay ceiling', 4232, 80 / 100],
      [`${what}, node:http floor, server CPU per request`, 212, 'replay ceiling', 120, 56.6 / 100],
      [`${what}, bare-Fastify floor`, 2917, 'replay ceiling', 4232, 68.9 / 100],
      [`${what}, bare-Fastify floor, server CPU per request`, 282, 'replay ceiling', 120, 42.6 / 100],
      [`${what} against the bare-Fastify floor`, 1211, 'bare-Fastify floor', 2917, 41.5 / 100],
      [`${what} against the bare-Fastify floor, server CPU per request`, 878, 'bare-Fastify floor', 282, 32.1 / 100],
    ]);
    const bound = PARSERS['large-tx']!(
      [
        'decoderawtransaction main-171059#3 uncached (16 distinct txs, reply cache off): ceiling 5,000 req/s 150 µs CPU | ' +
          'zecrpc 500 req/s = 10.0 % (9.0–11.0) of the ceiling, 2,000 µs CPU, ceiling CPU ÷ zecrpc CPU 7.5 % (7.0–8.0) | load 2.00',
        "decoderawtransaction main-171059#3 uncached, the machine's CPU: ceiling: clients 120 µs CPU a request, machine 99.0 % (98.0–99.5) busy | " +
          'bound from the uncached render floor (280 µs) + clients (120 µs) on 2 cores: 5,000 req/s = 100.0 % (90.0–110.0) of the ceiling; ' +
          'with 1,500 address checksums (105.0 µs at 0.0350 µs a SHA-256 block), for a server that does not memoize addresses: ' +
          '3,960 req/s = 79.2 % (70.0–85.0) of the ceiling',
        // A run too short to read the CPU has no bound.
        'getrawtransaction 1 test-141042#1 uncached (20 distinct txs, reply cache off): ceiling 7,000 req/s 100 µs CPU | ' +
          'zecrpc 2,000 req/s = 28.0 % (27.0–29.0) of the ceiling, 440 µs CPU, ceiling CPU ÷ zecrpc CPU 23.0 % (22.0–24.0) | load 2.00',
        "getrawtransaction 1 test-141042#1 uncached, the machine's CPU: ceiling: clients 0 µs CPU a request, machine 99.0 % (98.0–99.5) busy | " +
          'bound from the uncached render floor not measurable (run too short)',
        // A bound with no case line before it has no ceiling to be a share of: not a figure.
        "getrawtransaction 1 main-106598#40 uncached, the machine's CPU: ceiling: clients 120 µs CPU a request, machine 99.0 % (98.0–99.5) busy | " +
          'bound from the uncached render floor (90 µs) + clients (110 µs) on 2 cores: 10,000 req/s = 80.0 % (70.0–90.0) of the ceiling',
      ].join('\n'),
    );
    expect(bound.map((f) => [f.name, f.value, f.baseline?.name, f.baseline?.value, f.ratio])).toEqual([
      ['decoderawtransaction main-171059#3 uncached', 500, 'replay ceiling', 5000, 0.1],
      ['decoderawtransaction main-171059#3 uncached, server CPU per request', 2000, 'replay ceiling', 150, 0.075],
      // The bound for every server: without the checksums a server memoizing addresses skips.
      ['decoderawtransaction main-171059#3 uncached, throughput bound from the render floor', 5000, 'replay ceiling', 5000, 1],
      ['getrawtransaction 1 test-141042#1 uncached', 2000, 'replay ceiling', 7000, 0.28],
      ['getrawtransaction 1 test-141042#1 uncached, server CPU per request', 440, 'replay ceiling', 100, 0.23],
    ]);
    expect(PARSERS.decode!('nothing recognisable')).toEqual([]);
    const zip = PARSERS.zip244!(
      [
        'txid                               before     4.23 µs/tx  after     1.92 µs/tx  → 2.20× (rounds 2.05–2.43×)',
        'decode + txid, point cache off, against BigInt point checks and field-by-field digests before    33.71 µs/tx  after     4.78 µs/tx  → 7.05× (rounds 6.66–7.44×)',
      ].join('\n'),
    );
    expect(zip.map((f) => [f.name, f.value, f.baseline?.name, f.baseline?.value])).toEqual([
      ['txid (one WebAssembly call)', 1.92, 'field-by-field TypeScript, same run', 4.23],
      [
        'decode + txid, point cache off (WebAssembly point checks, one WebAssembly digest call)',
        4.78,
        'BigInt point checks and field-by-field digests, same run',
        33.71,
      ],
    ]);
    const served = PARSERS['store-serve']!(
      [
        'in-process getblock verbosity 2, main-106598 (1,385,299 bytes → 8,174,145 bytes of JSON): decode+txids+JSON median 5.4 ms into a reply slab (JSON alone 4.3 ms), 8.7 ms into fresh memory (JSON alone 7.7 ms); target ≤ 8 ms for 2 MB | load 0.59',
        'in-process getblock verbosity 2, 419201-payouts-2MB-fresh-addresses (1,998,785 bytes → 22,766,255 bytes of JSON): decode+txids+JSON median 60.1 ms into a reply slab (JSON alone 58.0 ms, outgrowing its 16 MiB into fresh memory), 59.5 ms into fresh memory (JSON alone 57.9 ms); Buffer.from(JSON.stringify(…)) of the same reply prebuilt as objects 62.7 ms (22,758,726 bytes); target ≤ 8 ms for 2 MB | load 1.02',
      ].join('\n'),
    );
    // The line without a stringify baseline (older output) gives figures without one.
    expect(served.map((f) => f.baseline?.value ?? null)).toEqual([null, null, 62.7, 62.7]);
    expect(served[2]!.ratio?.toFixed(2)).toBe((62.7 / 60.1).toFixed(2));
    expect(served.map((f) => [f.name, f.value])).toEqual([
      ['getblock 2 in-process (decode+txids+JSON), main-106598 (1.39 MB), median, into a reply slab (uncached serving)', 5.4],
      ['getblock 2 in-process (decode+txids+JSON), main-106598 (1.39 MB), median, into fresh memory (first cached rendering)', 8.7],
      [
        'getblock 2 in-process (decode+txids+JSON), 419201-payouts-2MB-fresh-addresses (2.00 MB), median, into a reply slab it outgrows (uncached serving)',
        60.1,
      ],
      [
        'getblock 2 in-process (decode+txids+JSON), 419201-payouts-2MB-fresh-addresses (2.00 MB), median, into fresh memory (first cached rendering)',
        59.5,
      ],
    ]);
    expect(
      PARSERS.addresses!(
        't-address encoding, fresh addresses (50,000 per round, 9 rounds): zecrpc 1,209 ns, bs58check 4,479 ns → 3.7× (min–max 3.2–3.9) | batched (500 requested, then one flush): zecrpc 612 ns → 7.3× (min–max 6.1–7.9) | known addresses (1,000 repeated): zecrpc 38 ns | load 0.62',
      ).map((f) => [f.name, f.value, f.baseline?.value, f.ratio?.toFixed(2)]),
    ).toEqual([
      ['t-address encoding, fresh addresses (50,000 per round)', 1209, 4479, '3.70'],
      ['t-address encoding, fresh addresses batched as getblock 2 does (500 per flush)', 612, 4479, '7.32'],
      ['t-address encoding, known addresses (1,000 repeated, address table)', 38, undefined, undefined],
    ]);
    expect(
      PARSERS.addresses!(
        't-address encoding, fresh addresses (2,000 per round, 3 rounds): zecrpc 1,209 ns, bs58check 4,479 ns → 3.7× (min–max 3.2–3.9) | batched (500 requested, then one flush, no WebAssembly): zecrpc 1,100 ns → 4.1× (min–max 4.0–4.2) | known addresses (1,000 repeated): zecrpc 38 ns | load 0.62',
      )[1]!.name,
    ).toBe('t-address encoding, fresh addresses batched as getblock 2 does (500 per flush, no WebAssembly)');
    const insight = PARSERS['insight-memory']!(
      'getaddressdeltas, 200,000 entries, charged 640 bytes an entry: peak 488 bytes an entry → charge ÷ peak 1.31× | held: reply 337 (its text 179), entries read 365\n' +
        'getaddressbalance, 200,000 entries, charged nothing: peak 149 bytes an entry → not charged (read a batch at a time) | held: reply 0 (its text 0), entries read 366\n' +
        'lists of 200,000 never-paid addresses, charged 1280 bytes an address (parsing included):\n' +
        'getaddresstxids: peak 703 bytes an address → charge ÷ peak 1.82×',
    );
    expect(insight.map((f) => [f.name, f.value, f.baseline?.value ?? null, f.better])).toEqual([
      ['getaddressdeltas, 200,000 entries, peak resident memory per entry', 488, 640, 'lower'],
      ['getaddressbalance, 200,000 entries, peak resident memory per entry', 149, null, 'lower'],
      ['getaddresstxids, 200,000 addresses listed, peak resident memory per address', 703, 1280, 'lower'],
    ]);
    expect(insight[0]!.ratio).toBeCloseTo(640 / 488, 10); // ≥ 1: the charge covers the peak
    expect(
      PARSERS['request-memory']!('numbers, 8 digits: body 18.0 MB, parse keeps 135.7 MB, estimate 162.0 MB → estimate ÷ kept 1.19×').map(
        (f) => [f.name, f.value, f.baseline?.value, f.better],
      ),
    ).toEqual([['parsed request, numbers, 8 digits (18.0 MB body)', 135.7, 162, 'lower']]);
    const decode = PARSERS.decode!(DECODE_OUT);
    expect(decode.map((f) => [f.name, f.value, f.baseline?.value])).toEqual([
      ['decode+txid v4', 726487, 139658],
      ['decode only v4', 6105006, 626386],
      ['txid hashing alone v4 (the ceiling)', 989662, 139658],
      ['decode+txid v4, share of the txid hashing alone', 726487, 989662],
      ['decode+txid v4, listed (decode all, then ids)', 851101, 141200],
      ['decode+txid v4, listed, share of the txid hashing alone', 851101, 989662],
      ['decode+txid v4, share of the txid hashing alone, per round', 883485, 1084387],
      ['decode+txid v4, listed, share of the txid hashing alone, per round', 908459, 1084387],
      ["finding each transaction's end only, then its txid, v4, share of the txid hashing alone, per round", 1030168, 1084387],
      ['the least conforming v4 decoder, then its txid, share of the txid hashing alone, per round', 902141, 1084387],
      [
        'the least conforming v4 decoder behind a version dispatch, then its txid, share of the txid hashing alone, per round',
        887032,
        1084387,
      ],
      ['decode alternating with a 1-byte SHA-256, v4 transactions utxo-lib parses, per tx', 567, 426],
      ['decode alternating with a 1-byte Buffer.compare, v4 transactions utxo-lib parses, per tx', 214, 207],
      ['decode alternating with a 1-byte timingSafeEqual (OpenSSL, no digest), v4 transactions utxo-lib parses, per tx', 196, 193],
      ['decode alternating with a 1-byte HMAC-SHA-256, v4 transactions utxo-lib parses, per tx', 1618, 1401],
      ['64-byte JS sum alternating with a 1-byte SHA-256, v4 transactions utxo-lib parses, per tx', 384, 348],
    ]);
    // The per-round shares are the medians of ratios taken within each round, not quotients of medians.
    expect(decode.filter((f) => f.name.endsWith('per round')).map((f) => f.ratio)).toEqual([0.82, 0.841, 0.95, 0.831, 0.818]);
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
