/**
 * `zecrpc serve`: opens the chain store in the data directory, serves zcashd's JSON-RPC on it,
 * and optionally follows an upstream zcashd/zebrad (`-upstream=URL`). Stops cleanly on
 * SIGINT/SIGTERM or the `stop` method: in-flight requests finish, the cookie file is removed
 * and the store is closed.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { genesisBlock } from '../chain/genesis.js';
import { NodeClock } from '../clock.js';
import {
  addressIndexOption,
  applyZcashdUmask,
  allowDeprecatedOption,
  assertDatadirExists,
  clockModeOption,
  ConfigError,
  loadNodeConfig,
  parseZcashArgs,
  rpcServerSettings,
  txCreationOption,
  type NodeConfig,
} from '../config.js';
import { toHexReversed } from '../codec/hex.js';
import type { RpcMethod } from '../rpc/method.js';
import {
  ExperimentalFeatureError,
  experimentalFeaturesFrom,
  type ExperimentalFeatures,
} from '../rpc/methods/control/experimental-features.js';
import { zcashdSubversion } from '../rpc/methods/control/getinfo.js';
import { pinoLevelsFor, zcashdDefaultFilter, type LogFilterTarget } from '../rpc/methods/control/log-filter.js';
import { addressIndexFlags, readTheAddressIndex, storeMethods } from '../rpc/methods/index.js';
import { UpstreamRelay } from '../rpc/methods/mempool/upstream-relay.js';
import { startRpcServer, type RunningRpcServer } from '../rpc/http/server.js';
import { RpcMetrics } from '../rpc/http/metrics.js';
import {
  parseMetricsBind,
  parseReadyMaxLag,
  readiness,
  startMetricsListener,
  type RunningMetricsListener,
} from '../rpc/http/metrics-listener.js';
import { nodeFigures } from './node-metrics.js';
import type { ChainStore } from '../store/chain.js';
import { AddressIndexMismatchError } from '../store/errors.js';
import { followUpstream, type UpstreamFollower } from '../sync/upstream.js';
import { feeRates } from './fee-options.js';
import { relayPolicy } from './relay-options.js';
import { checkOptions } from './options.js';
import { verifiedStoreReader } from '../store/verify.js';
import { openStoreOrExplain } from './store-open.js';
import { typedCommand } from './typed-command.js';

/** A node started by `startNode`: its settings, RPC server, store and metrics listener; `shutdown` stops it. */
export interface ServeHandle {
  config: NodeConfig;
  server: RunningRpcServer;
  store: ChainStore;
  /** The metrics, /healthy and /ready listener (-metricsbind), if any. */
  metrics: RunningMetricsListener | null;
  /** Resolves once the node has shut down. */
  stopped: Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * `-upstreampoll=SECONDS` (default 5): how often the upstream tip is polled. Fractions down to a
 * millisecond are allowed, since a replica following another zecrpc on the same network can
 * afford to ask several times a second. Only plain decimals: `Number` would also take hex,
 * exponents and surrounding blanks, which no one means as a poll interval.
 */
export function upstreamPollMs(value: string | undefined): number {
  if (value === undefined) return 5000;
  // A timer waits 1 to 2^31 − 1 ms: Node runs a longer or shorter one after 1 ms, which would
  // poll the upstream hundreds of times a second.
  const seconds = /^(\d+\.?\d*|\.\d+)$/.test(value) ? Number(value) : NaN;
  if (!(seconds >= 0.001 && seconds <= 2147483.647)) {
    throw new ConfigError(`Error: Invalid value for -upstreampoll: '${value}' (expected seconds from 0.001 to 2147483)`);
  }
  return Math.round(seconds * 1000);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogSettings {
  /** The node's own log (start-up, upstream progress, warnings). */
  level: LogLevel;
  /** Whether every JSON-RPC request is logged (zcashd logs them only with -debug=rpc). */
  requests: boolean;
}

/**
 * `-loglevel` (default info) and zcashd's `-debug`: `-debug`, `-debug=1` and `-debug=rpc` turn the
 * per-request lines on, `-debug=0` (or `-nodebug`) turns all categories off, as in zcashd.
 */
export function logSettings(config: NodeConfig): LogSettings {
  const given = config.getArg('loglevel') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(given)) {
    throw new ConfigError(`Error: Invalid value for -loglevel: '${given}' (expected one of ${LOG_LEVELS.join(', ')})`);
  }
  const level = given as LogLevel;
  const categories = config.getArgs('debug');
  const debugOff = categories.includes('0');
  const rpcCategory = !debugOff && categories.some((c) => c === '' || c === '1' || c === 'rpc');
  return { level, requests: rpcCategory || level === 'debug' || level === 'trace' };
}

/**
 * The HTTP layer logs each request at info level. Unless requests are wanted it gets a level
 * that keeps only its warnings and errors, so a busy server's default log stays quiet.
 */
function httpLogLevel(s: LogSettings): LogLevel {
  if (s.level === 'silent' || s.level === 'fatal' || s.level === 'error') return s.level;
  if (s.requests) return s.level === 'trace' || s.level === 'debug' ? s.level : 'info';
  return 'warn';
}

/** setlogfilter's effect here: the filter's levels for the node's log and the HTTP layer's. */
function logFilterTarget(config: NodeConfig, settings: LogSettings, log: Logger, httpLog: Logger): LogFilterTarget {
  return {
    defaultFilter: zcashdDefaultFilter(config.getArgs('debug')),
    apply(filter) {
      const levels = pinoLevelsFor(filter);
      log.level = levels.node;
      httpLog.level = levels.http;
    },
    reset() {
      log.level = settings.level;
      httpLog.level = httpLogLevel(settings);
    },
  };
}

function isAddressInUse(e: unknown): boolean {
  return (e as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

/** -experimentalfeatures and the flags it allows (zcash.conf keys too), with zcashd's InitError texts. */
function experimentalFeatures(config: NodeConfig) {
  try {
    return experimentalFeaturesFrom(config.getBoolArg);
  } catch (e) {
    if (e instanceof ExperimentalFeatureError) throw new ConfigError(`Error: ${e.message}`);
    throw e;
  }
}

/** -addressindex=0 is refused beside the flags whose methods read the index, before the store opens. */
function refuseFlagsWithoutAddressIndex(config: NodeConfig, features: ExperimentalFeatures): void {
  const flags = addressIndexFlags(features);
  if (!addressIndexOption(config) && flags.length > 0) {
    throw new ConfigError(
      `Error: ${readTheAddressIndex(flags)}, and -addressindex=0 serves a store without one. Drop ${flags.join(' and ')}, ` +
        'or serve a store that keeps the index (-addressindex=1, the default; a store created with -addressindex=0 ' +
        'cannot get it later: import into a new -datadir).',
    );
  }
}

/** The store's refusal of the default -addressindex, told as what the flags need when they are set. */
function addressIndexMissing(e: unknown, features: ExperimentalFeatures): unknown {
  const flags = addressIndexFlags(features);
  if (!(e instanceof AddressIndexMismatchError) || e.storeKeepsIndex || flags.length === 0) return e;
  return new ConfigError(
    `Error: ${readTheAddressIndex(flags)}, which the chain store at ${e.dir} does not keep (it was created with -addressindex=0, ` +
      `and the index cannot be added to an existing store). Serve it without ${flags.join(' and ')} (and with -addressindex=0), ` +
      'or import into a new -datadir with the default -addressindex=1 to serve them.',
  );
}

/** zcashd's MAX_SUBVERSION_LENGTH (net.h). */
const MAX_SUBVERSION_LENGTH = 256;

/** zcashd's checks of -uacomment (init.cpp): BIP 14's safe characters only, and a subversion of at most 256 characters. */
function uaComments(config: NodeConfig): string[] {
  const comments = config.getArgs('uacomment');
  for (const comment of comments) {
    if (!/^[A-Za-z0-9 .,;_?@]*$/.test(comment)) throw new ConfigError(`Error: User Agent comment (${comment}) contains unsafe characters.`);
  }
  const length = zcashdSubversion(comments).length;
  if (length > MAX_SUBVERSION_LENGTH) {
    throw new ConfigError(
      `Error: Total length of network version string ${length} exceeds maximum of ${MAX_SUBVERSION_LENGTH} characters. Reduce the number and/or size of uacomments.`,
    );
  }
  return comments;
}

export interface StartOptions {
  /** false: no log at all. */
  log?: boolean;
  /** Set zcashd's umask 077 (unless -sysperms): what `zecrpc serve` does, not a program embedding the server. */
  umask?: boolean;
  /** Where the log goes (default standard output). */
  logTo?: DestinationStream;
  /** ISO 8601 times in the log instead of epoch milliseconds (default: when standard output is a terminal). */
  isoTime?: boolean;
}

/** -metricsbind and -readymaxlag, checked before anything opens. */
function metricsSettings(config: NodeConfig): { bind: { host: string; port: number } | null; readyMaxLag: number } {
  const bind = config.getArg('metricsbind');
  try {
    return { bind: bind === undefined ? null : parseMetricsBind(bind), readyMaxLag: parseReadyMaxLag(config.getArg('readymaxlag')) };
  } catch (e) {
    throw new ConfigError(`Error: ${(e as Error).message}`);
  }
}

/** Starts the node; `runServe` adds signal handling and waits for shutdown. */
export async function startNode(argv: readonly string[], opts: StartOptions = {}): Promise<ServeHandle> {
  const config = loadNodeConfig(argv);
  const { upstream } = rpcServerSettings(config); // checks the server's settings before anything opens
  // zcashd reads -allowdeprecated before anything else of its start-up (bitcoind.cpp).
  const allowDeprecated = allowDeprecatedOption(config);
  // zcashd's order (init.cpp): experimental features, then the fee rates, then -uacomment.
  const features = experimentalFeatures(config);
  refuseFlagsWithoutAddressIndex(config, features);
  const fees = feeRates(config);
  const comments = uaComments(config);
  const settings = logSettings(config);
  const txCreation = txCreationOption(config);
  if (opts.umask) applyZcashdUmask(config);
  const pollMs = upstreamPollMs(config.getArg('upstreampoll'));
  const metricsOptions = metricsSettings(config);
  // A person reading a terminal wants wall-clock times; a log collector parses epoch milliseconds.
  const isoTime = opts.isoTime ?? (opts.logTo === undefined && process.stdout.isTTY === true);
  const logOptions = {
    level: settings.level,
    redact: ['req.headers.authorization'],
    ...(isoTime ? { timestamp: pino.stdTimeFunctions.isoTime } : {}),
  };
  const log: Logger | null = opts.log === false ? null : opts.logTo ? pino(logOptions, opts.logTo) : pino(logOptions);
  // The node's one logger, as Fastify's, at the level that keeps request lines out unless wanted.
  const httpLog: Logger | null = log ? log.child({}, { level: httpLogLevel(settings) }) : null;
  const clock = new NodeClock(clockModeOption(config));
  for (const warning of fees.warnings) log?.warn(`Warning: ${warning}`);
  if (config.rpcBind.length > 0 && config.rpcAllowIp.length === 0) {
    log?.warn('WARNING: option -rpcbind was ignored because -rpcallowip was not specified, refusing to allow everyone to connect');
  }
  const store = await openStoreOrExplain(config, { log: (line) => log?.info(line), now: clock.seconds }).catch((e: unknown) => {
    throw addressIndexMissing(e, features);
  });
  // On a full disk the store opens read-only, on a nearly full one it refuses each write: either
  // way it serves what it holds, and says why it stores nothing.
  const readOnly = store.notWritable;
  const spaceWarning = readOnly ?? store.lowSpace();
  if (spaceWarning) log?.warn(spaceWarning.message);
  if ((await store.tip()) === null && !readOnly) {
    // zcashd always holds its network's genesis block, so a fresh store starts with it too.
    await store.addBlock(genesisBlock(config.network.name));
    log?.info({ hash: config.network.genesisHash }, `new ${config.network.name} chain store: added the genesis block`);
  }
  const upstreamRelay = upstream
    ? new UpstreamRelay(upstream, {
        user: config.getArg('upstreamuser'),
        password: config.getArg('upstreampassword'),
        cookieFile: config.getArg('upstreamcookie'),
      })
    : null;
  // Index values the methods read are cross-checked; a contradiction answers zcashd's -1 "Database corrupted".
  const methods: RpcMethod[] = storeMethods(
    verifiedStoreReader(store, (line) => log?.error(line)),
    {
      features,
      upstream: upstreamRelay,
      uaComments: comments,
      feeRates: fees,
      relayPolicy: relayPolicy(config),
      legacyOrchardRoot: config.getBoolArg('legacyorchardroot', false),
      // -upstream's height as last polled: getblockchaininfo's `headers`, a replica's lag over RPC.
      knownChainHeight: () => follower?.upstreamHeight ?? -1,
      nodeClock: clock,
      allowDeprecated,
      txCreation,
      // submitblock validates and stores blocks here, unless the store takes no writes.
      blockAcceptor: readOnly ? null : store,
      logFilter: log && httpLog ? logFilterTarget(config, settings, log, httpLog) : null,
    },
  );

  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => (resolveStopped = r));
  let shuttingDown: Promise<void> | null = null;
  let follower: UpstreamFollower | null = null;
  let server: RunningRpcServer;
  let storeOpen = true;
  const metrics = metricsOptions.bind ? new RpcMetrics() : null;
  let metricsListener: RunningMetricsListener | null = null;
  const shutdown = (): Promise<void> =>
    (shuttingDown ??= (async () => {
      log?.info('shutting down');
      // A load balancer stops sending requests while those in progress finish.
      metricsListener?.stopping();
      follower?.stop();
      await follower?.done.catch(() => undefined);
      await server.close();
      await metricsListener?.close();
      storeOpen = false;
      await store.close().catch((e: unknown) => log?.error(`closing the chain store: ${(e as Error).message}`));
      resolveStopped();
    })());

  try {
    server = await startRpcServer({
      config,
      methods,
      logger: httpLog ?? false,
      onStop: () => void shutdown(),
      ...(metrics ? { metrics } : {}),
    });
  } catch (e) {
    // A server that failed to start wrote no cookie, or removed the one it wrote (a path it
    // refused keeps what is there).
    await store.close();
    if (isAddressInUse(e)) {
      const where = (e as { address?: string; port?: number }).port ?? config.rpcPort;
      throw new ConfigError(
        `Error: Unable to start HTTP server: port ${where} is already in use (another zecrpc or zcashd?). ` +
          'Stop it or choose another port with -rpcport=<port>.',
      );
    }
    throw e;
  }
  try {
    if (metrics && metricsOptions.bind) metricsListener = await listenForMetrics(metrics, metricsOptions.bind);
    await announceAndFollow();
  } catch (e) {
    // Start-up failed while listening (the follower's credentials, the store): stop as on
    // shutdown, so neither the listener nor the cookie outlives the error.
    await shutdown();
    throw e;
  }
  return { config, server, store, metrics: metricsListener, stopped, shutdown };

  async function listenForMetrics(m: RpcMetrics, bind: { host: string; port: number }): Promise<RunningMetricsListener> {
    const upstreamHeight = upstream ? () => follower?.upstreamHeight ?? null : null;
    m.attachNode(nodeFigures(store, config.datadir, upstreamHeight));
    try {
      return await startMetricsListener({
        ...bind,
        metrics: m,
        ready: async () =>
          readiness({
            storeOpen,
            storeHeight: storeOpen ? ((await store.tip())?.height ?? null) : null,
            upstream: upstreamHeight ? { height: upstreamHeight() } : null,
            maxLag: metricsOptions.readyMaxLag,
          }),
        onError: (e) => log?.error(`metrics listener request failed: ${e.message}`),
      });
    } catch (e) {
      if (!isAddressInUse(e)) throw e;
      throw new ConfigError(
        `Error: Unable to start the metrics listener: ${bind.host} port ${bind.port} is already in use. Choose another with -metricsbind=ADDR:PORT.`,
      );
    }
  }

  /** Says where the server listens and what its store holds, and starts following -upstream. */
  async function announceAndFollow(): Promise<void> {
    const tip = await store.tip();
    log?.info(
      {
        network: config.network.name,
        datadir: config.datadir,
        listen: server.addresses,
        ...(metricsListener ? { metrics: metricsListener.address } : {}),
        auth: server.cookieFile ? `cookie ${server.cookieFile}` : 'rpcuser/rpcpassword',
        tip: tip ? { height: tip.height, hash: toHexReversed(tip.hash) } : null,
      },
      'zecrpc serving JSON-RPC',
    );
    if (tip?.height === 0 && !upstream) {
      const net = config.network.name === 'mainnet' ? '' : ` -${config.network.name}`;
      const importCommand = `${typedCommand()} import${net}`;
      log?.info(
        'the store holds only the genesis block. Fill it with the server stopped: ' +
          `\`${importCommand} --blocks-dir ~/.zcash/blocks\` (zcashd's blk files), ` +
          `\`${importCommand} --hex FILE|DIR\` (raw block hex) or \`${importCommand} --rpc URL\` (a running node); ` +
          `or start with -upstream=URL to follow a zcashd/zebrad while serving`,
      );
    }
    if (upstream && readOnly) {
      log?.warn('not following -upstream: the chain store is read-only (the disk is full, see above)');
    } else if (upstream) {
      follower = await followUpstream(store, upstream, {
        user: config.getArg('upstreamuser'),
        password: config.getArg('upstreampassword'),
        cookieFile: config.getArg('upstreamcookie'),
        pollMs,
        logger: log
          ? { info: (m: string) => log.info(m), warn: (m: string) => log.warn(m) }
          : { info: () => undefined, warn: () => undefined },
        progress: 'silent',
      });
    }
  }
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

/** Checks the arguments as zcashd's start-up does, before anything is opened. */
export function checkServeArgs(argv: readonly string[]): void {
  const { options, rest } = parseZcashArgs(argv);
  if (rest.length > 0) {
    throw new ConfigError(`Error: zecrpc serve takes no arguments (got '${rest[0]}'). To send commands to the server, use zecrpc-cli.`);
  }
  checkOptions(options, 'serve');
  assertDatadirExists(argv);
}

export async function runServe(argv: string[]): Promise<void> {
  const args = normalizeServeArgs(argv);
  checkServeArgs(args);
  const node = await startNode(args, { umask: true });
  const onSignal = () => void node.shutdown();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // zcashd reopens its debug.log on SIGHUP and carries on (logrotate set-ups send it); the log
  // here is standard output, with nothing to reopen, so the signal must not end the process.
  process.on('SIGHUP', () => undefined);
  await node.stopped;
}
