/**
 * `zecrpc/fastify`: zcashd's JSON-RPC as a Fastify 5 plugin, to mount beside an application's
 * own routes. Credentials, `-rpcallowip`, the work queue and the memory budgets come from the
 * zcashd-style settings in `config`, exactly as for `zecrpc serve`, and apply to the JSON-RPC
 * route only: the application's routes keep their own hooks and body parsers.
 *
 * ```ts
 * const app = Fastify();
 * app.get('/health', async () => ({ ok: true }));
 * await app.register(zecrpcRpc, { config: loadNodeConfig(['-datadir=/srv/zec', '-rpcuser=u', '-rpcpassword=p']), store });
 * await app.listen({ port: 8232 });
 * ```
 */
export { zecrpcRpc, type ZecrpcRpcOptions } from './rpc/http/plugin.js';
export { loadNodeConfig, type NodeConfig } from './config.js';
