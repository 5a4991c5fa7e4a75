/**
 * HAProxy in front of bench servers, as a bench child (child-server.ts): deploy/haproxy.cfg with
 * the given backends and the bench's credentials in its health check (test/support/replica-tier.ts'
 * haproxyConfig, as the scale-out test and bench generate it), run in the foreground. Once every
 * backend has passed a health check it prints `WORKERS <haproxy's pid>` and `PORT <n>`, so the
 * bench reads HAProxy's CPU from its pid.
 *
 * HAProxy is no Node process and cannot watch its parent: this process holds it, and ends it on
 * SIGTERM, which exit-with-parent.ts sends when the bench dies. HAProxy ending on its own ends
 * this process too, so a run never goes on without its balancer.
 *
 *   BACKENDS="<port> <port> …"   the bench servers, named replica1, replica2, … in the configuration
 *   CHECK_METHOD=<method>        what the health check calls (deploy/haproxy.cfg's getblockcount unless set)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findHaproxy, freePort, haproxyConfig, startHaproxy } from '../../test/support/replica-tier.js';
import { failedChecks, passedChecks } from './haproxy-tier.js';
import { BENCH_PASSWORD, BENCH_USER } from './raw-http.js';
import { backendPortsFromEnv } from './backend-ports.js';

/** How long the first health checks (`inter 1s`) may take to pass before the start is given up. */
const CHECKS_LIMIT_MS = 20_000;

const binary = findHaproxy();
if (binary === null) throw new Error('haproxy is not installed (Debian package haproxy): the replica tier needs it');
const ports = backendPortsFromEnv();
const servers = ports.map((port, i) => ({ name: `replica${i + 1}`, port }));
const check = { user: BENCH_USER, password: BENCH_PASSWORD, ...(process.env.CHECK_METHOD ? { method: process.env.CHECK_METHOD } : {}) };

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-bench-haproxy-'));
const port = await freePort();
const balancer = await startHaproxy(binary, dir, haproxyConfig(port, servers, check), port);
let stopping = false;
const stop = async (code: number): Promise<void> => {
  stopping = true;
  await balancer.stop();
  rmSync(dir, { recursive: true, force: true });
  process.exit(code);
};
process.once('SIGTERM', () => void stop(0));
void balancer.exited.then((code) => {
  if (stopping) return;
  process.stderr.write(`haproxy exited with ${code}:\n${balancer.output.join('')}\n`);
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
});

/** Every backend's check passed: HAProxy counts servers UP before their first check. Throws when one failed or time ran out. */
async function checksPassed(): Promise<void> {
  const deadline = Date.now() + CHECKS_LIMIT_MS;
  let failed: string[] = [];
  while (Date.now() < deadline) {
    // The runtime API's socket appears once HAProxy has started: until then, no answer.
    const stat = await balancer.command('show stat').catch(() => null);
    if (stat !== null) {
      if (passedChecks(stat).length === servers.length) return;
      failed = failedChecks(stat);
      if (failed.length > 0) break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    failed.length > 0
      ? `HAProxy's health checks failed: ${failed.join('; ')}`
      : `HAProxy's health checks had not all passed after ${CHECKS_LIMIT_MS / 1000} s`,
  );
}

try {
  await checksPassed();
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  await stop(1);
}
process.stdout.write(`WORKERS ${balancer.pid}\nPORT ${port}\n`);
