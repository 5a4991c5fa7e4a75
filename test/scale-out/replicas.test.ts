// The read tier of docs/scale-out.md, for real: a primary zecrpc filled by `zecrpc import`, two
// replicas following it with -upstream, HAProxy in front with deploy/haproxy.cfg. Real chain
// answers through the balancer; a reorganization every replica follows; a replica killed with
// SIGKILL under load without a failed request; a restarted one catching up; another drained
// with SIGTERM without a failed request. Every wait polls for a condition with a generous deadline: nothing here assumes
// how fast the machine is.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainStore } from '../../src/store/index.js';
import { buildChain, type BuiltBlock } from '../../test-vectors/regtest-builder.js';
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
import { regtestReorg, tempDir } from '../support/store.js';
import { UpstreamServer } from '../support/upstream-server.js';
import { readFacts, readJsonVector, vectorPath } from '../support/vectors.js';

const haproxy = findHaproxy();
const POLL = '-upstreampoll=0.1';
/** A replica's -upstream options: the primary, with the tier's credentials. */
const followPrimary = (primary: ZecrpcProcess): string[] => [
  `-upstream=http://127.0.0.1:${primary.port}/`,
  `-upstreamuser=${RPC_USER}`,
  `-upstreampassword=${RPC_PASSWORD}`,
  POLL,
];
const LONG = 480_000;

/** The processes of one tier, stopped together. */
class Tier {
  readonly processes: (ZecrpcProcess | null)[] = [];
  balancer: Haproxy | null = null;
  async stop(): Promise<void> {
    await this.balancer?.stop();
    for (const p of this.processes) await stopZecrpc(p);
  }
}

async function bestHash(port: number): Promise<string> {
  return result<string>(port, 'getbestblockhash');
}

/** Starts HAProxy over `replicas` and waits until it answers (its health checks passed). */
async function startBalancer(dir: string, replicas: readonly ZecrpcProcess[]): Promise<Haproxy> {
  const port = await freePort();
  const config = haproxyConfig(
    port,
    replicas.map((r) => ({ name: r.name, port: r.port })),
  );
  const balancer = await startHaproxy(haproxy!, dir, config, port);
  await until(async () => (await rpc(port, 'getblockcount')).status === 200, 'HAProxy to answer through a healthy replica');
  return balancer;
}

describe.runIf(haproxy === null && process.env.CI)('scale-out tier in CI', () => {
  it('needs haproxy', () => {
    throw new Error("haproxy is not installed: .ci/run installs Debian's haproxy package; the scale-out test cannot run without it");
  });
});

describe.runIf(haproxy !== null)('a replica tier behind HAProxy', () => {
  beforeAll(() => {
    if (!builtCli()) throw new Error('dist/ is missing: run `npm run build` (the tier runs bin/zecrpc.js, the compiled CLI)');
  });

  describe('on mainnet blocks 0..20', () => {
    const dir = tempDir('tier-mainnet');
    const tier = new Tier();
    afterAll(async () => {
      await tier.stop();
      dir.remove();
    });

    it('serves the real chain through the balancer exactly as the primary does', { timeout: LONG }, async () => {
      const primaryDir = join(dir.path, 'primary');
      mkdirSync(primaryDir);
      zecrpcImport([`-datadir=${primaryDir}`, '--hex', vectorPath('lightwalletd', 'mainnet_genesis')]);
      const primary = await startZecrpc('primary', [`-datadir=${primaryDir}`]);
      tier.processes.push(primary);
      const replicas: ZecrpcProcess[] = [];
      for (const name of ['replica1', 'replica2']) {
        mkdirSync(join(dir.path, name));
        const r = await startZecrpc(name, [`-datadir=${join(dir.path, name)}`, ...followPrimary(primary)]);
        tier.processes.push(r);
        replicas.push(r);
      }
      for (const r of replicas) await until(async () => (await result<number>(r.port, 'getblockcount')) === 20, `${r.name} to catch up`);
      tier.balancer = await startBalancer(dir.path, replicas);
      const lb = tier.balancer.port;

      // Real chain facts (facts.json, zcashd's 2019 reply for the genesis block) through the balancer.
      const facts = readFacts().blocks.filter((b) => b.network === 'mainnet' && b.height <= 20);
      expect(facts.length).toBeGreaterThan(5);
      for (const f of facts) {
        expect(await result<string>(lb, 'getblockhash', [f.height])).toBe(f.hash);
        const block = await result<Record<string, unknown>>(lb, 'getblock', [f.hash, 1]);
        expect([block.hash, block.height, block.size, block.merkleroot, block.time, block.bits, block.tx]).toEqual([
          f.hash,
          f.height,
          f.size,
          f.merkleroot,
          f.time,
          f.bits,
          f.txids,
        ]);
      }
      const golden = readJsonVector<Record<string, unknown>>('zcashd-2019', '0.getblock.json');
      const genesis = await result<Record<string, unknown>>(lb, 'getblock', ['0']);
      for (const k of ['hash', 'size', 'height', 'version', 'merkleroot', 'finalsaplingroot', 'tx', 'time', 'nonce', 'solution', 'bits']) {
        expect([k, genesis[k]]).toEqual([k, golden[k]]);
      }

      // Every reply, through the balancer and from each replica, is the primary's byte for byte.
      const calls: [string, unknown[]][] = [
        ['getblockcount', []],
        ['getbestblockhash', []],
      ];
      // The first blocks, ones in the middle and the tip (every height's hash was checked above).
      for (const h of [0, 1, 2, 10, 19, 20]) {
        const hash = await result<string>(primary.port, 'getblockhash', [h]);
        calls.push(['getblockhash', [h]], ['getblockheader', [hash]], ['getblockheader', [hash, false]], ['z_gettreestate', [String(h)]]);
        for (const verbosity of [0, 1, 2]) calls.push(['getblock', [String(h), verbosity]]);
      }
      for (const [method, params] of calls) {
        const want = await rpc(primary.port, method, params);
        expect([method, params, want.status, want.text.slice(0, 120)]).toEqual([method, params, 200, want.text.slice(0, 120)]);
        for (const port of [lb, lb, ...replicas.map((r) => r.port)]) expect(await rpc(port, method, params)).toEqual(want);
      }

      // A replica can also start at a checkpoint the primary gives (README's `--checkpoint URL`).
      const fromCheckpoint = join(dir.path, 'replica3');
      mkdirSync(fromCheckpoint);
      const primaryUrl = `http://${RPC_USER}:${RPC_PASSWORD}@127.0.0.1:${primary.port}/`;
      zecrpcImport([`-datadir=${fromCheckpoint}`, '--checkpoint', primaryUrl, '--checkpoint-height', '10', '--rpc', primaryUrl]);
      const third = await startZecrpc('replica3', [`-datadir=${fromCheckpoint}`, ...followPrimary(primary)]);
      tier.processes.push(third);
      expect(await result<number>(third.port, 'getblockcount')).toBe(20);
      for (const h of [11, 15, 20]) {
        const hash = await result<string>(primary.port, 'getblockhash', [h]);
        expect(await result<string>(third.port, 'getblockhash', [h])).toBe(hash);
        expect(await rpc(third.port, 'getblock', [hash, 0])).toEqual(await rpc(primary.port, 'getblock', [hash, 0]));
      }
      // It knows the checkpoint block and the headers before it, not their blocks: such a
      // replica cannot stand in for a full one behind the same balancer (docs/scale-out.md).
      for (const h of [9, 10]) {
        const hash = await result<string>(primary.port, 'getblockhash', [h]);
        expect(await result<string>(third.port, 'getblockhash', [h])).toBe(hash);
        expect((await rpc(third.port, 'getblock', [hash, 0])).text).toContain(`"code":-32603,"message":"Can't read block from disk"`);
      }
    });
  });

  describe('on a regtest chain that reorganizes', () => {
    const dir = tempDir('tier-regtest');
    const tier = new Tier();
    const zebra = new UpstreamServer(null);
    afterAll(async () => {
      await tier.stop();
      await zebra.stop();
      dir.remove();
    });

    it(
      'follows the tip and a reorganization, and loses no request to SIGKILL of a replica or SIGTERM of the other',
      { timeout: LONG },
      async () => {
        const v = regtestReorg();
        const baseTip = v.manifest.base.at(-1)!.hash;
        const branchTip = v.manifest.branch.at(-1)!.hash;
        const losing = new Set(v.manifest.base.filter((b) => b.height > v.manifest.forkHeight).map((b) => b.hash));

        // The primary: `zecrpc import` of blocks 0..20, then serving and following the node in
        // front of it (a stand-in for Zebra, answering getblockcount, getblockhash, getblock 0).
        const primaryDir = join(dir.path, 'primary');
        mkdirSync(primaryDir);
        const firstBlocks = join(dir.path, 'base-0-20.hex');
        writeFileSync(
          firstBlocks,
          v.base
            .slice(0, 21)
            .map((b) => Buffer.from(b).toString('hex'))
            .join('\n') + '\n',
        );
        expect(zecrpcImport(['-regtest', `-datadir=${primaryDir}`, '--hex', firstBlocks])).toMatch(/tip 20 /);
        zebra.setChain(v.base.slice(0, 21));
        const zebraUrl = await zebra.start();
        const primary = await startZecrpc('primary', ['-regtest', `-datadir=${primaryDir}`, `-upstream=${zebraUrl}`, POLL]);
        tier.processes.push(primary);

        // Two replicas from genesis, following the primary.
        const replicaArgs = (name: string) => ['-regtest', `-datadir=${join(dir.path, name)}`, ...followPrimary(primary)];
        const replicas: ZecrpcProcess[] = [];
        for (const name of ['replica1', 'replica2']) {
          mkdirSync(join(dir.path, name));
          const r = await startZecrpc(name, replicaArgs(name));
          tier.processes.push(r);
          replicas.push(r);
        }
        const allAt = async (hash: string, who: readonly ZecrpcProcess[] = [primary, ...replicas]) => {
          for (const p of who) await until(async () => (await bestHash(p.port)) === hash, `${p.name} at ${hash}`);
        };
        await allAt(v.manifest.base[20]!.hash);
        tier.balancer = await startBalancer(dir.path, replicas);
        const lb = tier.balancer.port;

        // Following the tip: ten more blocks upstream reach every replica, and the balancer.
        zebra.setChain(v.base);
        await allAt(baseTip);
        expect(await result<number>(lb, 'getblockcount')).toBe(30);
        // A replica reports its lag over RPC: headers is the primary's height as last polled.
        for (const r of replicas) {
          const info = await result<{ blocks: number; headers: number }>(r.port, 'getblockchaininfo');
          expect([info.blocks, info.headers]).toEqual([30, 30]);
        }

        // The reorganization: upstream switches to a branch with more work (forking after height 10).
        const seenThroughBalancer: string[] = [];
        let watching = true;
        const watcher = (async () => {
          while (watching) seenThroughBalancer.push(await bestHash(lb).catch((e: Error) => `error ${e.message}`));
        })();
        zebra.setChain([...v.base.slice(0, v.manifest.forkHeight + 1), ...v.branch]);
        await allAt(branchTip);
        const afterSwitch = seenThroughBalancer.length;
        // Every replica switched; from now on the balancer never answers with the losing branch.
        await until(async () => seenThroughBalancer.length >= afterSwitch + 50, '50 answers through the balancer after the switch');
        watching = false;
        await watcher;
        expect(seenThroughBalancer.filter((h) => h.startsWith('error'))).toEqual([]);
        // (The answer in flight when the last switch was seen may predate it: skip that one.)
        const afterwards = seenThroughBalancer.slice(afterSwitch + 1);
        expect(afterwards.filter((h) => losing.has(h))).toEqual([]);
        expect(new Set(afterwards)).toEqual(new Set([branchTip]));
        for (let i = 0; i < 4; i++) {
          const abandoned = await result<{ confirmations: number }>(lb, 'getblock', [baseTip, 1]);
          expect(abandoned.confirmations).toBe(-1);
          expect(await result<string>(lb, 'getblockhash', [30])).toBe(v.manifest.branch.find((b) => b.height === 30)!.hash);
        }

        // SIGKILL one replica under steady load: HAProxy retries and redispatches, no request fails.
        const reads = [
          { method: 'getbestblockhash', params: [] },
          { method: 'getblockcount', params: [] },
          { method: 'getblock', params: ['25', 2] },
          { method: 'getblockheader', params: [branchTip] },
          { method: 'getblockchaininfo', params: [] },
        ];
        const load = steadyLoad(lb, reads);
        await until(async () => load.record.ok >= 100, 'load to run');
        const [victim, survivor] = replicas as [ZecrpcProcess, ZecrpcProcess];
        victim.kill('SIGKILL');
        expect(await victim.exited).toBeNull();
        const atKill = load.record.ok;
        // While it is down upstream grows five blocks: the primary and the survivor follow.
        const branchTipBlock = v.branch.at(-1)!;
        const parent: BuiltBlock = {
          height: 45,
          hash: ChainStore.hashOf(branchTipBlock),
          hashHex: branchTip,
          bytes: branchTipBlock,
        };
        const more = buildChain(parent, 5, 'replica-test');
        zebra.setChain([...v.base.slice(0, v.manifest.forkHeight + 1), ...v.branch, ...more.map((b) => b.bytes)]);
        const newTip = more.at(-1)!.hashHex;
        await allAt(newTip, [primary, survivor]);
        await until(async () => load.record.ok >= atKill + 300, '300 answers after the kill');

        // Restarted on its port and store, it catches up with the blocks it missed.
        const restarted = await startZecrpc(victim.name, replicaArgs(victim.name), victim.port);
        tier.processes[tier.processes.indexOf(victim)] = restarted;
        await allAt(newTip, [restarted]);
        const atRestart = load.record.ok;
        await until(async () => load.record.ok >= atRestart + 300, '300 answers after the restart');

        // Up to here (a SIGKILL, a restart and catching up) not one request failed.
        expect(load.record.failures).toEqual([]);

        // SIGTERM stops the other once HAProxy holds the restarted one UP again (before that, every
        // retry would go to the replica that stopped listening: drain.test.ts), and no request fails.
        const balancer = tier.balancer;
        await until(async () => (await balancer.serversUp()).length === 2, 'HAProxy to hold both replicas UP');
        survivor.kill('SIGTERM');
        expect(await survivor.exited).toBe(0);
        tier.processes[tier.processes.indexOf(survivor)] = null;
        const atDrain = load.record.ok;
        await until(async () => load.record.ok >= atDrain + 300, '300 answers after the drain');
        await load.stop();
        expect(load.record.failures).toEqual([]);
        expect(await bestHash(lb)).toBe(newTip);
      },
    );
  });
});
