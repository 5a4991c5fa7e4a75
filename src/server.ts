/**
 * `zecrpc/server`: the node as a library. `startNode` takes the same zcashd-style arguments as
 * `zecrpc serve` and returns a handle to the running server and its chain store; the store and
 * the importers are here for programs that fill or read a store themselves.
 */
export { startNode, type ServeHandle } from './cli/serve.js';
export { loadNodeConfig, parseConfFile, parseZcashArgs, ConfigError, type NodeConfig, type OptionMap } from './config.js';
export { startRpcServer, type RunningRpcServer, type RpcServerOptions } from './rpc/http/server.js';
export * from './store/index.js';
