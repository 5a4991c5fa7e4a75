/**
 * Figures from each benchmark's printed report. The suites print for people; these parsers read
 * the lines that carry a measurement and its in-run baseline. A suite whose output yields no
 * figure is reported as "output not recognised" by the runner, so a changed format is noticed.
 */
import { figure, type Figure } from './figures.js';
import { num, OWN_CEILING, perRoundRatio, rpc, storeLabel, storeServe } from './parsers-http.js';
import { largeTx } from './parsers-large-tx.js';

function decode(out: string): Figure[] {
  const figs: Figure[] = [];
  for (const line of out.split('\n')) {
    const m = /^(\S+)\s+\d+ txs.*on those, decode\+txid: zecrpc ([\d,.]+) tx\/s [\d,.]+ MB\/s, utxo-lib ([\d,.]+) tx\/s/.exec(line);
    if (!m) continue;
    figs.push(
      figure('decode', `decode+txid ${m[1]}`, num(m[2]!), 'tx/s', 'higher', { name: '@bitgo/utxo-lib decode+txid', value: num(m[3]!) }),
    );
    const d = /decode only: ([\d,.]+) vs ([\d,.]+) tx\/s/.exec(line);
    if (d)
      figs.push(
        figure('decode', `decode only ${m[1]}`, num(d[1]!), 'tx/s', 'higher', { name: '@bitgo/utxo-lib decode', value: num(d[2]!) }),
      );
    // The ceiling (utxo-lib against the txid hashing alone) and the share of it decode+txid keeps.
    const h = /txid alone: ([\d,.]+) tx\/s/.exec(line);
    if (h) {
      const alone = num(h[1]!);
      figs.push(
        figure('decode', `txid hashing alone ${m[1]} (the ceiling)`, alone, 'tx/s', 'higher', {
          name: '@bitgo/utxo-lib decode+txid',
          value: num(m[3]!),
        }),
        figure('decode', `decode+txid ${m[1]}, share of the txid hashing alone`, num(m[2]!), 'tx/s', 'higher', {
          name: 'zecrpc txid hashing alone',
          value: alone,
        }),
      );
      const l = /listed decode\+txid: zecrpc ([\d,.]+) tx\/s, utxo-lib ([\d,.]+) tx\/s/.exec(line);
      if (l)
        figs.push(
          figure('decode', `decode+txid ${m[1]}, listed (decode all, then ids)`, num(l[1]!), 'tx/s', 'higher', {
            name: '@bitgo/utxo-lib decode+txid, listed',
            value: num(l[2]!),
          }),
          figure('decode', `decode+txid ${m[1]}, listed, share of the txid hashing alone`, num(l[1]!), 'tx/s', 'higher', {
            name: 'zecrpc txid hashing alone',
            value: alone,
          }),
        );
    }
  }
  // The same shares taken within interleaved rounds (median, spread): the ones READMEs quote.
  for (const r of out.matchAll(
    /^(\S+) shares of the txid hashing alone, \d+ interleaved rounds: txid alone ([\d,.]+) tx\/s, decode\+txid one call each ([\d,.]+) tx\/s, listed ([\d,.]+) tx\/s \| one call each ([\d.]+) %[^|]*?, listed ([\d.]+) %(.*)$/gm,
  )) {
    const alone = { name: 'zecrpc txid hashing alone, same rounds', value: num(r[2]!) };
    figs.push(
      perRoundRatio(
        figure('decode', `decode+txid ${r[1]}, share of the txid hashing alone, per round`, num(r[3]!), 'tx/s', 'higher', alone),
        num(r[5]!),
      ),
      perRoundRatio(
        figure('decode', `decode+txid ${r[1]}, listed, share of the txid hashing alone, per round`, num(r[4]!), 'tx/s', 'higher', alone),
        num(r[6]!),
      ),
    );
    // The least any decoder does before hashing (finding where each transaction ends): what is
    // left of the one-call share once that is all.
    const w = /only finding each transaction's end, then its txid, one call each ([\d,.]+) tx\/s, ([\d.]+) %/.exec(r[7]!);
    if (w)
      figs.push(
        perRoundRatio(
          figure(
            'decode',
            `finding each transaction's end only, then its txid, ${r[1]}, share of the txid hashing alone, per round`,
            num(w[1]!),
            'tx/s',
            'higher',
            alone,
          ),
          num(w[2]!),
        ),
      );
    // The least a conforming decoder of the version does (bench/lib/least-decoder.ts): about the
    // most of the share a decoder returning these objects can keep.
    const least = /the least conforming \S+ decoder \([^)]*\), one call each ([\d,.]+) tx\/s, ([\d.]+) %/.exec(r[7]!);
    if (least)
      figs.push(
        perRoundRatio(
          figure(
            'decode',
            `the least conforming ${r[1]} decoder, then its txid, share of the txid hashing alone, per round`,
            num(least[1]!),
            'tx/s',
            'higher',
            alone,
          ),
          num(least[2]!),
        ),
      );
    // The same behind a version dispatch: the bound for a decoder of every version.
    const dispatched = /the same behind a version dispatch, one call each ([\d,.]+) tx\/s, ([\d.]+) %/.exec(r[7]!);
    if (dispatched)
      figs.push(
        perRoundRatio(
          figure(
            'decode',
            `the least conforming ${r[1]} decoder behind a version dispatch, then its txid, share of the txid hashing alone, per round`,
            num(dispatched[1]!),
            'tx/s',
            'higher',
            alone,
          ),
          num(dispatched[2]!),
        ),
      );
  }
  for (const alt of out.matchAll(
    /^alternation (?:cost|control), (.+?): (.+?) ([\d,.]+) ns\/tx, (.+?) ([\d,.]+) ns, alternating ([\d,.]+) ns/gm,
  ))
    figs.push(
      figure('decode', `${alt[2]} alternating with a ${alt[4]}, ${alt[1]}, per tx`, num(alt[6]!), 'ns', 'lower', {
        name: 'the two loops run apart, summed',
        value: num(alt[3]!) + num(alt[5]!),
      }),
    );
  return figs;
}

function decoderaw(out: string): Figure[] {
  const rows = new Map<string, Map<string, number>>();
  for (const line of out.split('\n')) {
    const m = /^v(\d) (.+?)\s{2,}(\d+) tx\/s/.exec(line);
    if (!m) continue;
    const byName = rows.get(m[1]!) ?? new Map<string, number>();
    byName.set(m[2]!.trim(), num(m[3]!));
    rows.set(m[1]!, byName);
  }
  const figs: Figure[] = [];
  for (const [v, byName] of rows) {
    const base = byName.get('JSON.stringify(prebuilt plain object)');
    if (base === undefined) continue;
    const baseline = { name: 'JSON.stringify of a prebuilt object', value: base };
    const full = byName.get('zecrpc txToJson');
    const writer = byName.get('JsonWriter(prebuilt JsonValue tree)');
    if (full !== undefined) figs.push(figure('decoderaw', `decoded v${v} tx → JSON (txToJson)`, full, 'tx/s', 'higher', baseline));
    if (writer !== undefined) figs.push(figure('decoderaw', `JSON writer, v${v} values`, writer, 'tx/s', 'higher', baseline));
    const bytes = byName.get('zecrpc txToJsonBytes (reply bytes)');
    const baseBytes = byName.get('Buffer.from(JSON.stringify(prebuilt))');
    if (bytes !== undefined && baseBytes !== undefined) {
      const bytesBaseline = { name: 'Buffer.from(JSON.stringify) of a prebuilt object', value: baseBytes };
      figs.push(
        figure(
          'decoderaw',
          `decoded v${v} tx → reply bytes (txToJsonBytes), the same decoded objects, warm addresses`,
          bytes,
          'tx/s',
          'higher',
          bytesBaseline,
        ),
      );
      const perRequest = byName.get('zecrpc per request (decode, reply bytes)');
      if (perRequest !== undefined)
        figs.push(
          figure(
            'decoderaw',
            `v${v} tx bytes → reply bytes per request (fresh decode, cold addresses)`,
            perRequest,
            'tx/s',
            'higher',
            bytesBaseline,
          ),
        );
    }
  }
  return figs;
}

function getblockConnected(out: string): Figure[] {
  const figs: Figure[] = [];
  const size = /^block regtest \d+: ([\d,]+) bytes/m.exec(out);
  const mb = size ? `${(num(size[1]!) / 1e6).toFixed(2)} MB` : 'large';
  const store = storeLabel(out);
  for (const line of out.split('\n')) {
    const m =
      /^connected-large v(\d) +(\d+) conn: ceiling (\d+) req\/s .*\| cached (\d+) req\/s .*\| uncached from the index (\d+) req\/s .*\| uncached decode path (\d+) req\/s .*\| index ÷ decode path ([\d.]+)×/.exec(
        line,
      );
    if (!m) continue;
    const [v, c] = [m[1]!, Number(m[2])];
    const block = `connected ${mb} block (106598's shape)`;
    const decodePath = { name: 'uncached decode path (read, decode, verify, render), same run', value: num(m[6]!) };
    // Only verbosity 1 has an index path; at verbosity 2 both uncached servers decode.
    if (v === '1')
      figs.push({
        ...figure(
          'getblock-connected',
          `getblock ${v} ${block} uncached from the index${store}, ${c} conn`,
          num(m[5]!),
          'req/s',
          'higher',
          decodePath,
        ),
        ratio: num(m[7]!),
      });
    figs.push(
      figure('getblock-connected', `getblock ${v} ${block} cached${store}, ${c} conn`, num(m[4]!), 'req/s', 'higher', {
        name: OWN_CEILING,
        value: num(m[3]!),
      }),
    );
  }
  return figs;
}

function storeImport(out: string): Figure[] {
  const figs: Figure[] = [];
  const lines = out.split('\n');
  const rate = (label: string): number | undefined => {
    const line = lines.find((l) => l.includes(label));
    const m = line ? /([\d,]+) blocks\/s/.exec(line) : null;
    return m ? num(m[1]!) : undefined;
  };
  const base = rate('(c) chain state off');
  if (base !== undefined) {
    const baseline = { name: 'chain state off (TxIndex only)', value: base };
    const configs: [string, string][] = [
      ['(a) everything on', 'import, everything on (regtest, spends)'],
      ['(b) Equihash off', 'import, Equihash off'],
      ['(d) address index off', 'import, address index off'],
    ];
    for (const [label, name] of configs) {
      const v = rate(label);
      if (v !== undefined) figs.push(figure('store-import', name, v, 'blocks/s', 'higher', baseline));
    }
  }
  const grouped = rate('(e) everything on, group commit');
  const perBlock = rate('(a) everything on');
  const groupRatio = /^group commit \(e\) vs one batch per block \(a\), everything on: ([\d.]+)×/m.exec(out);
  if (grouped !== undefined && perBlock !== undefined) {
    const f = figure('store-import', 'import, everything on, group commit (zecrpc import)', grouped, 'blocks/s', 'higher', {
      name: 'one LevelDB batch per block, same run',
      value: perBlock,
    });
    figs.push(groupRatio ? { ...f, ratio: num(groupRatio[1]!) } : f);
  }
  const mainnet = rate('mainnet 0..20 (real), everything on');
  const mainnetAhead = /^mainnet 0\.\.20 \(real\), as `zecrpc import`.* ([\d,]+) blocks\/s.*, ([\d.]+)× the line above per round/m.exec(
    out,
  );
  if (mainnet !== undefined && mainnetAhead) {
    figs.push({
      ...figure(
        'store-import',
        'import, real mainnet 0..20, as zecrpc import (group commit, solutions ahead)',
        num(mainnetAhead[1]!),
        'blocks/s',
        'higher',
        {
          name: 'one batch per block, solutions inline',
          value: mainnet,
        },
      ),
      ratio: num(mainnetAhead[2]!),
    });
  } else if (mainnet !== undefined)
    figs.push(figure('store-import', 'import, real mainnet 0..20, everything on', mainnet, 'blocks/s', 'higher', null));
  const flat = rate('bytes in flat files');
  const leveldb = rate('bytes in LevelDB values');
  if (flat !== undefined && leveldb !== undefined) {
    figs.push(
      figure('store-import', 'import (addBlock), flat block files', flat, 'blocks/s', 'higher', {
        name: 'block bytes as LevelDB values',
        value: leveldb,
      }),
    );
  }
  const blk = rate('blk-file importer end to end');
  const all = rate('(a) everything on');
  if (blk !== undefined && all !== undefined) {
    figs.push(
      figure('store-import', 'blk-file importer end to end', blk, 'blocks/s', 'higher', {
        name: 'addBlock alone, everything on',
        value: all,
      }),
    );
  }
  const reads = (kind: string) => {
    const m = new RegExp(`serving from ${kind}: ([\\d,]+) random block reads/s`).exec(out);
    return m ? num(m[1]!) : undefined;
  };
  const rf = reads('flat files');
  const rl = reads('LevelDB values');
  if (rf !== undefined && rl !== undefined)
    figs.push(figure('store-import', 'random block reads, flat files', rf, 'reads/s', 'higher', { name: 'LevelDB values', value: rl }));
  const eq = /Equihash \(200,9\) verification, \d+ real mainnet headers: ([\d.]+) µs\/header/.exec(out);
  if (eq) figs.push(figure('store-import', 'Equihash (200,9) verification, real headers', num(eq[1]!), 'µs/header', 'lower', null));
  const coins = /coins-view lookups, ([\d,]+)-coin view reopened: ([\d,]+)\/s first pass, ([\d,]+)\/s second pass/.exec(out);
  if (coins) {
    figs.push(
      figure('store-import', `coins-view lookups, ${coins[1]} coins, cold`, num(coins[2]!), 'lookups/s', 'higher', {
        name: 'same lookups warm',
        value: num(coins[3]!),
      }),
    );
  }
  return figs;
}

/** bench/import-eras.ts: the full-mainnet projection from era-shaped chains, and each era chain's import rate. */
function importEras(out: string): Figure[] {
  const figs: Figure[] = [];
  for (const m of out.matchAll(/^import (era \S+) .*?\s+([\d,]+) blocks\/s\s+([\d.]+) MB\/s/gm))
    figs.push(figure('import-eras', `import, ${m[1]} chain (zecrpc import's way)`, num(m[3]!), 'MB/s', 'higher', null));
  const p = /^projection, full mainnet .* on (\d+) cores: ([\d.]+) h from CPU costs, ([\d.]+) h at the load measured/m.exec(out);
  if (p)
    figs.push(
      figure('import-eras', `projected full mainnet import, ${p[1]} cores (CPU costs)`, num(p[2]!), 'h', 'lower', {
        name: 'same projection at the load measured',
        value: num(p[3]!),
      }),
    );
  return figs;
}

/** bench/leveldb-growth.ts: a written row's and a point read's cost at the largest store, against 10^6 keys (or the first checkpoint). */
function leveldbGrowth(out: string): Figure[] {
  const points = [
    ...out.matchAll(/^\s*([\d,]+) keys: write ([\d.]+) µs CPU \/ [\d.]+ µs wall a row, read ([\d.]+) µs present \/ ([\d.]+) µs absent/gm),
  ].map((m) => ({ keys: num(m[1]!), write: num(m[2]!), present: num(m[3]!), absent: num(m[4]!) }));
  if (points.length < 2) return [];
  const last = points[points.length - 1]!;
  const base = points.find((p) => p.keys >= 1_000_000 && p !== last) ?? points[0]!;
  const at = (k: number) => (k >= 1e6 ? `${(k / 1e6).toFixed(1)} M` : `${(k / 1e3).toFixed(0)} k`);
  const rows: [string, 'write' | 'present' | 'absent'][] = [
    ['LevelDB row written (CPU, compaction included)', 'write'],
    ['LevelDB point read of a present key', 'present'],
    ['LevelDB point read of an absent key', 'absent'],
  ];
  return rows.map(([label, k]) =>
    figure('leveldb-growth', `${label} at ${at(last.keys)} keys`, last[k], 'µs', 'lower', {
      name: `same at ${at(base.keys)} keys`,
      value: base[k],
    }),
  );
}

function chainState(out: string): Figure[] {
  const figs: Figure[] = [];
  for (const line of out.split('\n')) {
    const m = /^(mainnet .+?)\s+decode\+applyBlock\s+([\d,.]+) µs\/block\s+([\d,.]+) µs\/tx \| decode\+txids\s+([\d,.]+) µs\/block/.exec(
      line,
    );
    if (!m) continue;
    const baseline = { name: 'decodeBlock + txids of the same block', value: num(m[4]!) };
    figs.push(figure('chain-state', `decode + applyBlock, ${m[1]!.trim()}`, num(m[2]!), 'µs/block', 'lower', baseline));
  }
  return figs;
}

function trees(out: string): Figure[] {
  const figs: Figure[] = [];
  for (const pool of ['Sapling', 'Orchard']) {
    const pure = new RegExp(`^${pool} pure\\s+combine\\s+([\\d,.]+) µs/node`, 'm').exec(out);
    if (!pure) continue;
    const baseline = { name: `pure ${pool} hasher, one pair`, value: num(pure[1]!) };
    const one = new RegExp(`^${pool} fast\\s+combine\\s+([\\d,.]+) µs/node`, 'm').exec(out);
    if (one) figs.push(figure('trees', `${pool} node hash, fast, one pair`, num(one[1]!), 'µs/node', 'lower', baseline));
    for (const m of out.matchAll(new RegExp(`^${pool} fast\\s+combineMany\\s+(\\d+)\\s+([\\d,.]+) µs/node`, 'gm'))) {
      figs.push(figure('trees', `${pool} node hash, fast, ${m[1]}-pair level`, num(m[2]!), 'µs/node', 'lower', baseline));
    }
    for (const m of out.matchAll(
      new RegExp(`^${pool} block of\\s+(\\d+) leaves: appendMany\\s+([\\d,.]+) µs/leaf, root\\(\\)\\s+([\\d,.]+) µs`, 'gm'),
    )) {
      figs.push(figure('trees', `${pool} tree, ${m[1]}-leaf blocks, per leaf`, num(m[2]!), 'µs/leaf', 'lower', baseline));
      figs.push(
        figure('trees', `${pool} tree, ${m[1]}-leaf blocks, root()`, num(m[3]!), 'µs/block', 'lower', {
          name: `32 pure ${pool} hashes`,
          value: 32 * num(pure[1]!),
        }),
      );
    }
  }
  const p = /one core ([\d.]+) h; two cores, one tree per worker, ([\d.]+) h/.exec(out);
  if (p) {
    figs.push(
      figure('trees', 'projected mainnet tree rebuild, two cores', num(p[2]!), 'h', 'lower', { name: 'one core', value: num(p[1]!) }),
    );
  }
  return figs;
}

function equihash(out: string): Figure[] {
  const us = (prefix: string) => {
    const line = out.split('\n').find((l) => l.startsWith(prefix));
    const m = line ? /([\d.]+) µs\/header/.exec(line) : null;
    return m ? num(m[1]!) : undefined;
  };
  const figs: Figure[] = [];
  // The batching SIMD backend is the one verifyEquihash uses wherever WebAssembly SIMD runs; the
  // others are its fallbacks, by backend.
  const batch = us('verifyEquihash, batching SIMD');
  const wasm = us('verifyEquihash, blake2b-wasm');
  const noble = us('verifyEquihash, @noble/hashes');
  const hashBatch = us('hashing only, batching SIMD');
  const hashWasm = us('hashing only, blake2b-wasm');
  const naive = us('baseline: @noble/hashes one-shot');
  if (naive !== undefined) {
    const baseline = { name: 'naive hashing (@noble one-shot per index)', value: naive };
    const rows: [string, number | undefined][] = [
      ['Equihash hashing, batching SIMD (2 indices a compression)', hashBatch],
      ['Equihash hashing, blake2b-wasm', hashWasm],
      ['verifyEquihash (batching SIMD), full check', batch],
      ['verifyEquihash (blake2b-wasm), full check', wasm],
      ['verifyEquihash (@noble), full check', noble],
    ];
    for (const [name, value] of rows) if (value !== undefined) figs.push(figure('equihash', name, value, 'µs/header', 'lower', baseline));
  }
  return figs;
}

function treesAppend(out: string): Figure[] {
  const times = new Map<string, number>();
  for (const line of out.split('\n')) {
    const m = /^(.+?)\s+([\d.]+) ms\s+\(median of/.exec(line);
    if (m) times.set(m[1]!.trim(), num(m[2]!));
  }
  const baseEntry = [...times].find(([k]) => k.startsWith('baseline'));
  if (!baseEntry) return [];
  const baseline = { name: 'the hashes alone (no tree)', value: baseEntry[1] };
  return ['append × n', 'appendMany, 100-leaf batches (Uint8Array views)', 'appendMany, one batch']
    .filter((k) => times.has(k))
    .map((k) => figure('trees-append', `Sprout tree: ${k}`, times.get(k)!, 'ms', 'lower', baseline));
}

/** bench/address-index.ts: import with the index on against off, build rate, query rates. */
function addressIndex(out: string): Figure[] {
  const figs: Figure[] = [];
  const blocks = /^regtest chain: (\d+) blocks/m.exec(out);
  const chain = blocks ? `, ${num(blocks[1]!).toLocaleString('en-US')}-block regtest chain` : '';
  for (const mode of ['group commit (zecrpc import)', 'one batch per block']) {
    const escaped = mode.replace(/[()]/g, '\\$&');
    const off = new RegExp(`^import, ${escaped}, index off: ([\\d,]+) blocks/s`, 'm').exec(out);
    const on = new RegExp(`^import, ${escaped}, index on:\\s+([\\d,]+) blocks/s`, 'm').exec(out);
    const ratio = new RegExp(`^import rate with / without the address index, ${escaped}: ([\\d.]+)×`, 'm').exec(out);
    if (!off || !on) continue;
    const f = figure('address-index', `import with the address index on, ${mode}${chain}`, num(on[1]!), 'blocks/s', 'higher', {
      name: 'same import, index off',
      value: num(off[1]!),
    });
    // The median of the per-round ratios (as printed), not the ratio of the medians.
    figs.push(ratio ? { ...f, ratio: num(ratio[1]!) } : f);
  }
  const build = /^index build \(v4(?:-v5)? migrations?\), regtest chain: ([\d,]+) blocks\/s/m.exec(out);
  if (build) figs.push(figure('address-index', 'index build (migration), regtest chain', num(build[1]!), 'blocks/s', 'higher', null));
  for (const m of out.matchAll(/^(getaddress\w+): ([\d,]+) req\/s, 10 in flight, address with ([\d,]+) index entries/gm)) {
    const entries = num(m[3]!).toLocaleString('en-US');
    figs.push(
      figure('address-index', `${m[1]}, method level, 10 in flight, ${entries} index entries`, num(m[2]!), 'req/s', 'higher', null),
    );
  }
  const http =
    /^(getaddress\w+) over HTTP, 10 conn, address with ([\d,]+) index entries (.*): ceiling (\d+) req\/s [^|]*\| zecrpc (\d+) req\/s [^|]*= ([\d.]+) %/gm;
  for (const m of out.matchAll(http)) {
    const entries = num(m[2]!).toLocaleString('en-US');
    const store = storeLabel(m[3]!);
    const f = figure('address-index', `${m[1]} over HTTP${store}, 10 conn, ${entries} index entries`, num(m[5]!), 'req/s', 'higher', {
      name: OWN_CEILING,
      value: num(m[4]!),
    });
    // The median of the per-round ratios (as printed), not the ratio of the medians.
    figs.push({ ...f, ratio: num(m[6]!) / 100 });
  }
  return figs;
}

/** bench/curves.ts and bench/zip244.ts print "case | before | after | ratio" and "case before X after Y → ratio" rows. */
function curves(out: string): Figure[] {
  const figs: Figure[] = [];
  for (const m of out.matchAll(/^(.+?) \| ([\d.]+) \| ([\d.]+) \| [\d.]+×/gm)) {
    figs.push(
      figure('curves', `${m[1]!.trim()} (WebAssembly)`, num(m[3]!), 'µs', 'lower', { name: 'BigInt path, same run', value: num(m[2]!) }),
    );
  }
  return figs;
}

function txRules(out: string): Figure[] {
  const m =
    /transaction rules before connecting, \d+ interleaved rounds: ([\d,]+) µs a pass, [\d.]+ µs a transaction \| decode \+ txids ([\d,]+) µs a pass/.exec(
      out,
    );
  if (!m) return [];
  return [
    figure('tx-rules', 'CheckBlock + ContextualCheckBlock transaction rules, every real block', num(m[1]!), 'µs/pass', 'lower', {
      name: 'decoding the same blocks and hashing their txids',
      value: num(m[2]!),
    }),
  ];
}

function zip244(out: string): Figure[] {
  const figs: Figure[] = [];
  for (const m of out.matchAll(/^(.+?)\s+before\s+([\d.]+) (µs\/\w+)\s+after\s+([\d.]+) µs\/\w+\s+→/gm)) {
    // "…, against X" names its own baseline (the path issue 15 measured); the rest compare
    // against the field-by-field digests alone.
    const against = /^(.+?), against (.+)$/.exec(m[1]!.trim());
    figs.push(
      against
        ? figure('zip244', `${against[1]} (WebAssembly point checks, one WebAssembly digest call)`, num(m[4]!), m[3]!, 'lower', {
            name: `${against[2]}, same run`,
            value: num(m[2]!),
          })
        : figure('zip244', `${m[1]!.trim()} (one WebAssembly call)`, num(m[4]!), m[3]!, 'lower', {
            name: 'field-by-field TypeScript, same run',
            value: num(m[2]!),
          }),
    );
  }
  return figs;
}

function addresses(out: string): Figure[] {
  const m =
    /^t-address encoding, fresh addresses \(([\d,]+) per round.*?\): zecrpc ([\d,]+) ns, bs58check ([\d,]+) ns.*batched \(([\d,]+) requested, then one flush(, no WebAssembly)?\): zecrpc ([\d,]+) ns.*known addresses \(([\d,]+) repeated\): zecrpc ([\d,]+) ns/m.exec(
      out,
    );
  if (!m) return [];
  const baseline = { name: 'bs58check, same rounds', value: num(m[3]!) };
  return [
    figure('addresses', `t-address encoding, fresh addresses (${m[1]} per round)`, num(m[2]!), 'ns', 'lower', baseline),
    figure(
      'addresses',
      `t-address encoding, fresh addresses batched as getblock 2 does (${m[4]} per flush${m[5] ? ', no WebAssembly' : ''})`,
      num(m[6]!),
      'ns',
      'lower',
      baseline,
    ),
    figure('addresses', `t-address encoding, known addresses (${m[7]} repeated, address table)`, num(m[8]!), 'ns', 'lower', null),
  ];
}

/** Peak memory an insight method uses per index entry, against its allowance's charge (ratio ≥ 1: the charge covers it). */
function insightMemory(out: string): Figure[] {
  const figs: Figure[] = [];
  for (const m of out.matchAll(/^(\w+), ([\d,]+) entries, charged (?:(\d+) bytes an entry|nothing): peak ([\d,]+) bytes an entry/gm)) {
    const charge = m[3] === undefined ? null : { name: "the allowance's charge per entry", value: num(m[3]) };
    figs.push(figure('insight-memory', `${m[1]}, ${m[2]} entries, peak resident memory per entry`, num(m[4]!), 'B', 'lower', charge));
  }
  const listed = /^lists of ([\d,]+) never-paid addresses, charged (\d+) bytes an address/m.exec(out);
  if (listed) {
    const charge = { name: 'the charge per address listed', value: num(listed[2]!) };
    for (const m of out.matchAll(/^(\w+): peak ([\d,]+) bytes an address/gm)) {
      figs.push(
        figure(
          'insight-memory',
          `${m[1]}, ${listed[1]} addresses listed, peak resident memory per address`,
          num(m[2]!),
          'B',
          'lower',
          charge,
        ),
      );
    }
  }
  return figs;
}

/** What parsing a request keeps, against the estimate the request-memory pool reserves (ratio ≥ 1: enough). */
function requestMemory(out: string): Figure[] {
  return [...out.matchAll(/^(.+?): body ([\d.]+) MB, parse keeps ([\d.]+) MB, estimate ([\d.]+) MB/gm)].map((m) =>
    figure('request-memory', `parsed request, ${m[1]} (${m[2]} MB body)`, num(m[3]!), 'MB', 'lower', {
      name: 'parsedSizeEstimate, reserved before parsing',
      value: num(m[4]!),
    }),
  );
}

export const PARSERS: Readonly<Record<string, (out: string) => Figure[]>> = {
  addresses,
  decode,
  decoderaw,
  rpc,
  'store-serve': storeServe,
  'getblock-connected': getblockConnected,
  'large-tx': largeTx,
  'store-import': storeImport,
  'import-eras': importEras,
  'leveldb-growth': leveldbGrowth,
  'chain-state': chainState,
  trees,
  equihash,
  'trees-append': treesAppend,
  'address-index': addressIndex,
  'insight-memory': insightMemory,
  'request-memory': requestMemory,
  curves,
  'tx-rules': txRules,
  zip244,
};
