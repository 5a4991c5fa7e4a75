// Test nodes for `zecrpc compare`, all on 127.0.0.1: zecrpc servers over stores of the vector
// chain, and a rewriting proxy in front of one that alters, reorders or reshapes its replies.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAINNET } from '../../src/chain/network.js';
import { loadNodeConfig } from '../../src/config.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { startRpcServer, type RunningRpcServer } from '../../src/rpc/http/server.js';
import { openChainStore, type ChainStore } from '../../src/store/index.js';
import { mainnetChain, tempDir } from '../support/store.js';

export interface TestNode {
  url: string;
  port: number;
  /** Base data directory (for `--target-datadir`, once the node is stopped). */
  datadir: string;
  stop(): Promise<void>;
}

/** Imports mainnet blocks 0..20 (the vector chain) into a fresh store; returns its base data dir. */
export async function storeWithVectorChain(
  cleanups: (() => unknown)[],
  addressIndex = true,
): Promise<{ datadir: string; store: ChainStore }> {
  const dir = tempDir('compare');
  cleanups.push(dir.remove);
  const store = await openChainStore({ datadir: dir.path, network: MAINNET, addressIndex });
  for (const block of mainnetChain()) await store.addBlock(block);
  return { datadir: dir.path, store };
}

/** A zecrpc JSON-RPC server over the vector chain (`-rpcuser`/`-rpcpassword`, or cookie auth when no user given). */
export async function startZecrpcNode(
  cleanups: (() => unknown)[],
  auth: { user: string; password: string } | null,
): Promise<TestNode & { cookieFile: string | null }> {
  const { datadir, store } = await storeWithVectorChain(cleanups);
  const args = [`-datadir=${datadir}`, '-rpcport=0'];
  if (auth) args.push(`-rpcuser=${auth.user}`, `-rpcpassword=${auth.password}`);
  const server: RunningRpcServer = await startRpcServer({ config: loadNodeConfig(args), methods: storeMethods(store) });
  const stop = async () => {
    await server.close();
    await store.close();
  };
  cleanups.push(stop);
  return { url: `http://127.0.0.1:${server.port}/`, port: server.port, datadir, cookieFile: server.cookieFile, stop };
}

export interface ProxiedRequest {
  method: string;
  params: unknown[];
}

/** Rewrites one upstream reply; returning undefined passes it through untouched. */
export type ReplyRewriter = (req: ProxiedRequest, reply: { status: number; body: Buffer }) => { status: number; body: Buffer } | undefined;

/**
 * A JSON-RPC proxy on 127.0.0.1 in front of `upstreamUrl` (no auth of its own; it adds the
 * upstream's). `hang: true` accepts requests and never answers.
 */
export async function startProxy(
  cleanups: (() => unknown)[],
  upstreamUrl: string,
  upstreamAuth: string,
  rewrite: ReplyRewriter,
  opts: { hang?: boolean } = {},
): Promise<TestNode & { rewritten: ProxiedRequest[] }> {
  const rewritten: ProxiedRequest[] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      if (opts.hang) {
        open.add(res);
        return;
      }
      const body = Buffer.concat(chunks);
      const upstream = await fetch(upstreamUrl, {
        method: 'POST',
        headers: { authorization: 'Basic ' + Buffer.from(upstreamAuth).toString('base64') },
        body,
      });
      const reply = { status: upstream.status, body: Buffer.from(await upstream.arrayBuffer()) };
      const parsed = JSON.parse(body.toString('utf8')) as ProxiedRequest;
      const changed = rewrite({ method: parsed.method, params: parsed.params ?? [] }, reply);
      if (changed) rewritten.push({ method: parsed.method, params: parsed.params ?? [] });
      const out = changed ?? reply;
      res.writeHead(out.status, { 'content-type': 'application/json', 'content-length': out.body.length }).end(out.body);
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const stop = async () => {
    for (const r of open) r.destroy();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  cleanups.push(stop);
  return { url: `http://127.0.0.1:${port}/`, port, datadir: '', stop, rewritten };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
