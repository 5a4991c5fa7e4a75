/**
 * The bench's servers on several processes (bench/lib/cluster-workers.ts): zecrpc's bench server
 * with PROCESSES=2 answers from two workers on one port, each exactly as one server does, and
 * stops them both; a LevelDB store, which opens in one process, is refused.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startChildServer } from '../../bench/lib/child-server.js';
import { largeTransactions } from '../../bench/lib/large-transactions.js';
import { childPids, processCpuMicros, processTreeCpuMicros } from '../../bench/lib/process-cpu.js';
import { captureReply, replyParts } from '../../bench/lib/raw-http.js';
import { toHex } from '../../src/codec/hex.js';
import { txToJsonBytes } from '../../src/render/tx.js';

describe('a bench server on two processes', () => {
  it('answers every request from its workers as one server does, and stops them with it', async () => {
    const t = largeTransactions().find((x) => x.name === 'main-3428145#3')!;
    const body = `{"jsonrpc":"1.0","id":1,"method":"decoderawtransaction","params":["${toHex(t.tx.bytes)}"]}`;
    const want = Buffer.concat([Buffer.from('{"result":'), txToJsonBytes(t.tx, t.params), Buffer.from(',"error":null,"id":1}\n')]);
    const server = await startChildServer('bench/lib/zecrpc-server.ts', { SERVE: 'decoderaw', CACHE: '0', PROCESSES: '2' });
    try {
      const workers = childPids(server.pid);
      expect(workers).toHaveLength(2);
      // Sixteen connections at once, handed out to both workers.
      const replies = await Promise.all(Array.from({ length: 16 }, () => captureReply(server.port, body)));
      for (const r of replies) expect(replyParts(r).body.equals(want)).toBe(true);
      // The tree's CPU counts the workers' too: at least the primary's own.
      expect(processTreeCpuMicros(server.pid)).toBeGreaterThanOrEqual(processCpuMicros(server.pid));
      await server.stop();
      for (const pid of workers) expect(existsSync(`/proc/${pid}`)).toBe(false);
    } finally {
      await server.stop();
    }
  });

  it('refuses a LevelDB store, which one process opens', async () => {
    await expect(
      startChildServer('bench/lib/zecrpc-server.ts', { SERVE: 'datadir', DATADIR: '/nonexistent', PROCESSES: '2' }),
    ).rejects.toThrow(/exited/);
  });
});
