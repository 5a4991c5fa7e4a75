/** Block importers: hex files, zcashd blk files, an upstream JSON-RPC node. */
export { importHex, listHexFiles } from './hex.js';
export type { ImportOptions, ImportResult } from './hex.js';
export { importBlkFiles, listBlkFiles } from './blk.js';
export type { BlkImportResult } from './blk.js';
export { importFromUpstream, syncFromUpstream, followUpstream } from './upstream.js';
export type { UpstreamOptions, FollowOptions, UpstreamFollower } from './upstream.js';
export { JsonRpcClient } from './rpc-client.js';
export type { RpcClientOptions } from './rpc-client.js';
export { BlockSink, ImportError } from './block-sink.js';
export type { BlockOrigin, ImportStats } from './block-sink.js';
export { ImportProgress, stderrLogger, silentLogger } from './progress.js';
export type { ImportLogger, ProgressMode } from './progress.js';
export { SolutionPrefetcher } from './solution-prefetch.js';
export { TreePrefetcher, type TreePrefetcherOptions } from './tree-prefetch.js';
