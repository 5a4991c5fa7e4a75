/**
 * The JSON-RPC HTTP server on Fastify, following zcashd's request pipeline
 * (rpc-http-json.md §1.2): method check, allow-list, DELETE, path, POST-only, authentication,
 * then the JSON-RPC envelope. Fastify handles connections, body reading and limits; the
 * reply bytes are written by http-framing.ts, not by Fastify's serializers.
 *
 * Unlike zcashd there is no global lock and no fixed worker pool: requests are served
 * concurrently, and CPU-heavy methods can use the worker pool (worker-pool.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { NodeConfig } from '../../config.js';
import { createAuthenticator, type Authenticator } from './auth.js';
import { handleJsonRpcBody } from '../dispatch.js';
import { rawErrorPage, sendErrorPage, sendReply } from './framing.js';
import type { RpcContext, RpcMethod } from '../method.js';
import { helpMethod, stopMethod } from '../methods/control/index.js';
import { MethodRegistry } from '../registry.js';

/** zcashd's MAX_SIZE: the largest request body libevent accepts. */
export const MAX_BODY_SIZE = 0x02000000;
/** libevent's limit on request line + headers. */
export const MAX_HEADERS_SIZE = 8192;
/** zcashd's penalty for wrong credentials (not for missing ones). */
export const WRONG_CREDENTIALS_DELAY_MS = 250;

/** Methods libevent passes to zcashd (everything else is 501 before any other check). */
const LIBEVENT_METHODS = new Set(['GET', 'POST', 'HEAD', 'PUT', 'DELETE']);

export interface RpcServerOptions {
  config: NodeConfig;
  /** Methods besides `help` and `stop`. */
  methods: readonly RpcMethod[];
  /** Fastify/pino logger setting; false (default) for none. Authorization headers are redacted. */
  logger?: boolean | Record<string, unknown>;
  /** Called when the `stop` method asks the server to shut down (after its reply is sent). */
  onStop?: () => void;
}

export interface RunningRpcServer {
  /** The port actually bound (useful with -rpcport=0). */
  port: number;
  /** Every `address:port` listened on. */
  addresses: string[];
  /** The cookie file in cookie mode. */
  cookieFile: string | null;
  close(): Promise<void>;
}

/** -rpcallowip entries → a BlockList of allowed peers (always 127.0.0.0/8 and ::1). */
export function buildAllowList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  list.addAddress('::1', 'ipv6');
  for (const entry of entries) {
    const [ip, mask] = entry.split('/');
    const type = isIPv4(ip ?? '') ? 'ipv4' : isIPv6(ip ?? '') ? 'ipv6' : null;
    if (!ip || !type) throw new Error(`Invalid -rpcallowip subnet specification: ${entry}`);
    if (mask === undefined) {
      list.addAddress(ip, type);
    } else if (/^\d+$/.test(mask)) {
      const prefix = Number(mask);
      if (prefix > (type === 'ipv4' ? 32 : 128)) throw new Error(`Invalid -rpcallowip subnet specification: ${entry}`);
      list.addSubnet(ip, prefix, type);
    } else if (type === 'ipv4' && isIPv4(mask)) {
      const bits = mask.split('.').reduce((acc, o) => (acc << 8) | Number(o), 0) >>> 0;
      const prefix = 32 - Math.log2((~bits >>> 0) + 1);
      if (!Number.isInteger(prefix)) throw new Error(`Invalid -rpcallowip subnet specification: ${entry}`);
      list.addSubnet(ip, prefix, type);
    } else {
      throw new Error(`Invalid -rpcallowip subnet specification: ${entry}`);
    }
  }
  return list;
}

function checkAllowed(list: BlockList, address: string): boolean {
  const v4mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4mapped) return list.check(v4mapped[1]!, 'ipv4');
  return isIPv4(address) ? list.check(address, 'ipv4') : isIPv6(address) ? list.check(address, 'ipv6') : false;
}

/**
 * Allow-list verdicts per peer address. BlockList.check builds address objects on every call,
 * which showed up in profiles at thousands of requests per second; peers are few, so cache.
 */
function allowChecker(list: BlockList): (address: string | undefined) => boolean {
  const verdicts = new Map<string, boolean>();
  return (address) => {
    if (!address) return false;
    let ok = verdicts.get(address);
    if (ok === undefined) {
      ok = checkAllowed(list, address);
      if (verdicts.size >= 4096) verdicts.clear();
      verdicts.set(address, ok);
    }
    return ok;
  };
}

/** Addresses to bind, per zcashd's rules (§1.1). */
export function bindAddresses(config: NodeConfig): string[] {
  if (config.rpcAllowIp.length === 0) return ['127.0.0.1', '::1'];
  if (config.rpcBind.length > 0) return config.rpcBind;
  return ['0.0.0.0', '::'];
}

function splitHostPort(bind: string, defaultPort: number): { host: string; port: number } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(bind);
  if (v6) return { host: v6[1]!, port: v6[2] ? Number(v6[2]) : defaultPort };
  const hp = /^([^:]+):(\d+)$/.exec(bind);
  if (hp) return { host: hp[1]!, port: Number(hp[2]) };
  return { host: bind, port: defaultPort };
}

export async function startRpcServer(opts: RpcServerOptions): Promise<RunningRpcServer> {
  const { config } = opts;
  const isAllowed = allowChecker(buildAllowList(config.rpcAllowIp));
  const auth: Authenticator = createAuthenticator({
    rpcUser: config.rpcUser,
    rpcPassword: config.rpcPassword,
    rpcAuth: config.rpcAuth,
    cookieFile: config.rpcCookieFile,
  });
  // `help` lists the registry it belongs to, hence the late-bound reference.
  const registry: MethodRegistry = new MethodRegistry([helpMethod(() => registry), stopMethod(), ...opts.methods]);
  const ctx: RpcContext = {
    network: config.network,
    requestStop: () => setImmediate(() => opts.onStop?.()),
  };

  const servers: Server[] = [];
  /** Malformed requests and timeouts, before any request object exists (libevent's behaviour). */
  const onClientError = (err: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void => {
    // A request that outlives -rpcservertimeout, or a peer that vanished: libevent just closes
    // the connection, so do not answer (Node and Fastify would send a 408 page).
    if (!socket.writable || err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_INVALID_METHOD' ? 501 : 400;
    socket.end(rawErrorPage(status));
  };
  const timeoutMs = config.rpcServerTimeout * 1000;
  const serverOptions = {
    maxHeaderSize: MAX_HEADERS_SIZE,
    requestTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    // How often Node looks for requests past their timeout (its default is every 30 s).
    connectionsCheckingInterval: Math.min(30_000, Math.max(250, timeoutMs / 4)),
  };
  const fastify: FastifyInstance = Fastify({
    logger:
      opts.logger === true
        ? { redact: ['req.headers.authorization'] }
        : opts.logger
          ? { ...opts.logger, redact: ['req.headers.authorization'] }
          : false,
    bodyLimit: MAX_BODY_SIZE,
    connectionTimeout: 0,
    keepAliveTimeout: timeoutMs,
    requestTimeout: timeoutMs,
    return503OnClosing: false,
    clientErrorHandler: onClientError,
    serverFactory: (handler) => {
      const s = createServer(serverOptions, handler);
      s.keepAliveTimeout = timeoutMs;
      servers.push(s);
      return s;
    },
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_SIZE }, (_req, body, done) => done(null, body));

  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer | undefined): Promise<void> => {
    const method = req.method ?? '';
    if (!LIBEVENT_METHODS.has(method)) return sendErrorPage(req, res, 501);
    if (!isAllowed(req.socket.remoteAddress)) return sendReply(req, res, 403, '', 'none');
    if (method === 'DELETE') return sendReply(req, res, 405, '', 'none');
    if (req.url !== '/') return sendReply(req, res, 404, '', 'none');
    if (method !== 'POST') return sendReply(req, res, 405, 'JSONRPC server handles only POST requests', 'none');
    const authorization = req.headers.authorization;
    if (authorization === undefined) return sendReply(req, res, 401, '', 'www-authenticate');
    if (!auth.check(authorization)) {
      await new Promise((r) => setTimeout(r, WRONG_CREDENTIALS_DELAY_MS));
      return sendReply(req, res, 401, '', 'www-authenticate');
    }
    const reply = await handleJsonRpcBody(body ?? Buffer.alloc(0), registry, ctx);
    if (res.destroyed) return;
    sendReply(req, res, reply.status, reply.body, 'json');
  };

  const route = async (request: { raw: IncomingMessage; body: unknown }, reply: { hijack(): void; raw: ServerResponse }) => {
    reply.hijack();
    const body = Buffer.isBuffer(request.body) ? request.body : undefined;
    await handle(request.raw, reply.raw, body);
  };
  fastify.all('/*', route);
  fastify.all('/', route);
  fastify.setNotFoundHandler(route);
  fastify.setErrorHandler((error, request, reply) => {
    reply.hijack();
    const status = (error as { statusCode?: number }).statusCode === 413 ? 413 : 400;
    sendErrorPage(request.raw, reply.raw, status);
  });

  const binds = bindAddresses(config).map((b) => splitHostPort(b, config.rpcPort));
  const first = binds[0]!;
  await fastify.listen({ host: first.host, port: first.port });
  const mainServer = servers[0]!;
  const boundPort = (mainServer.address() as { port: number }).port;
  const addresses = [`${first.host}:${boundPort}`];
  for (const b of binds.slice(1)) {
    // Further binds share the Fastify router; a port of 0 means "the same port as the first".
    const extra = createServer(serverOptions, (req, res) => fastify.routing(req, res));
    extra.keepAliveTimeout = timeoutMs;
    const port = b.port === 0 ? boundPort : b.port;
    try {
      await new Promise<void>((resolve, reject) => {
        extra.once('error', reject);
        extra.listen(port, b.host, () => resolve());
      });
      servers.push(extra);
      addresses.push(`${b.host}:${port}`);
    } catch (e) {
      // zcashd logs "Binding RPC on address … failed" and carries on with the others.
      fastify.log.warn(`Binding RPC on address ${b.host} port ${port} failed: ${(e as Error).message}`);
    }
  }
  for (const s of servers.slice(1)) s.on('clientError', onClientError);

  let closed = false;
  return {
    port: boundPort,
    addresses,
    cookieFile: auth.cookieFile,
    async close() {
      if (closed) return;
      closed = true;
      for (const s of servers.slice(1)) {
        s.closeAllConnections();
        await new Promise<void>((r) => s.close(() => r()));
      }
      mainServer.closeIdleConnections();
      await fastify.close();
      auth.removeCookie();
    },
  };
}
