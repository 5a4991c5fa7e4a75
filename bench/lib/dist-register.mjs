/**
 * `node --import bench/lib/dist-register.mjs script.ts`: registers dist-hooks.mjs with the
 * checkouts named by ZECRPC_BENCH_ROOT (measured) and ZECRPC_BENCH_REPO (the bench's own).
 */
import { register } from 'node:module';

const root = process.env.ZECRPC_BENCH_ROOT;
const bench = process.env.ZECRPC_BENCH_REPO;
if (!root || !bench) throw new Error('dist-register.mjs needs ZECRPC_BENCH_ROOT and ZECRPC_BENCH_REPO');
register('./dist-hooks.mjs', import.meta.url, { data: { root, bench } });
