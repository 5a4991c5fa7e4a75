import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { normalizeCompareArgs } from '../../src/cli/compare.js';
import { parseJson } from '../../src/json/reader.js';
import { type JsonObject } from '../../src/json/value.js';
import { JsonWriter } from '../../src/json/writer.js';
import { ChainStore } from '../../src/store/index.js';
import { mainnetChain, tempDir } from '../support/store.js';
import { closedPort, startProxy, startZecrpcNode, storeWithVectorChain } from './servers.js';
import { compare } from './run-compare.js';
import { zebraShape } from './zebra-shape.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const AUTH = { user: 'cmp', password: 'secret' };
const chain = mainnetChain();
const hashAt = (h: number) => Buffer.from(ChainStore.hashOf(chain[h]!)).reverse().toString('hex');
/** Requests per height with the default methods: getblockhash, getblock 0/1/2 + numeric-height probe, getblockheader true/false, one decoderawtransaction (each block 0..20 holds only its coinbase). */
const PER_HEIGHT = 1 + 3 + 1 + 2 + 1;

/** A stopped copy of the vector chain's store, for `--target-datadir`. */
async function closedStore(addressIndex = true): Promise<string> {
  const { datadir, store } = await storeWithVectorChain(cleanups, addressIndex);
  await store.close();
  return datadir;
}

/** compare --json of heights 0..20 against a reference zecrpc with AUTH, the target a closed store. */
const compareHeights0To20 = (referenceUrl: string, targetDir: string) =>
  compare([
    '--reference',
    referenceUrl,
    '--reference-user',
    AUTH.user,
    '--reference-password',
    AUTH.password,
    '--target-datadir',
    targetDir,
    '--heights',
    '0..20',
    '--json',
  ]);

describe('zecrpc compare against a second zecrpc on the same vectors', () => {
  it('opens a --target-datadir store created without the address index as it is, and finds every reply identical', async () => {
    const reference = await startZecrpcNode(cleanups, AUTH);
    const targetDir = await closedStore(false);
    const r = await compareHeights0To20(reference.url, targetDir);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.json().totals).toEqual({ requests: 21 * PER_HEIGHT, identical: 21 * PER_HEIGHT, different: 0, drift: 0, excluded: 0 });
  });

  it('finds every reply identical (HTTP reference, in-process target) and exits 0', async () => {
    const reference = await startZecrpcNode(cleanups, AUTH);
    const targetDir = await closedStore();
    const r = await compareHeights0To20(reference.url, targetDir);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const res = r.json();
    expect(res.ok).toBe(true);
    expect(res.heights).toEqual({ count: 21, first: 0, last: 20 });
    expect(res.tips).toEqual({ reference: 20, target: 20 });
    expect(res.totals).toEqual({ requests: 21 * PER_HEIGHT, identical: 21 * PER_HEIGHT, different: 0, drift: 0, excluded: 0 });
    const byMethod = Object.fromEntries(res.methods.map((m) => [m.method, m.identical]));
    expect(byMethod).toEqual({
      getblockhash: 21,
      'getblock:0': 21,
      'getblock:1': 21,
      'getblock:2': 21,
      'getblock:1 by numeric height': 21,
      'getblockheader:true': 21,
      'getblockheader:false': 21,
      decoderawtransaction: 21,
    });
    // zecrpc on both sides: the deviation is exercised and agrees.
    expect(res.deviations.find((d) => d.name === 'getblock-numeric-height')).toMatchObject({ requests: 21, differed: 0, excluded: false });
    expect(res.latency.reference.count).toBe(21 * PER_HEIGHT);
    expect(res.latency.target.count).toBe(21 * PER_HEIGHT);
    expect(res.overhead.compareMs).toBeGreaterThan(0);
  });

  it('authenticates zcash-cli style (zcash.conf on one side, the cookie file on the other) and samples heights', async () => {
    const reference = await startZecrpcNode(cleanups, AUTH);
    const target = await startZecrpcNode(cleanups, null);
    const confDir = tempDir('compare-conf');
    cleanups.push(confDir.remove);
    const conf = join(confDir.path, 'zcash.conf');
    writeFileSync(conf, `# reference node\nrpcuser=${AUTH.user}\nrpcpassword=${AUTH.password}\n`);
    const r = await compare([
      '--reference',
      reference.url,
      '--reference-conf',
      conf,
      '--target',
      target.url,
      '--target-cookie',
      target.cookieFile!,
      '--sample',
      '5',
      '--seed',
      '7',
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/heights {4}5 in \d+\.\.\d+/);
    expect(r.out).toContain(`Result: no differences in ${5 * PER_HEIGHT} requests`);
    expect(r.out).toMatch(/getblock:2 +5 +0 +0 +0/);
  });
});

describe('zecrpc compare against a node whose replies were altered', () => {
  it('detects and locates one altered byte, and exits 1', async () => {
    const upstream = await startZecrpcNode(cleanups, AUTH);
    const hash7 = hashAt(7);
    let original = '';
    const proxy = await startProxy(cleanups, upstream.url, `${AUTH.user}:${AUTH.password}`, (req, reply) => {
      if (req.method !== 'getblock' || req.params[0] !== hash7 || req.params[1] !== 1) return undefined;
      original = reply.body.toString('latin1');
      const at = original.indexOf('"size":') + '"size":'.length;
      const digit = original[at]!;
      const altered = Buffer.from(reply.body);
      altered[at] = digit === '9' ? 0x38 : digit.charCodeAt(0) + 1;
      return { status: reply.status, body: altered };
    });
    const target = await closedStore();
    const r = await compare(['--reference', proxy.url, '--target-datadir', target, '--heights', '5..9', '--json']);
    expect(r.code).toBe(1);
    expect(proxy.rewritten).toHaveLength(1);
    const res = r.json();
    expect(res.ok).toBe(false);
    expect(res.totals.different).toBe(1);
    expect(res.totals.identical).toBe(5 * PER_HEIGHT - 1);
    const d = res.differences[0]!;
    expect(d).toMatchObject({ method: 'getblock:1', height: 7, outcome: 'different' });
    const sizeOffset = original.indexOf('"size":') + '"size":'.length;
    expect(d.first!.offset).toBe(sizeOffset);
    const size = chain[7]!.length;
    expect(d.differences).toHaveLength(1);
    expect(d.differences[0]).toMatchObject({ kind: 'value', path: 'result.size', target: String(size) });
    expect(d.differences[0]!.reference).not.toBe(String(size));

    const text = await compare(['--reference', proxy.url, '--target-datadir', target, '--heights', '7..7']);
    expect(text.code).toBe(1);
    expect(text.out).toContain(`first differing byte: offset ${sizeOffset}`);
    // The reference is a zecrpc node, recognised as one.
    expect(text.out).toContain(`result.size: zecrpc ${d.differences[0]!.reference} | target ${size} (value)`);
    expect(text.out).toContain(`Result: 1 of ${PER_HEIGHT} requests differ`);
  });

  it('detects two reordered members, and exits 1', async () => {
    const upstream = await startZecrpcNode(cleanups, AUTH);
    const hash3 = hashAt(3);
    let original = '';
    const proxy = await startProxy(cleanups, upstream.url, `${AUTH.user}:${AUTH.password}`, (req, reply) => {
      if (req.method !== 'getblockheader' || req.params[0] !== hash3 || req.params[1] !== true) return undefined;
      original = reply.body.toString('utf8');
      const envelope = parseJson(reply.body) as JsonObject;
      const result = envelope.get('result') as JsonObject;
      const i = result.entries.findIndex(([k]) => k === 'time');
      const j = result.entries.findIndex(([k]) => k === 'nonce');
      [result.entries[i], result.entries[j]] = [result.entries[j]!, result.entries[i]!];
      return { status: reply.status, body: Buffer.from(new JsonWriter().value(envelope).toString() + '\n') };
    });
    const target = await closedStore();
    const r = await compare(['--reference', proxy.url, '--target-datadir', target, '--heights', '0..4', '--json']);
    expect(r.code).toBe(1);
    const res = r.json();
    expect(res.totals.different).toBe(1);
    const d = res.differences[0]!;
    expect(d).toMatchObject({ method: 'getblockheader:true', height: 3 });
    // Both members start with a quote; the bytes part at the first letter of "time".
    expect(d.first!.offset).toBe(original.indexOf('"time":') + 1);
    expect(d.differences).toEqual([expect.objectContaining({ kind: 'member-order', path: 'result' })]);
    expect(d.differences[0]!.reference).toMatch(/nonce,.*time/);
    expect(d.differences[0]!.target).toMatch(/time,.*nonce/);
  });
});

describe('zecrpc compare: one grammar, and what the nodes say they are', () => {
  it('takes zcashd-style -name=value options, and warns when the nodes differ in network or the zecrpc reference lists unknown upgrades', async () => {
    const upstream = await startZecrpcNode(cleanups, AUTH);
    const proxy = await startProxy(cleanups, upstream.url, `${AUTH.user}:${AUTH.password}`, (req, reply) => {
      if (req.method !== 'getblockchaininfo') return undefined;
      const envelope = JSON.parse(reply.body.toString('utf8')) as { result: { chain: string; upgrades: Record<string, unknown> } };
      expect(envelope.result.chain).toBe('main');
      envelope.result.chain = 'test';
      envelope.result.upgrades['ffffffff'] = { name: 'NU9', activationheight: 9999999, status: 'pending', info: '' };
      return { status: reply.status, body: Buffer.from(JSON.stringify(envelope) + '\n') };
    });
    const target = await closedStore();
    const r = await compare([`-reference=${proxy.url}`, `-targetdatadir=${target}`, '-heights=0..2', '-json']);
    expect(r.code).toBe(0);
    const network =
      "the nodes are on different networks (reference chain 'test', target chain 'main'): every block and hash will differ; " +
      'compare nodes of one network (--network with --target-datadir)';
    const profile =
      'the reference zecrpc lists the upgrades of a profile this zecrpc does not have ' +
      '(Overwinter, Sapling, Blossom, Heartwood, Canopy, NU5, NU6, NU6.1, NU6.2, NU6.3, NU9), not of --compat current: ' +
      'upgrades and transaction parsing will differ; give the target the same -compat';
    expect(r.err).toBe(`zecrpc compare: warning: ${network}\nzecrpc compare: warning: ${profile}\n`);
    const res = r.json();
    expect(res.warnings).toEqual([network, profile]);
    expect(res.heights).toEqual({ count: 3, first: 0, last: 2 });
  });

  it('warns when a zecrpc reference runs another profile than the target is compared under', async () => {
    const reference = await startZecrpcNode(cleanups, AUTH);
    const r = await compare([
      `-reference=${reference.url}`,
      `-referenceuser=${AUTH.user}`,
      `-referencepassword=${AUTH.password}`,
      `-targetdatadir=${await closedStore()}`,
      '-compat=6.12.2',
      '-heights=3..3',
      '-json',
    ]);
    const warning =
      'the reference zecrpc lists the upgrades of profile current ' +
      '(Overwinter, Sapling, Blossom, Heartwood, Canopy, NU5, NU6, NU6.1, NU6.2, NU6.3), not of --compat 6.12.2: ' +
      'upgrades and transaction parsing will differ; give the target the same -compat';
    expect(r.err).toBe(`zecrpc compare: warning: ${warning}\n`);
    expect(r.json().warnings).toEqual([warning]);
  });

  it('warns of nothing for two nodes of one network and profile', async () => {
    const reference = await startZecrpcNode(cleanups, AUTH);
    const r = await compare([
      `-reference=${reference.url}`,
      `--reference-user=${AUTH.user}`,
      '-reference-password',
      AUTH.password,
      '--target-datadir',
      await closedStore(),
      '-heights=3..3',
      '--json',
    ]);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    expect(r.json().warnings).toEqual([]);
  });

  it("refuses an option it does not take, zcashd-style too, and takes import's --progress values", async () => {
    const r = await compare(['-referense=http://127.0.0.1:1/']);
    expect({ code: r.code, err: r.err }).toEqual({
      code: 2,
      err: "zecrpc compare does not take -referense (unknown option). See 'zecrpc compare -help'.\n",
    });
    expect(normalizeCompareArgs(['-reference=http://a/', '-referenceuser=u', '-json', '--progress', 'none', '-progress=silent'])).toEqual([
      '--reference=http://a/',
      '--reference-user=u',
      '--json',
      '--progress',
      'silent',
      '--progress=silent',
    ]);
    expect(normalizeCompareArgs(['-?', '-help', '--target', 'http://b/'])).toEqual(['--help', '--help', '--target', 'http://b/']);
    const bad = await compare(['--reference', 'http://127.0.0.1:1/', '--progress', 'quiet']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("argument 'quiet' is invalid. Allowed choices are auto, bar, log, silent.");
  });
});

describe('zecrpc compare and the known deviations', () => {
  it('counts a documented deviation as a difference unless it is excluded by name, and reports the exclusion', async () => {
    const upstream = await startZecrpcNode(cleanups, AUTH);
    // zcashd's answer to a numeric height (RPCTypeCheck of a string parameter).
    const zcashdLike = await startProxy(cleanups, upstream.url, `${AUTH.user}:${AUTH.password}`, (req, reply) => {
      if (req.method !== 'getblock' || typeof req.params[0] !== 'number') return undefined;
      const id = (parseJson(reply.body) as JsonObject).get('id');
      return {
        status: 500,
        body: Buffer.from(
          `{"result":null,"error":{"code":-1,"message":"JSON value is not a string as expected"},"id":${new JsonWriter().value(id!).toString()}}\n`,
        ),
      };
    });
    const target = await closedStore();
    const strict = await compare(['--reference', zcashdLike.url, '--target-datadir', target, '--heights', '0..2']);
    expect(strict.code).toBe(1);
    expect(strict.out).toMatch(/getblock:1 by numeric height +0 +3 +0 +0/);
    expect(strict.out).toContain(
      'getblock-numeric-height: 3 requests, 3 differed; NOT excluded: counted as differences (pass --exclude getblock-numeric-height to accept)',
    );
    expect(strict.out).toContain('HTTP status: zecrpc 500 | target 200');
    expect(strict.out).toContain('Result: 3 of 24 requests differ');

    const accepted = await compare([
      '--reference',
      zcashdLike.url,
      '--target-datadir',
      target,
      '--heights',
      '0..2',
      '--exclude',
      'getblock-numeric-height',
    ]);
    expect(accepted.code).toBe(0);
    expect(accepted.out).toMatch(/getblock:1 by numeric height +0 +0 +0 +3/);
    expect(accepted.out).toContain('getblock-numeric-height: 3 requests, 3 differed; excluded by --exclude getblock-numeric-height');
    expect(accepted.out).toContain('Result: no differences in 24 requests (0 zebrad drift, 3 excluded)');
  });
});

describe("zecrpc compare against a node answering in zebrad's shape", () => {
  it('reports the drifts in their own category, not as zecrpc errors, and exits 0', async () => {
    const upstream = await startZecrpcNode(cleanups, AUTH);
    const zebra = await startProxy(cleanups, upstream.url, `${AUTH.user}:${AUTH.password}`, zebraShape());
    const target = await closedStore();
    const r = await compare(['--reference', zebra.url, '--target-datadir', target, '--heights', '0..3', '--json']);
    expect(r.code).toBe(0);
    const res = r.json();
    expect(res.reference.kind).toBe('zebrad');
    expect(res.totals.different).toBe(0);
    expect(res.totals.drift).toBe(4 * PER_HEIGHT);
    const drift = Object.fromEntries(res.drift.map((d) => [d.category, d]));
    expect(Object.keys(drift)).toEqual(
      expect.arrayContaining(['amount-as-f64', 'json-rpc-envelope', 'member-missing-in-zebrad', 'member-only-in-zebrad', 'number-format']),
    );
    // Block 1's coinbase pays 0.0005 ZEC to the miner: zebrad's f64 text against zcashd's %d.%08d.
    const amount = drift['amount-as-f64']!.examples.find(
      (e) => e.path === 'result.vout[0].value' || e.path === 'result.tx[0].vout[0].value',
    );
    expect(amount).toBeDefined();
    expect(amount!.target).toMatch(/^\d+\.\d{8}$/);
    expect(Number(amount!.reference)).toBe(Number(amount!.target));
    expect(drift['member-missing-in-zebrad']!.examples.map((e) => e.path)).toContain('result.chainwork');
    expect(drift['member-only-in-zebrad']!.examples.map((e) => e.path)).toContain('result.tx[0].height');
    expect(drift['number-format']!.examples.map((e) => e.path)).toContain('result.difficulty');
  });

  it('still counts a changed value as a difference, and compares strictly when told the reference is zcashd', async () => {
    const upstream = await startZecrpcNode(cleanups, AUTH);
    const zebra = await startProxy(
      cleanups,
      upstream.url,
      `${AUTH.user}:${AUTH.password}`,
      zebraShape({ alterTxidAtHeight: { hash: hashAt(2) } }),
    );
    const target = await closedStore();
    const r = await compare(['--reference', zebra.url, '--target-datadir', target, '--heights', '0..3', '--json']);
    expect(r.code).toBe(1);
    const res = r.json();
    expect(res.totals.different).toBe(1);
    const d = res.differences.find((x) => x.outcome === 'different')!;
    expect(d).toMatchObject({ method: 'getblock:1', height: 2 });
    const real = d.differences.filter((x) => !x.drift);
    expect(real).toEqual([expect.objectContaining({ kind: 'value', path: 'result.tx[0]' })]);

    const strict = await compare([
      '--reference',
      zebra.url,
      '--reference-kind',
      'zcashd',
      '--target-datadir',
      target,
      '--heights',
      '0..3',
      '--json',
    ]);
    expect(strict.code).toBe(1);
    expect(strict.json().totals.different).toBe(4 * PER_HEIGHT);
    expect(strict.json().drift).toEqual([]);
  });
});

describe('zecrpc compare when the reference cannot be compared with', () => {
  it('an unreachable reference: a clear error and exit 2', { timeout: 10_000 }, async () => {
    const target = await closedStore();
    const port = await closedPort();
    const r = await compare(['--reference', `http://127.0.0.1:${port}/`, '--target-datadir', target, '--heights', '0..1']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(`zecrpc compare: reference http://127.0.0.1:${port}/: cannot reach the node (ECONNREFUSED)\n`);
  });

  it('a reference that never answers: the request time limit ends the run, exit 2', { timeout: 10_000 }, async () => {
    const upstream = await startZecrpcNode(cleanups, AUTH);
    const slow = await startProxy(cleanups, upstream.url, 'x:y', () => undefined, { hang: true });
    const target = await closedStore();
    const r = await compare(['--reference', slow.url, '--target-datadir', target, '--heights', '0..1', '--timeout', '300']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`zecrpc compare: reference ${slow.url}: no complete reply to getblockcount within 300 ms\n`);
  });

  it('a wrong password: an authentication error naming the side, exit 2', { timeout: 10_000 }, async () => {
    const reference = await startZecrpcNode(cleanups, AUTH);
    const target = await closedStore();
    const r = await compare([
      '--reference',
      reference.url,
      '--reference-user',
      AUTH.user,
      '--reference-password',
      'wrong',
      '--target-datadir',
      target,
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `zecrpc compare: reference ${reference.url}: authentication failed (HTTP 401); check the user/password, cookie file or zcash.conf given for the reference\n`,
    );
  });

  it('rejects an unknown deviation name and a missing target', async () => {
    const bad = await compare(['--reference', 'http://127.0.0.1:1/', '--target', 'http://127.0.0.1:1/', '--exclude', 'getblock-numeric']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(
      "--exclude: 'getblock-numeric' is not a known deviation (known: getblock-numeric-height, v6-transaction-json)",
    );
    const none = await compare(['--reference', 'http://127.0.0.1:1/']);
    expect(none.code).toBe(2);
    expect(none.err).toContain('--target URL');
  });
});
