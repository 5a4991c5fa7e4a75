/** The embedded chain store: LevelDB index + block files, importers and the upstream follower. */
export { ChainStore, openChainStore, MAX_BLOCK_SIZE } from './chain.js';
export type { AddResult, AddStatus, ChainStoreOptions } from './chain.js';
export { BlockRejectedError, UnknownParentError, StoreOpenError, StoreNotWritableError, DiskSpaceLowError } from './errors.js';
export { DISK_SPACE_POLICY } from './disk-reserve.js';
export type { DiskSpacePolicy } from './disk-reserve.js';
export type { RejectReason } from './errors.js';
export { checkStoreIntegrity } from './integrity.js';
export type { IntegrityReport } from './integrity.js';
export type { BlockIndexEntry, ChainStoreReader, ChainTip, TxLocation } from './types.js';
export * from '../sync/index.js';
