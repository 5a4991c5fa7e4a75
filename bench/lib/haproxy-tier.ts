/**
 * zecrpc's bench servers as docs/scale-out.md spreads reads over cores: replicas, each its own
 * process with its own copy of the store, behind HAProxy with deploy/haproxy.cfg
 * (haproxy-server.ts). What an operator gets from several zecrpc processes, the balancer's work
 * included.
 */
import { startChildServer, type ChildOptions, type ChildServer } from './child-server.js';

export interface HaproxyTier {
  /** HAProxy's port: where clients send their requests. */
  port: number;
  replicas: readonly ChildServer[];
  /** The haproxy process (its CPU is the balancer's share), held by a child of this process. */
  haproxyPid: number;
  stop(): Promise<void>;
}

/**
 * HAProxy in front of `replicas` (already listening); resolves once each has passed a health
 * check calling `checkMethod` (getblockcount, as shipped, unless named). Stopping the tier stops
 * HAProxy, not the replicas.
 */
export async function startHaproxyTier(
  replicas: readonly ChildServer[],
  checkMethod: string | undefined,
  options: Pick<ChildOptions, 'mode'> = {},
): Promise<HaproxyTier> {
  const env: Record<string, string> = {
    BACKENDS: replicas.map((r) => r.port).join(' '),
    ...(checkMethod ? { CHECK_METHOD: checkMethod } : {}),
  };
  const balancer = await startChildServer('bench/lib/haproxy-server.ts', env, options);
  const [haproxyPid] = balancer.workers;
  if (haproxyPid === undefined || balancer.workers.length !== 1) {
    await balancer.stop();
    throw new Error(`haproxy-server.ts printed ${balancer.workers.length} pids, not haproxy's one`);
  }
  return { port: balancer.port, replicas, haproxyPid, stop: () => balancer.stop() };
}

/** The rows of HAProxy's `show stat` (CSV, a `# ` header naming the columns) for its servers, as name → column → value. */
function serverRows(stat: string): Map<string, Record<string, string>> {
  const [header, ...lines] = stat.split('\n').filter((l) => l.trim() !== '');
  if (!header?.startsWith('# ')) throw new Error(`not a show stat answer: ${stat.slice(0, 200)}`);
  const columns = header.slice(2).split(',');
  const rows = new Map<string, Record<string, string>>();
  for (const line of lines) {
    const values = line.split(',');
    const row = Object.fromEntries(columns.map((c, i) => [c, values[i] ?? '']));
    if (row.svname !== 'FRONTEND' && row.svname !== 'BACKEND') rows.set(row.svname!, row);
  }
  return rows;
}

/** The servers whose last health check passed (check_status L7OK: the expected HTTP status). */
export function passedChecks(stat: string): string[] {
  return [...serverRows(stat)].filter(([, r]) => /^(\* ?)?L7OK$/.test(r.check_status!)).map(([name]) => name);
}

/**
 * The servers whose last health check failed, each with what HAProxy says of it (check_status
 * such as L7STS, a wrong HTTP status, or L4CON, refused; last_chk, its detail); one still
 * running its first check (INI, or `*` before a status) has not failed.
 */
export function failedChecks(stat: string): string[] {
  return [...serverRows(stat)]
    .filter(([, r]) => r.check_status !== '' && !/^(\* ?)?(L7OK|INI)$/.test(r.check_status!))
    .map(([name, r]) => `${name}: ${r.check_status} ${r.last_chk}`);
}
