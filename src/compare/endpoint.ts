/**
 * The two sides of a comparison. Each takes the exact request body and gives back the HTTP
 * status and the exact reply bytes: a node over HTTP (keep-alive sockets, a per-request time
 * limit, basic auth), or zecrpc's own dispatcher over a chain store in this process (the bytes
 * its HTTP server would send, without a socket in between).
 */
import { DEFAULT_COMPAT_PROFILE, type CompatProfile } from '../compat/profiles.js';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import type { NetworkParams } from '../chain/network.js';
import { handleJsonRpcBody } from '../rpc/dispatch.js';
import type { RpcContext } from '../rpc/method.js';
import { helpMethod } from '../rpc/methods/control/index.js';
import { storeMethods } from '../rpc/methods/index.js';
import { MethodRegistry } from '../rpc/registry.js';
import { openChainStore } from '../store/chain.js';
import { AddressIndexMismatchError } from '../store/errors.js';
import { resolveNodeAuth, type NodeAuthOptions } from './auth.js';
import { CompareError } from './errors.js';

export interface Reply {
  status: number;
  body: Buffer;
}

export interface Endpoint {
  /** 'reference' or 'target', used in messages. */
  readonly side: string;
  /** Where it is (URL without credentials, or the store's folder). */
  readonly location: string;
  /** Sends one JSON-RPC body; `what` names the request in error messages. */
  send(body: Buffer, what: string): Promise<Reply>;
  close(): Promise<void>;
}

export interface HttpEndpointOptions extends NodeAuthOptions {
  /** Per-request limit, milliseconds (connect + full reply). */
  timeoutMs: number;
  /** Sockets kept open (the comparison's concurrency). */
  maxSockets: number;
}

export class HttpEndpoint implements Endpoint {
  readonly location: string;
  private readonly url: URL;
  private readonly agent: HttpAgent;
  private readonly authHeader: string | null;
  private readonly doRequest: typeof httpRequest;

  constructor(
    readonly side: string,
    rawUrl: string,
    private readonly opts: HttpEndpointOptions,
  ) {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new CompareError(`${side}: ${JSON.stringify(rawUrl)} is not a URL (expected e.g. http://127.0.0.1:8232/)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new CompareError(`${side}: ${rawUrl}: only http:// and https:// are supported`);
    this.authHeader = resolveNodeAuth(url, opts, side).header;
    url.username = '';
    url.password = '';
    this.url = url;
    this.location = url.href;
    const https = url.protocol === 'https:';
    this.agent = https
      ? new HttpsAgent({ keepAlive: true, maxSockets: opts.maxSockets })
      : new HttpAgent({ keepAlive: true, maxSockets: opts.maxSockets });
    this.doRequest = https ? (httpsRequest as unknown as typeof httpRequest) : httpRequest;
  }

  send(body: Buffer, what: string): Promise<Reply> {
    const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': body.length };
    if (this.authHeader) headers.authorization = this.authHeader;
    return new Promise<Reply>((resolve, reject) => {
      let settled = false;
      const fail = (message: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(new CompareError(`${this.side} ${this.location}: ${message}`));
      };
      const req = this.doRequest(this.url, { method: 'POST', agent: this.agent, headers }, (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => fail(`reply to ${what} broke off (${e.message})`));
        res.on('end', () => {
          if (settled) return;
          const status = res.statusCode ?? 0;
          if (status === 401 || status === 403) {
            return fail(
              `authentication failed (HTTP ${status}); check the user/password, cookie file or zcash.conf given for the ${this.side}`,
            );
          }
          settled = true;
          clearTimeout(timer);
          resolve({ status, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
        });
      });
      const timer = setTimeout(() => fail(`no complete reply to ${what} within ${this.opts.timeoutMs} ms`), this.opts.timeoutMs);
      req.on('error', (e: NodeJS.ErrnoException) => {
        const reason =
          e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'EHOSTUNREACH' ? 'cannot reach the node' : 'request failed';
        fail(`${reason} (${e.code ?? e.message})`);
      });
      req.end(body);
    });
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }
}

/**
 * zecrpc's JSON-RPC dispatcher over a chain store opened in this process. LevelDB admits one
 * process per store, so the store must not be open in a running `zecrpc serve`; nothing here
 * writes to it (only the store's read methods are reachable from the registered RPC methods).
 */
export class InProcessEndpoint implements Endpoint {
  private constructor(
    readonly side: string,
    readonly location: string,
    private readonly registry: MethodRegistry,
    private readonly ctx: RpcContext,
    private readonly closeStore: () => Promise<void>,
  ) {}

  /** `baseDatadir` as for `zecrpc serve -datadir=` (the network subfolder is added). */
  static async open(
    side: string,
    baseDatadir: string,
    network: NetworkParams,
    profile: CompatProfile = DEFAULT_COMPAT_PROFILE,
  ): Promise<InProcessEndpoint> {
    const datadir = network.dataSubdir ? join(baseDatadir, network.dataSubdir) : baseDatadir;
    let store;
    try {
      // Compared as it is: a store created without the address index opens as one.
      store = await openChainStore({ datadir, network }).catch((e: unknown) => {
        if (!(e instanceof AddressIndexMismatchError) || e.storeKeepsIndex) throw e;
        return openChainStore({ datadir, network, addressIndex: false });
      });
    } catch (e) {
      throw new CompareError(`${side}: cannot open the chain store in ${datadir} (${(e as Error).message})`);
    }
    const registry: MethodRegistry = new MethodRegistry([helpMethod(() => registry), ...storeMethods(store)]);
    const ctx: RpcContext = { network, profile, requestStop: () => undefined };
    return new InProcessEndpoint(side, `store ${datadir} (in process)`, registry, ctx, () => store.close());
  }

  async send(body: Buffer): Promise<Reply> {
    const reply = await handleJsonRpcBody(body, this.registry, this.ctx);
    const bytes = typeof reply.body === 'string' ? Buffer.from(reply.body, 'utf8') : Buffer.concat(reply.body);
    return { status: reply.status, body: bytes };
  }

  close(): Promise<void> {
    return this.closeStore();
  }
}
