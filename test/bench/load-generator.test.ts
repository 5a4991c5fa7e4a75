// The HTTP benches' load generator: every request answered and timed, wrong answers counted, a
// job shared between processes, and every process a bench starts ending when its parent dies.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childNodeArgs } from '../../bench/lib/bench-child.js';
import { runJob } from '../../bench/lib/timed-client.js';
import { LoadGenerator } from '../../bench/lib/load-generator.js';
import { requestBytes } from '../../bench/lib/raw-http.js';

const BODY = Buffer.alloc(20_000, 'x');
let server: Server;
let port = 0;
let replyBytes = 0;

beforeAll(async () => {
  // Answers 200 with BODY, or 500 for a request whose body says so.
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      res.statusCode = text === 'fail' ? 500 : 200;
      res.end(BODY);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as { port: number }).port;
  // The whole reply's size, head included, as a bench measures it beforehand.
  const head = await new Promise<number>((done) => {
    const c = connect(port, '127.0.0.1');
    let got = Buffer.alloc(0);
    c.on('data', (d: Buffer) => {
      got = Buffer.concat([got, d]);
      const sep = got.indexOf('\r\n\r\n');
      if (sep >= 0 && got.length >= sep + 4 + BODY.length) {
        c.destroy();
        done(sep + 4);
      }
    });
    c.write(requestBytes(port, '{}'));
  });
  replyBytes = head + BODY.length;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('load client', () => {
  it('answers the amount asked for over several connections, each request timed', async () => {
    const r = await runJob({ port, request: requestBytes(port, '{}'), connections: 3, amount: 200, replyBytes });
    expect(r.latenciesNs.length).toBe(200);
    expect(r.failures).toBe(0);
    expect(r.latenciesNs.every((ns) => ns > 0)).toBe(true);
    expect(r.lastReceivedNs > r.firstSentNs).toBe(true);
  });

  it('counts an error status and a reply of the wrong size as failures', async () => {
    const failed = await runJob({ port, request: requestBytes(port, 'fail'), connections: 2, amount: 20, replyBytes });
    expect(failed).toMatchObject({ failures: 20 });
    const wrongSize = await runJob({ port, request: requestBytes(port, '{}'), connections: 1, amount: 5, replyBytes: replyBytes * 2 });
    expect(wrongSize.failures).toBe(5);
  });

  it('counts a refused connection as a failure and goes on', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const deadPort = (closed.address() as { port: number }).port;
    await new Promise<void>((done) => closed.close(() => done()));
    const r = await runJob({ port: deadPort, request: requestBytes(deadPort, '{}'), connections: 2, amount: 6, replyBytes });
    expect(r.failures).toBe(6);
  });
});

describe('load generator', () => {
  it('shares a job between its processes and pools what they measured', async () => {
    const g = new LoadGenerator(2);
    try {
      const r = await g.run({ port, request: requestBytes(port, '{}'), connections: 5, amount: 301, replyBytes });
      // 3 and 2 connections: 181 and 120 requests.
      expect(r.latenciesNs.map((l) => l.length)).toEqual([181, 120]);
      expect(r).toMatchObject({ answered: 301, failures: 0 });
      expect(r.seconds).toBeGreaterThan(0);
      // One connection: one process.
      expect((await g.run({ port, request: requestBytes(port, '{}'), connections: 1, amount: 10, replyBytes })).latenciesNs.length).toBe(1);
    } finally {
      g.stop();
    }
  });
});

describe('bench child processes', () => {
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  async function gone(pid: number): Promise<boolean> {
    for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    return !alive(pid);
  }

  // A parent that starts a bench child (the ceiling server) and prints its pid, then is killed
  // with SIGKILL, so nothing of its own runs at its death.
  async function orphan(ipc: boolean): Promise<number> {
    const dir = mkdtempSync(join(tmpdir(), 'zecrpc-bench-child-'));
    try {
      writeFileSync(join(dir, 'replies.json'), '[]');
      const parentScript = `
        const { spawn } = require('node:child_process');
        const child = spawn(process.execPath, ${JSON.stringify([...childNodeArgs(), 'bench/lib/ceiling-server.ts'])}, {
          env: { ...process.env, REPLIES: ${JSON.stringify(join(dir, 'replies.json'))} },
          stdio: ['ignore', 'pipe', 'inherit'${ipc ? ", 'ipc'" : ''}],
        });
        child.stdout.on('data', (d) => { if (/PORT/.test(d)) process.stdout.write('CHILD ' + child.pid + '\\n'); });
      `;
      const parent = spawn(process.execPath, ['-e', parentScript], { stdio: ['ignore', 'pipe', 'inherit'] });
      const pid = await new Promise<number>((done, fail) => {
        let out = '';
        parent.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /CHILD (\d+)/.exec(out);
          if (m) done(Number(m[1]));
        });
        parent.once('exit', (code) => fail(new Error(`parent exited (${code}) before its child listened`)));
      });
      expect(alive(pid)).toBe(true);
      parent.kill('SIGKILL');
      return pid;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('end when their parent is killed: over the IPC channel', async () => {
    expect(await gone(await orphan(true))).toBe(true);
  });

  it('end when their parent is killed: without a channel, by noticing they were reparented', async () => {
    expect(await gone(await orphan(false))).toBe(true);
  });
});
