/**
 * `zecrpc serve`: opens the chain store in the data directory, serves zcashd's JSON-RPC on it,
 * and optionally follows an upstream zcashd/zebrad (`-upstream=URL`). Stops cleanly on
 * SIGINT/SIGTERM or the `stop` method: in-flight requests finish, the cookie file is removed
 * and the store is closed.
 */
import { pino } from 'pino';
import { loadNodeConfig, type NodeConfig } from '../config.js';
import { toHexReversed } from '../codec/hex.js';
import type { RpcMethod } from '../rpc/method.js';
import { storeMethods } from '../rpc/methods/index.js';
import { startRpcServer, type RunningRpcServer } from '../rpc/http/server.js';
import { openChainStore, type ChainStore } from '../store/chain.js';
import { followUpstream, type UpstreamFollower } from '../sync/upstream.js';

export interface ServeHandle {
  config: NodeConfig;
  server: RunningRpcServer;
  store: ChainStore;
  /** Resolves once the node has shut down. */
  stopped: Promise<void>;
  shutdown(): Promise<void>;
}

/** `-upstreampoll=SECONDS` (default 5, fractions allowed): how often the upstream tip is polled. */
function upstreamPollMs(value: string | undefined): number {
  if (value === undefined) return 5000;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`Invalid value for -upstreampoll: '${value}' (expected seconds > 0)`);
  return Math.round(seconds * 1000);
}

/** Starts the node; `runServe` adds signal handling and waits for shutdown. */
export async function startNode(argv: readonly string[], opts: { log?: boolean } = {}): Promise<ServeHandle> {
  const config = loadNodeConfig(argv);
  const level = config.getArg('loglevel') ?? 'info';
  const log = opts.log === false ? null : pino({ level, redact: ['req.headers.authorization'] });
  const store = await openChainStore({ datadir: config.datadir, network: config.network });
  const methods: RpcMethod[] = storeMethods(store);

  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => (resolveStopped = r));
  let shuttingDown: Promise<void> | null = null;
  let follower: UpstreamFollower | null = null;
  const shutdown = (): Promise<void> =>
    (shuttingDown ??= (async () => {
      log?.info('shutting down');
      follower?.stop();
      await follower?.done.catch(() => undefined);
      await server.close();
      await store.close();
      resolveStopped();
    })());

  const server: RunningRpcServer = await startRpcServer({
    config,
    methods,
    logger: log ? { level } : false,
    onStop: () => void shutdown(),
  });
  const tip = await store.tip();
  log?.info(
    {
      network: config.network.name,
      datadir: config.datadir,
      listen: server.addresses,
      auth: server.cookieFile ? `cookie ${server.cookieFile}` : 'rpcuser/rpcpassword',
      tip: tip ? { height: tip.height, hash: toHexReversed(tip.hash) } : null,
    },
    'zecrpc serving JSON-RPC',
  );
  if (config.upstream) {
    follower = await followUpstream(store, config.upstream, {
      user: config.getArg('upstreamuser'),
      password: config.getArg('upstreampassword'),
      cookieFile: config.getArg('upstreamcookie'),
      pollMs: upstreamPollMs(config.getArg('upstreampoll')),
      logger: log
        ? { info: (m: string) => log.info(m), warn: (m: string) => log.warn(m) }
        : { info: () => undefined, warn: () => undefined },
      progress: 'silent',
    });
  }
  return { config, server, store, stopped, shutdown };
}

/**
 * `--upstream URL` (the long, space-separated form) is accepted besides zcashd-style
 * `-upstream=URL`; this rewrites it to the latter for the option parser.
 */
export function normalizeServeArgs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if ((a === '--upstream' || a === '-upstream') && i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) {
      out.push(`-upstream=${argv[++i]}`);
    } else out.push(a);
  }
  return out;
}

export async function runServe(argv: string[]): Promise<void> {
  const node = await startNode(normalizeServeArgs(argv));
  const onSignal = () => void node.shutdown();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  await node.stopped;
}
