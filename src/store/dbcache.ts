/**
 * zcashd's `-dbcache` as zecrpc reads it: the memory `zecrpc import` keeps the groups it wrote
 * last in (committed-coins.ts). A leaf, so that the option parsers (config.ts) read it without
 * loading the store.
 */

/** zcashd's default `-dbcache`, in MiB. */
export const DEFAULT_DBCACHE_MIB = 450;

/** zcashd's bounds of `-dbcache` on a 64-bit machine (nMinDbCache, nMaxDbCache), MiB. */
export const DBCACHE_MIB_RANGE = { min: 4, max: 16384 } as const;
