/**
 * The bench's servers on several processes (bench/lib/cluster-workers.ts): zecrpc's bench server
 * with PROCESSES=2 answers from two workers on one port (their pids printed for the bench to
 * read their CPU), each exactly as one server does, and stops them both; a LevelDB store, which
 * opens in one process, is refused.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChildServer } from '../../bench/lib/child-server.js';
import { largeTransactions } from '../../bench/lib/large-transactions.js';
import { captureReply, replyParts } from '../../bench/lib/raw-http.js';
import { toHex } from '../../src/codec/hex.js';
import { txToJsonBytes } from '../../src/render/tx.js';

describe('a bench server on two processes', () => {
  it('answers every request from its workers as one server does, and stops them with it', async () => {
    const t = largeTransactions().find((x) => x.name === 'main-3428145#3')!;
    const body = `{"jsonrpc":"1.0","id":1,"method":"decoderawtransaction","params":["${toHex(t.tx.bytes)}"]}`;
    const want = Buffer.concat([Buffer.from('{"result":'), txToJsonBytes(t.tx, t.params), Buffer.from(',"error":null,"id":1}\n')]);
    const server = await startChildServer('bench/lib/zecrpc-server.ts', { SERVE: 'decoderaw', CACHE: '0', PROCESSES: '2' });
    const workers = server.workers;
    try {
      expect(workers).toHaveLength(2);
      expect(new Set([server.pid, ...workers]).size).toBe(3);
      // Sixteen connections at once, handed out to both workers.
      const replies = await Promise.all(Array.from({ length: 16 }, () => captureReply(server.port, body)));
      for (const r of replies) expect(replyParts(r).body.equals(want)).toBe(true);
    } finally {
      await server.stop();
    }
    for (const pid of workers) expect(existsSync(`/proc/${pid}`)).toBe(false);
  });

  it('refuses a LevelDB store, which one process opens, before it starts anything', () => {
    const datadir = join(mkdtempSync(join(tmpdir(), 'zecrpc-cluster-refusal-')), 'store');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/lib/zecrpc-server.ts'], {
      env: { ...process.env, SERVE: 'datadir', DATADIR: datadir, PROCESSES: '2' },
      encoding: 'utf8',
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('a LevelDB store opens in one process only');
    expect(existsSync(datadir)).toBe(false);
  });
});
