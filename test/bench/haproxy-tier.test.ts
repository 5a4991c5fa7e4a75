/**
 * The replica tier large-tx's `--replicas` measures (bench/lib/haproxy-tier.ts): two of zecrpc's
 * bench servers, each its own process, behind a real HAProxy with deploy/haproxy.cfg. A real
 * transaction's decoderawtransaction reply through HAProxy is the single server's byte for byte;
 * a health check the replicas fail keeps the tier from starting; stopping the tier ends HAProxy.
 * Skipped where haproxy is not installed, except in CI, which installs it (as test/scale-out/).
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '../../bench/lib/child-server.js';
import { startHaproxyTier } from '../../bench/lib/haproxy-tier.js';
import { largeTransactions } from '../../bench/lib/large-transactions.js';
import { captureReply, replyParts } from '../../bench/lib/raw-http.js';
import { toHex } from '../../src/codec/hex.js';
import { txToJsonBytes } from '../../src/render/tx.js';
import { findHaproxy } from '../support/replica-tier.js';

const haproxy = findHaproxy();
/** The bench's uncached decoderawtransaction server, as large-tx.ts starts it for mainnet transactions. */
const DECODERAW = { SERVE: 'decoderaw', NETWORK: 'mainnet', CACHE: '0', ARGS: '-rpcworkqueue=64' };

describe.runIf(haproxy === null && process.env.CI)('the bench replica tier in CI', () => {
  it('needs haproxy', () => {
    throw new Error("haproxy is not installed: .ci/run installs Debian's haproxy package; the replica tier's test cannot run without it");
  });
});

describe.runIf(haproxy !== null)('the bench replica tier: two bench servers behind HAProxy', () => {
  const servers: ChildServer[] = [];
  let single: ChildServer;
  let replicas: ChildServer[];
  beforeAll(async () => {
    for (let i = 0; i < 3; i++) servers.push(await startChildServer('bench/lib/zecrpc-server.ts', DECODERAW));
    [single, ...replicas] = servers as [ChildServer, ...ChildServer[]];
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it("answers decoderawtransaction of a real transaction through HAProxy with the single server's bytes", async () => {
    const t = largeTransactions().find((x) => x.name === 'main-106598#40')!;
    const body = `{"jsonrpc":"1.0","id":1,"method":"decoderawtransaction","params":["${toHex(t.tx.bytes)}"]}`;
    const want = Buffer.concat([Buffer.from('{"result":'), txToJsonBytes(t.tx, t.params), Buffer.from(',"error":null,"id":1}\n')]);
    const alone = await captureReply(single.port, body);
    expect(alone.status).toBe(200);
    expect(replyParts(alone).body.equals(want)).toBe(true);

    // The bench servers hold no chain: the health check calls help, as large-tx.ts configures it.
    const tier = await startHaproxyTier(replicas, 'help');
    const haproxyPid = tier.haproxyPid;
    try {
      expect(tier.port).not.toBe(single.port);
      expect(replicas.map((r) => r.port)).not.toContain(tier.port);
      // Several at once, so that HAProxy's leastconn hands them to both replicas.
      const through = await Promise.all(Array.from({ length: 8 }, () => captureReply(tier.port, body)));
      for (const r of through) {
        expect(r.status).toBe(200);
        expect(replyParts(r).body.equals(replyParts(alone).body)).toBe(true);
      }
      // Each replica on its own gives them too.
      for (const r of replicas) expect(replyParts(await captureReply(r.port, body)).body.equals(want)).toBe(true);
    } finally {
      await tier.stop();
    }
    expect(existsSync(`/proc/${haproxyPid}`)).toBe(false);
  });

  it("refuses to start when the replicas fail HAProxy's health check (the shipped getblockcount, which they do not serve)", async () => {
    await expect(startHaproxyTier(replicas, undefined)).rejects.toThrow('bench/lib/haproxy-server.ts exited with 1 before listening');
  });
});
