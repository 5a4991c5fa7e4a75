/**
 * Heavy clients for run.ts p99 in a process of their own, so reading their multi-megabyte
 * replies does not delay the probe measured in run.ts:
 *   load-child.ts <port> <connections> <ms>
 * Prints `READY` once its fixtures are built and the clients start, then the result as JSON.
 */
import { getblock2, load } from './load.js';

const [port, connections, ms] = process.argv.slice(2).map(Number);
process.stdout.write('READY\n');
const r = await load(port!, connections!, ms!, getblock2);
process.stdout.write(JSON.stringify({ ok: r.ok, wrong: r.wrong }) + '\n');
