// A read tier as docs/scale-out.md deploys it, on one machine: zecrpc processes (a primary and
// replicas following it with -upstream, started from bin/zecrpc.js, the compiled CLI) and
// HAProxy in front of the replicas, configured from deploy/haproxy.cfg. Shared by
// test/scale-out/ and bench/scale-out.ts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const ZECRPC = join(REPO, 'bin', 'zecrpc.js');
export const RPC_USER = 'u';
export const RPC_PASSWORD = 'p';
const AUTH = 'Basic ' + Buffer.from(`${RPC_USER}:${RPC_PASSWORD}`).toString('base64');

/** An executable `name` on PATH (root's sbin directories included, where Debian puts daemons' tools), or null. */
export function findSystemTool(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const d of dirs) {
    const candidate = join(d, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

/** The haproxy binary, or null. */
export const findHaproxy = (): string | null => findSystemTool('haproxy');

/** Whether the compiled CLI that bin/zecrpc.js runs is there (`npm run build`, or `npm ci`). */
export const builtCli = (): boolean => existsSync(join(REPO, 'dist', 'src', 'cli.js'));

/** A port nothing listens on at the moment of asking. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** `zecrpc import` (the CLI, in a child process); throws with its output if it fails. */
export function zecrpcImport(args: readonly string[]): string {
  const r = spawnSync(process.execPath, [ZECRPC, 'import', ...args, '--progress', 'silent'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`zecrpc import ${args.join(' ')} exited with ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

export interface ZecrpcProcess {
  readonly name: string;
  readonly pid: number;
  readonly port: number;
  /** Every log line so far. */
  readonly log: string[];
  /** Resolves with the exit code (null when killed by a signal) once the process has exited. */
  readonly exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * Starts `zecrpc serve` with `args` (plus the tier's credentials and -rpcport, 0 unless given);
 * resolves once it listens, with the port it announced.
 */
export async function startZecrpc(name: string, args: readonly string[], port = 0): Promise<ZecrpcProcess> {
  const proc: ChildProcess = spawn(
    process.execPath,
    [ZECRPC, 'serve', `-rpcport=${port}`, `-rpcuser=${RPC_USER}`, `-rpcpassword=${RPC_PASSWORD}`, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const log: string[] = [];
  let partial = '';
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const listening = new Promise<number>((done, fail) => {
    const onData = (d: Buffer): void => {
      partial += d.toString();
      const lines = partial.split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        log.push(line);
        const m = /"listen":\["[^"]*:(\d+)"/.exec(line);
        if (m && line.includes('zecrpc serving JSON-RPC')) done(Number(m[1]));
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (d: Buffer) => log.push(d.toString()));
    void exited.then((code) => fail(new Error(`zecrpc ${name} exited with ${code} before listening:\n${log.join('\n')}`)));
  });
  const announced = await listening;
  return { name, pid: proc.pid!, port: announced, log, exited, kill: (signal) => void proc.kill(signal) };
}

/** Stops a zecrpc with SIGTERM (if it still runs) and waits for it. */
export async function stopZecrpc(p: ZecrpcProcess | null | undefined): Promise<void> {
  if (!p) return;
  p.kill('SIGTERM');
  await p.exited;
}

/** The replicas' credentials and the method the health check calls (deploy/haproxy.cfg's getblockcount unless named). */
export interface HealthCheck {
  user: string;
  password: string;
  /** A method every replica serves without parameters (a bench server without a chain has no getblockcount). */
  method?: string;
}

/**
 * deploy/haproxy.cfg with the frontend on 127.0.0.1:`port`, the given backends as its servers
 * and the health check's credentials the replicas' (the tier's unless `check` names others);
 * everything else as shipped.
 */
export function haproxyConfig(
  port: number,
  servers: readonly { name: string; port: number }[],
  check: HealthCheck = { user: RPC_USER, password: RPC_PASSWORD },
): string {
  const shipped = readFileSync(join(REPO, 'deploy', 'haproxy.cfg'), 'utf8');
  const auth = 'Basic ' + Buffer.from(`${check.user}:${check.password}`).toString('base64');
  const lines = shipped.split('\n').filter((l) => !/^\s*server\s/.test(l));
  const out = lines.map((l) => {
    if (/^\s*bind\s/.test(l)) return `    bind 127.0.0.1:${port}`;
    const withAuth = l.replace(/Authorization "Basic [A-Za-z0-9+/=]+"/, `Authorization "${auth}"`);
    return check.method && /^\s*http-check send /.test(l)
      ? withAuth.replace('"method":"getblockcount"', `"method":"${check.method}"`)
      : withAuth;
  });
  const at = out.findIndex((l) => /^\s*default-server\s/.test(l));
  if (at < 0 || !shipped.includes('Authorization "Basic ')) throw new Error('deploy/haproxy.cfg: no default-server or check credentials');
  if (check.method && !out.some((l) => /^\s*http-check send .*"method":"/.test(l) && l.includes(`"method":"${check.method}"`)))
    throw new Error('deploy/haproxy.cfg: no http-check send line calling getblockcount to replace');
  out.splice(at + 1, 0, ...servers.map((s) => `    server ${s.name} 127.0.0.1:${s.port}`));
  return out.join('\n');
}

export interface Haproxy {
  readonly port: number;
  readonly pid: number;
  readonly exited: Promise<number | null>;
  readonly output: string[];
  /** The servers HAProxy's health checks hold UP at this moment (its runtime API's `show servers state`). */
  serversUp(): Promise<string[]>;
  /** One command on its runtime API; the whole answer. */
  command(text: string): Promise<string>;
  stop(): Promise<void>;
}

/** One command on HAProxy's runtime API (the `stats socket` of its configuration); its whole answer. */
export function haproxyCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect(socketPath, () => sock.end(`${command}\n`));
    let answer = '';
    sock.on('data', (d: Buffer) => (answer += d.toString()));
    sock.on('error', reject);
    sock.on('close', () => resolve(answer));
  });
}

/**
 * The servers whose operational state is running (2) in a `show servers state` answer: a line
 * per server, `be_id be_name srv_id srv_name srv_addr srv_op_state …`, after a version line and
 * a `#` header.
 */
export function runningServers(state: string): string[] {
  return state
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length > 5 && /^\d+$/.test(f[0]!) && f[5] === '2')
    .map((f) => f[3]!);
}

/** Runs haproxy in the foreground with `config` (written into `dir`, its runtime API's socket there too). */
export async function startHaproxy(binary: string, dir: string, config: string, port: number): Promise<Haproxy> {
  const file = join(dir, 'haproxy.cfg');
  const socketPath = join(dir, 'haproxy.sock');
  if (!/^\s*stats socket\s/m.test(config)) throw new Error('the HAProxy configuration has no `stats socket` line');
  writeFileSync(file, config.replace(/^(\s*stats socket\s+)\S+/m, `$1${socketPath}`));
  const check = spawnSync(binary, ['-c', '-q', '-f', file], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy -c refused the configuration: ${check.stderr}${check.stdout}`);
  const proc = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  proc.stdout.on('data', (d: Buffer) => output.push(d.toString()));
  proc.stderr.on('data', (d: Buffer) => output.push(d.toString()));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return {
    port,
    pid: proc.pid!,
    exited,
    output,
    serversUp: async () => runningServers(await haproxyCommand(socketPath, 'show servers state')),
    command: (text) => haproxyCommand(socketPath, text),
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

export interface RpcReply {
  status: number;
  text: string;
}

/** One JSON-RPC call over a fresh HTTP request; network errors reject. */
export async function rpc(port: number, method: string, params: unknown[] = [], signal?: AbortSignal): Promise<RpcReply> {
  const res = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '1.0', id: 'tier', method, params }),
    signal,
  });
  return { status: res.status, text: await res.text() };
}

/** The result of a successful call; throws with the reply otherwise. */
export async function result<T>(port: number, method: string, params: unknown[] = []): Promise<T> {
  const r = await rpc(port, method, params);
  if (r.status !== 200) throw new Error(`${method} on port ${port}: HTTP ${r.status} ${r.text}`);
  return (JSON.parse(r.text) as { result: T }).result;
}

/** Polls `cond` every 50 ms until it holds; gives up (throws) after `limitMs`. */
export async function until(cond: () => Promise<boolean>, what: string, limitMs = 60_000): Promise<void> {
  const end = Date.now() + limitMs;
  for (;;) {
    try {
      if (await cond()) return;
    } catch {
      // not reachable yet: keep polling
    }
    if (Date.now() > end) throw new Error(`gave up waiting for ${what} after ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface LoadRecord {
  ok: number;
  failures: string[];
}

/**
 * Steady load through `port`: `workers` loops, each sending the next of `requests` as soon as its
 * previous reply arrived, until stopped. Any reply other than HTTP 200 with a result, and any
 * network error, is a failure.
 */
export function steadyLoad(port: number, requests: readonly { method: string; params: unknown[] }[], workers = 4) {
  const record: LoadRecord = { ok: 0, failures: [] };
  let running = true;
  const loop = async (w: number): Promise<void> => {
    for (let i = w; running; i++) {
      const { method, params } = requests[i % requests.length]!;
      try {
        const r = await rpc(port, method, params);
        if (r.status === 200 && r.text.includes('"error":null')) record.ok++;
        else record.failures.push(`${method}: HTTP ${r.status} ${r.text.slice(0, 200)}`);
      } catch (e) {
        record.failures.push(`${method}: ${(e as Error).message} ${String((e as Error).cause ?? '')}`);
      }
    }
  };
  const loops = Array.from({ length: workers }, (_, w) => loop(w));
  return {
    record,
    stop: async (): Promise<LoadRecord> => {
      running = false;
      await Promise.all(loops);
      return record;
    },
  };
}
