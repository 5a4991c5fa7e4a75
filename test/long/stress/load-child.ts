/**
 * Heavy clients for run.ts p99 and storm in a process of their own, so reading their
 * multi-megabyte replies does not delay the probes measured in run.ts:
 *   load-child.ts <port> <connections> <ms> [mixed]
 * Without `mixed`, getblock 2 in a loop; with it, the long run's mix (requestFor), every answer
 * parsed and checked. Prints `READY` once its fixtures are built and the clients start, then the
 * result as JSON.
 */
import { getblock2, load, pct, requestFor } from './load.js';

const [port, connections, ms] = process.argv.slice(2, 5).map(Number);
const mixed = process.argv[5] === 'mixed';
process.stdout.write('READY\n');
const r = await load(port!, connections!, ms!, mixed ? requestFor : getblock2, mixed);
process.stdout.write(
  JSON.stringify({
    ok: r.ok,
    wrong: r.wrong,
    shed: r.shed,
    budget: r.budget,
    failures: r.failures,
    failureReasons: Object.fromEntries(r.failureReasons),
    failed: r.failed,
    p50: pct(r.latencies, 50),
    p99: pct(r.latencies, 99),
  }) + '\n',
);
