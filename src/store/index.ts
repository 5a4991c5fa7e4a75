/** The embedded chain store: LevelDB index + block files, importers and the upstream follower. */
export { ChainStore, MAX_BLOCK_SIZE } from './chain.js';
export type { AddResult, AddStatus } from './chain.js';
export type { CoinReadCounts } from './committed-coins.js';
// Opened as an importer opens it: `solutionThreads` attaches an Equihash prefetcher (sync/).
export { openChainStore } from '../sync/open-store.js';
export type { ImportStoreOptions as ChainStoreOptions } from '../sync/open-store.js';
export {
  AddressIndexMismatchError,
  AddressIndexRecordLostError,
  BlockRejectedError,
  UnknownParentError,
  StoreOpenError,
  StoreNotWritableError,
  DiskSpaceLowError,
} from './errors.js';
export { DISK_SPACE_POLICY } from './disk-reserve.js';
export type { DiskSpacePolicy } from './disk-reserve.js';
export type { RejectReason } from './errors.js';
export { checkStoreIntegrity } from './integrity.js';
export type { IntegrityReport } from './integrity.js';
export type { BlockIndexEntry, ChainStoreReader, ChainTip, TxLocation } from './types.js';
export * from '../sync/index.js';
