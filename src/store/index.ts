/** The embedded chain store: LevelDB index + block files, importers and the upstream follower. */
export { ChainStore, openChainStore, MAX_BLOCK_SIZE } from './chain-store.js';
export type { AddResult, AddStatus, ChainStoreOptions } from './chain-store.js';
export { BlockRejectedError, UnknownParentError, StoreOpenError } from './errors.js';
export type { RejectReason } from './errors.js';
export { checkStoreIntegrity } from './integrity.js';
export type { IntegrityReport } from './integrity.js';
export type { BlockIndexEntry, ChainStoreReader, ChainTip, TxLocation } from './types.js';
export * from './import/index.js';
