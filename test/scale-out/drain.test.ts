// Draining a replica with SIGTERM behind HAProxy (deploy/haproxy.cfg) loses no request: a steady
// stream of reads runs through the balancer while each of two replicas is stopped with SIGTERM
// and restarted, several times in a row. Requests lost on a drain came from stopping a replica
// while HAProxy still held the other one DOWN (a restarted replica is UP only after `rise 2`
// successful checks): every retry then went to the replica that had stopped listening, and
// HAProxy closed the client's connection without a reply once its retries ran out. The drain is
// lossless when another replica is UP, which HAProxy's runtime API tells (docs/scale-out.md).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  builtCli,
  findHaproxy,
  freePort,
  haproxyConfig,
  result,
  rpc,
  RPC_PASSWORD,
  RPC_USER,
  startHaproxy,
  startZecrpc,
  steadyLoad,
  stopZecrpc,
  until,
  zecrpcImport,
  type Haproxy,
  type ZecrpcProcess,
} from '../support/replica-tier.js';
import { tempDir } from '../support/store.js';
import { readFacts, vectorPath } from '../support/vectors.js';

const haproxy = findHaproxy();
const LONG = 480_000;
const DRAINS = 3;
const ANSWERS_BETWEEN = 100;

describe.runIf(haproxy !== null)('SIGTERM of a replica behind HAProxy', () => {
  const dir = tempDir('tier-drain');
  const processes: ZecrpcProcess[] = [];
  let balancer: Haproxy | null = null;
  beforeAll(() => {
    if (!builtCli()) throw new Error('dist/ is missing: run `npm run build` (the tier runs bin/zecrpc.js, the compiled CLI)');
  });
  afterAll(async () => {
    await balancer?.stop();
    for (const p of processes) await stopZecrpc(p);
    dir.remove();
  });

  it(`loses no request across ${DRAINS} drains in a row under a steady stream of reads`, { timeout: LONG }, async () => {
    const primaryDir = join(dir.path, 'primary');
    mkdirSync(primaryDir);
    zecrpcImport([`-datadir=${primaryDir}`, '--hex', vectorPath('lightwalletd', 'mainnet_genesis')]);
    const primary = await startZecrpc('primary', [`-datadir=${primaryDir}`]);
    processes.push(primary);
    const replicaArgs = (name: string) => [
      `-datadir=${join(dir.path, name)}`,
      `-upstream=http://127.0.0.1:${primary.port}/`,
      `-upstreamuser=${RPC_USER}`,
      `-upstreampassword=${RPC_PASSWORD}`,
      '-upstreampoll=0.1',
    ];
    const replicas: ZecrpcProcess[] = [];
    for (const name of ['replica1', 'replica2']) {
      mkdirSync(join(dir.path, name));
      const r = await startZecrpc(name, replicaArgs(name));
      processes.push(r);
      replicas.push(r);
    }
    for (const r of replicas) await until(async () => (await result<number>(r.port, 'getblockcount')) === 20, `${r.name} to catch up`);
    const port = await freePort();
    balancer = await startHaproxy(
      haproxy!,
      dir.path,
      haproxyConfig(
        port,
        replicas.map((r) => ({ name: r.name, port: r.port })),
      ),
      port,
    );
    const lb = balancer;
    const bothUp = () => until(async () => (await lb.serversUp()).length === 2, 'HAProxy to hold both replicas UP');
    await bothUp();

    // Reads whose answers are known: real mainnet hashes (facts.json) and the primary's tip.
    const hashAt = (height: number) => readFacts().blocks.find((b) => b.network === 'mainnet' && b.height === height)!.hash;
    const tip = await result<string>(primary.port, 'getbestblockhash');
    const reads = [
      { method: 'getblockcount', params: [] },
      { method: 'getbestblockhash', params: [] },
      { method: 'getblockhash', params: [5] },
      { method: 'getblock', params: ['10', 2] },
      { method: 'getblockheader', params: [tip] },
    ];
    const load = steadyLoad(port, reads);
    await until(async () => load.record.ok >= ANSWERS_BETWEEN, 'the load to run');

    for (let drain = 0; drain < DRAINS; drain++) {
      const i = drain % 2;
      const victim = replicas[i]!;
      // Another replica must be UP in HAProxy's view, or no replica is left to retry on.
      await bothUp();
      victim.kill('SIGTERM');
      expect(await victim.exited).toBe(0);
      const atDrain = load.record.ok;
      await until(async () => load.record.ok >= atDrain + ANSWERS_BETWEEN, `${ANSWERS_BETWEEN} answers after drain ${drain + 1}`);
      const restarted = await startZecrpc(victim.name, replicaArgs(victim.name), victim.port);
      processes[processes.indexOf(victim)] = restarted;
      replicas[i] = restarted;
      const atRestart = load.record.ok;
      await until(async () => load.record.ok >= atRestart + ANSWERS_BETWEEN, `${ANSWERS_BETWEEN} answers after restart ${drain + 1}`);
    }
    const record = await load.stop();
    expect(record.failures).toEqual([]);
    expect(record.ok).toBeGreaterThanOrEqual(ANSWERS_BETWEEN * (1 + 2 * DRAINS));

    // The answers were the chain's, through the balancer and afterwards.
    expect(await result<number>(port, 'getblockcount')).toBe(20);
    expect(await result<string>(port, 'getbestblockhash')).toBe(tip);
    expect(await result<string>(port, 'getblockhash', [5])).toBe(hashAt(5));
    const block = await result<{ hash: string; height: number }>(port, 'getblock', ['10', 2]);
    expect([block.hash, block.height]).toEqual([hashAt(10), 10]);
    const header = await rpc(port, 'getblockheader', [tip]);
    expect([header.status, (JSON.parse(header.text) as { result: { height: number } }).result.height]).toEqual([200, 20]);
  });
});
