/**
 * The kernel tier large-tx's `--kernel-tier` measures (bench/lib/kernel-tier.ts): two of zecrpc's
 * bench servers sharing one address through deploy/nftables-replicas.nft, loaded for real. A real
 * transaction's decoderawtransaction reply through it is the single server's byte for byte, the
 * connections alternate between the replicas, and stopping the tier removes its rules. Runs where
 * nft can load a table (Debian's nftables package and CAP_NET_ADMIN); CI installs nftables and
 * fails without it, as it does for haproxy.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '../../bench/lib/child-server.js';
import {
  connectionsPerReplica,
  findNft,
  nftablesRules,
  shippedReplicaCount,
  startKernelTier,
  tableName,
} from '../../bench/lib/kernel-tier.js';
import { largeTransactions } from '../../bench/lib/large-transactions.js';
import { captureReply, replyParts } from '../../bench/lib/raw-http.js';
import { toHex } from '../../src/codec/hex.js';
import { txToJsonBytes } from '../../src/render/tx.js';

const nft = findNft();
/** Whether this process may load NAT rules as the shipped file's: a table with an output nat chain made and deleted. */
function canLoad(): boolean {
  if (nft === null) return false;
  const table = `zecrpc_probe_${process.pid}`;
  const probe = `table ip ${table} {\n  chain output {\n    type nat hook output priority -100; policy accept;\n  }\n}\n`;
  const made = spawnSync(nft, ['-f', '-'], { input: probe }).status === 0;
  spawnSync(nft, ['delete', 'table', 'ip', table]);
  return made;
}
/** The kernel tiers' tables loaded now, this test's and any a bench run holds. */
function benchTables(): string[] {
  return execFileSync(nft!, ['list', 'tables'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes('zecrpc_bench_'));
}
const loadable = canLoad();
const DECODERAW = { SERVE: 'decoderaw', NETWORK: 'mainnet', CACHE: '0', ARGS: '-rpcworkqueue=64' };

describe('the kernel tier’s rules', () => {
  it('are the shipped file with the bench’s address, ports and table name', () => {
    expect(shippedReplicaCount()).toBe(2);
    const rules = nftablesRules(40_000, [40_001, 40_002], 'zecrpc_bench_40000');
    expect(rules).toMatch(/^define RPC_ADDRESS = 127\.0\.0\.1$/m);
    expect(rules).toMatch(/^define RPC_PORT = 40000$/m);
    expect(rules).toMatch(/^define REPLICA1_PORT = 40001$/m);
    expect(rules).toMatch(/^define REPLICA2_PORT = 40002$/m);
    expect(rules).toMatch(/^table ip zecrpc_bench_40000 \{$/m);
    expect(rules).not.toContain('zecrpc_replicas');
    expect(rules).toMatch(/^delete table ip zecrpc_bench_40000$/m);
    expect(() => nftablesRules(40_000, [40_001], 'x')).toThrow('spreads over 2 replicas, not 1');
  });
});

describe.runIf(nft === null && process.env.CI)('the kernel tier in CI', () => {
  it('needs nft', () => {
    throw new Error("nft is not installed: .ci/run installs Debian's nftables package; the kernel tier's test cannot run without it");
  });
});

describe.runIf(loadable)('the bench kernel tier: two bench servers behind deploy/nftables-replicas.nft', () => {
  const servers: ChildServer[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 3; i++) servers.push(await startChildServer('bench/lib/zecrpc-server.ts', DECODERAW));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it("hands connections to each replica in turn, with the single server's bytes, and removes its rules when stopped", async () => {
    const [single, ...replicas] = servers as [ChildServer, ...ChildServer[]];
    const t = largeTransactions().find((x) => x.name === 'main-106598#40')!;
    const body = `{"jsonrpc":"1.0","id":1,"method":"decoderawtransaction","params":["${toHex(t.tx.bytes)}"]}`;
    const want = Buffer.concat([Buffer.from('{"result":'), txToJsonBytes(t.tx, t.params), Buffer.from(',"error":null,"id":1}\n')]);
    const alone = await captureReply(single.port, body);
    expect(replyParts(alone).body.equals(want)).toBe(true);

    const tier = await startKernelTier(replicas);
    const table = tableName(tier.port);
    try {
      expect([single.port, ...replicas.map((r) => r.port)]).not.toContain(tier.port);
      // The holder's start-up check sent one connection to each replica.
      expect(tier.connections()).toEqual([1, 1]);
      // One connection a request: four alternate over the two replicas.
      for (let i = 0; i < 4; i++) {
        const r = await captureReply(tier.port, body);
        expect(r.status).toBe(200);
        expect(replyParts(r).body.equals(want)).toBe(true);
      }
      expect(tier.connections()).toEqual([3, 3]);
      expect(connectionsPerReplica(execFileSync(nft!, ['-j', 'list', 'table', 'ip', table], { encoding: 'utf8' }))).toEqual([3, 3]);
    } finally {
      await tier.stop();
    }
    expect(spawnSync(nft!, ['list', 'table', 'ip', table]).status).not.toBe(0);
  });

  it('refuses to start when a replica behind the rules does not answer', async () => {
    const [, first] = servers as [ChildServer, ChildServer];
    // A bench run elsewhere on the host may hold tables of its own: only this start's may not remain.
    const before = benchTables();
    await expect(startKernelTier([first, { ...first, port: 1 }])).rejects.toThrow(
      'bench/lib/nft-balancer-server.ts exited with 1 before listening',
    );
    expect(benchTables()).toEqual(before);
  });
});
