/**
 * On-disk layout of the chain store: every LevelDB key and value format in one place.
 *
 * Directory `<datadir>/zecrpc/`:
 *   index/            LevelDB (classic-level), the tables below
 *   blocks/blkNNNNN.dat  append-only block files of our own (see block-data.ts)
 *   disk-space.reserve   space kept so the store opens on a full disk (disk-reserve.ts; serve and import)
 *
 * | key                         | value                                                        | written when                      |
 * |-----------------------------|--------------------------------------------------------------|-----------------------------------|
 * | `V`                         | u32 schema version ‖ utf8 network name                       | store creation                    |
 * | `H` ‖ hash(32)              | block index record (below)                                   | block accepted (any chain)        |
 * | `u` ‖ hash(32)              | txids of the block, 32 bytes each, block order               | block accepted (any chain)        |
 * | `n` ‖ hash(32)              | nChainTx: transactions from genesis through the block (u64 LE) | block accepted (any chain; v2)  |
 * | `U` ‖ hash(32)              | undo record: the block's indexers' undo blobs (undo.ts)      | connect (put) / disconnect (del)  |
 * | `h` ‖ height(u32 BE)        | hash(32) of the best-chain block at that height              | connect (put) / disconnect (del)  |
 * | `t` ‖ txid(32)              | height(u32 LE) ‖ index in block(u32 LE), best chain only     | connect / disconnect (TxIndex)    |
 * | `T`                         | tip hash(32) ‖ height(u32 LE)                                | every connect / disconnect        |
 * | `W`                         | hash(32) of the most-work block (first seen wins ties)       | block accepted with more work     |
 * | `M`                         | height(u32 LE) of the highest block record (`H`), any chain  | block accepted above it (v5)      |
 * | `F`                         | block-file cursor: file number(u32 LE) ‖ committed length(u32 LE) | block accepted (flat-file backend) |
 * | `b` ‖ hash(32)              | raw block bytes                                              | block accepted (LevelDB backend)  |
 * | `I` ‖ utf8(import source)   | JSON import checkpoint (resume position of an importer)      | importers, now and then           |
 * | `x` ‖ hash(32)              | why the block is invalid (utf8); its descendants are refused  | a reorganization found it invalid; invalidateblock (del: reconsiderblock) |
 * | `K`                         | u8 format (1): the `K` ‖ hash set below is kept for every record | store creation / first rebuild (chain-tips.ts) |
 * | `K` ‖ hash(32)              | empty: a block with a record (`H`) and none of a child, a chain tip of getchaintips | block accepted (put; its parent's: del) |
 * | `B` ‖ hash(32)              | the block's chain state: pool deltas and totals, final roots, tree sizes (state/chain-state.ts) | connect (ChainStateIndex, v3; kept after disconnect) |
 * | `C`                         | chain state after the tip: tree frontiers, history tree, pool totals | every connect / disconnect (ChainStateIndex) |
 * | `P`                         | chain state after the checkpoint block a store started from (`C`'s format), never rewritten | checkpoint start (ChainStateIndex; read by verify -repair) |
 * | `c` ‖ txid ‖ n(u32 LE)       | unspent transparent output: i64 LE value ‖ height(u32 LE) ‖ flags(u8) ‖ scriptPubKey | connect / disconnect (ChainStateIndex) |
 * | `A` ‖ pool(u8) ‖ root(32)   | the tree frontier at that root (zcashd's anchors; padded finalState bytes) | connect / disconnect (ChainStateIndex) |
 * | `Q` ‖ pool(u8) ‖ index(u32 BE) | completed 2^16-leaf subtree: root(32) ‖ end height(u32 LE) | connect / disconnect (ChainStateIndex) |
 * | `N` ‖ pool(u8) ‖ nullifier(32) | 0x01: the active chain revealed it (zcashd's nullifier sets) | connect / disconnect (ChainStateIndex, v6) |
 * | `d` ‖ type ‖ hash160 ‖ height(u32 BE) ‖ txindex(u32 BE) ‖ txid ‖ n(u32 LE) ‖ spending(u8) | i64 LE zatoshis (negative for spends) | connect / disconnect (AddressIndex, v4) |
 * | `a` ‖ type ‖ hash160 ‖ txid ‖ n(u32 LE) | unspent output: i64 LE value ‖ height(u32 LE) (older v4 values also hold the scriptPubKey) | connect / disconnect (AddressIndex, v4) |
 * | `p` ‖ txid ‖ n(u32 LE)       | spender: index in block(u32 LE) ‖ vin(u32 LE) ‖ height(u32 LE) ‖ i64 LE value ‖ type(u8) ‖ hash160 (older v4 values: the spending txid in place of the index) | connect / disconnect (AddressIndex, v4) |
 * | `s` ‖ logical time(u32 BE) ‖ hash(32) | empty                                               | connect / disconnect (AddressIndex, v4) |
 * | `S` ‖ hash(32)              | logical time(u32 LE) of a best-chain block                   | connect / disconnect (AddressIndex, v4) |
 * | `X` ‖ version(u32 BE)       | resume position of a migration that writes progressively (u32 LE next height) | migrations (deleted when done) |
 * | `X` ‖ version(u32 BE) ‖ txid ‖ n(u32 LE) | scratch coin of a replay migration (coin record as `c`) | v4 replay (empty when done) |
 * | `R`                         | u8 format (1): every value of the store ends with its checksum | store creation / v7 migration (record-checksums.ts) |
 * | `O`                         | u8 format (1): the store keeps no address index (`d`, `a`, `p`, `s`, `S`); absent: it keeps one | store creation with `-addressindex=0` |
 *
 * From schema version 7 every value above ends with 4 more bytes, the CRC-32 of the value
 * (record-checksums.ts): writes append it and reads check and remove it in one place, so the
 * formats above are what every other module sees. `V` is read before the store says whether its
 * values carry checksums, so its reader takes it with or without one (decodeVersionRecord).
 *
 * Block index record (`H`): flags(u8: bit0 = data stored) ‖ height(u32 LE) ‖ chainWork(32, big-endian)
 * ‖ size(u32 LE) ‖ txCount(u32 LE) ‖ file(u32 LE) ‖ offset(u32 LE) ‖ header bytes (rest).
 * The header is kept whole (as zcashd's CDiskBlockIndex does) so header-only RPCs never touch block files.
 *
 * Big-endian heights in `h` keys make LevelDB's byte order equal numeric order, so a range scan walks
 * the best chain in height order. `t` values hold no block hash: `h` resolves it, which saves 32 bytes per
 * transaction (≈ 0.5 GB on mainnet) and cannot go stale because both are updated in the same batch.
 *
 * Why `u` exists: disconnecting a block must remove exactly its `t` entries; storing the txids at accept
 * time means neither a disconnect nor a later (re)connect has to decode the block again (v5 txids need a
 * ZIP-244 hash tree, the most expensive part of decoding).
 *
 * The insight explorer indexes (`d`, `a`, `p`, `s`) use zcashd's own key serializations
 * (src/addressindex.h, src/spentindex.h, src/timestampindex.h) after our prefix byte, so a LevelDB
 * range scan returns entries in exactly the order zcashd's cursor does: `type` is 1 (P2PKH) or 2
 * (P2SH), big-endian heights and block positions sort numerically, while output indexes are
 * little-endian as in zcashd (index 256 sorts before index 1 within one transaction).
 * What an input spends (value, script) comes from the chain state's coins view `c`
 * (indexes/chain-state-index.ts), so the address index keeps no UTXO set of its own. Their values
 * leave out what other records determine: an unspent entry's script (its key's type and hash
 * rebuild it) and a spender's txid (`h` and `u` resolve its height and index in the block, as
 * for `t`); on mainnet that is ≈ 28 bytes per transparent input and 25 per unspent output less
 * to write, compact and keep. Values written with them by earlier releases are read as well.
 *
 * Evolving the layout: the schema version in `V` counts the migrations applied (migrations/). A
 * migration only ever adds data under a new prefix (or deletes a prefix it owns), so a store is
 * readable at every step and records written by older code never change meaning. Indexers
 * (indexes/) own their prefixes; each prefix is listed in the table above with its owner, each
 * indexer declares its own (`keyPrefixes`), and a store refuses to open when two owners, the
 * chain (CHAIN_KEY_PREFIXES) included, claim one (indexer-set.ts).
 */
import { join } from 'node:path';

export const SCHEMA_VERSION = 7;

/** The chain store's directory in a (network's) data directory. */
export function storeDirectory(datadir: string): string {
  return join(datadir, 'zecrpc');
}

const PREFIX = {
  version: 0x56, // V
  index: 0x48, // H
  txids: 0x75, // u
  height: 0x68, // h
  tx: 0x74, // t
  tip: 0x54, // T
  best: 0x57, // W
  fileCursor: 0x46, // F
  blockData: 0x62, // b
  importCheckpoint: 0x49, // I
  chainTx: 0x6e, // n
  undo: 0x55, // U
  invalid: 0x78, // x
  addressDelta: 0x64, // d
  addressUnspent: 0x61, // a
  spent: 0x70, // p
  timestamp: 0x73, // s
  blockTimestamp: 0x53, // S
  migrationProgress: 0x58, // X
  highestRecord: 0x4d, // M
  chainTip: 0x4b, // K
  recordChecksums: 0x52, // R
  noAddressIndex: 0x4f, // O
} as const;

/** The key prefixes the chain itself writes (every other prefix belongs to one indexer). */
export const CHAIN_KEY_PREFIXES: readonly number[] = [
  PREFIX.version,
  PREFIX.index,
  PREFIX.txids,
  PREFIX.height,
  PREFIX.tip,
  PREFIX.best,
  PREFIX.fileCursor,
  PREFIX.blockData,
  PREFIX.importCheckpoint,
  PREFIX.chainTx,
  PREFIX.undo,
  PREFIX.invalid,
  PREFIX.migrationProgress,
  PREFIX.highestRecord,
  PREFIX.chainTip,
  PREFIX.recordChecksums,
  PREFIX.noAddressIndex,
];

/** prefix ‖ type ‖ hash160: the start of every key of one address in `d` and `a`. */
function addressPrefix(prefix: number, type: number, hash160: Uint8Array, extra: number): Buffer {
  const k = Buffer.allocUnsafe(22 + extra);
  writeAddressPrefix(k, 0, prefix, type, hash160, 0);
  return k;
}

/** Writes prefix ‖ type ‖ the 20 hash bytes at `hash[hashAt…]` (a script's, without a view of it). */
function writeAddressPrefix(out: Buffer, at: number, prefix: number, type: number, hash: Uint8Array, hashAt: number): void {
  out[at] = prefix;
  out[at + 1] = type;
  copyHash160(out, at + 2, hash, hashAt);
}

/** The 20 bytes at `from[fromAt…]` into `out` at `at`. */
export function copyHash160(out: Uint8Array, at: number, from: Uint8Array, fromAt: number): void {
  for (let i = 0; i < 20; i++) out[at + i] = from[fromAt + i]!;
}

/** prefix ‖ txid ‖ n(u32 LE): zcashd's outpoint serialization. */
function outpointKey(prefix: number, txid: Uint8Array, n: number): Buffer {
  const k = Buffer.allocUnsafe(37);
  writeOutpoint(k, 0, prefix, txid, n);
  return k;
}

function writeOutpoint(out: Buffer, at: number, prefix: number, txid: Uint8Array, n: number): void {
  out[at] = prefix;
  out.set(txid, at + 1);
  out.writeUInt32LE(n, at + 33);
}

function prefixed(prefix: number, body: Uint8Array): Buffer {
  const k = Buffer.allocUnsafe(1 + body.length);
  k[0] = prefix;
  k.set(body, 1);
  return k;
}

/** Sizes of the address-index keys an indexer writes by the thousand (keyWriters). */
export const ADDRESS_DELTA_KEY_BYTES = 67;
export const ADDRESS_UNSPENT_KEY_BYTES = 58;
export const SPENT_KEY_BYTES = 37;

/**
 * The address-index keys written into memory the caller provides: the indexer writes thousands
 * per block into one buffer (packed-ops.ts), and the hash comes straight from the script that
 * holds it (`hash[hashAt…]`), so no key or hash object is made per row. `keys` builds the same
 * bytes one key at a time.
 */
export const keyWriters = {
  addressDelta(
    out: Buffer,
    at: number,
    type: number,
    hash: Uint8Array,
    hashAt: number,
    height: number,
    txIndex: number,
    txid: Uint8Array,
    n: number,
    spending: boolean,
  ): void {
    writeAddressPrefix(out, at, PREFIX.addressDelta, type, hash, hashAt);
    out.writeUInt32BE(height, at + 22);
    out.writeUInt32BE(txIndex, at + 26);
    out.set(txid, at + 30);
    out.writeUInt32LE(n, at + 62);
    out[at + 66] = spending ? 1 : 0;
  },
  addressUnspent(out: Buffer, at: number, type: number, hash: Uint8Array, hashAt: number, txid: Uint8Array, n: number): void {
    writeAddressPrefix(out, at, PREFIX.addressUnspent, type, hash, hashAt);
    out.set(txid, at + 22);
    out.writeUInt32LE(n, at + 54);
  },
  spent(out: Buffer, at: number, txid: Uint8Array, n: number): void {
    writeOutpoint(out, at, PREFIX.spent, txid, n);
  },
};

export const keys = {
  version: (): Buffer => Buffer.of(PREFIX.version),
  index: (hash: Uint8Array): Buffer => prefixed(PREFIX.index, hash),
  txids: (hash: Uint8Array): Buffer => prefixed(PREFIX.txids, hash),
  height: (height: number): Buffer => {
    const k = Buffer.allocUnsafe(5);
    k[0] = PREFIX.height;
    k.writeUInt32BE(height, 1);
    return k;
  },
  heightPrefix: PREFIX.height,
  tx: (txid: Uint8Array): Buffer => prefixed(PREFIX.tx, txid),
  txPrefix: PREFIX.tx,
  tip: (): Buffer => Buffer.of(PREFIX.tip),
  best: (): Buffer => Buffer.of(PREFIX.best),
  fileCursor: (): Buffer => Buffer.of(PREFIX.fileCursor),
  blockData: (hash: Uint8Array): Buffer => prefixed(PREFIX.blockData, hash),
  importCheckpoint: (source: string): Buffer => prefixed(PREFIX.importCheckpoint, Buffer.from(source, 'utf8')),
  chainTx: (hash: Uint8Array): Buffer => prefixed(PREFIX.chainTx, hash),
  undo: (hash: Uint8Array): Buffer => prefixed(PREFIX.undo, hash),
  invalid: (hash: Uint8Array): Buffer => prefixed(PREFIX.invalid, hash),
  invalidPrefix: PREFIX.invalid,
  highestRecord: (): Buffer => Buffer.of(PREFIX.highestRecord),
  /** Present when every value of the store carries its checksum (record-checksums.ts). */
  recordChecksums: (): Buffer => Buffer.of(PREFIX.recordChecksums),
  /**
   * Present when the store keeps no address index (created with `addressIndex: false`): a store
   * is created with or without it and never changes, since the index covers every block the store
   * holds (from genesis, or from its checkpoint).
   */
  noAddressIndex: (): Buffer => Buffer.of(PREFIX.noAddressIndex),
  /** A childless block (a chain tip); `chainTipsKept` alone marks the set as complete. */
  chainTip: (hash: Uint8Array): Buffer => prefixed(PREFIX.chainTip, hash),
  chainTipsKept: (): Buffer => Buffer.of(PREFIX.chainTip),
  chainTipPrefix: PREFIX.chainTip,
  indexPrefix: PREFIX.index,
  /** CAddressIndexKey: one receive (spending=false) or spend (spending=true) of an address. */
  addressDelta: (
    type: number,
    hash160: Uint8Array,
    height: number,
    txIndex: number,
    txid: Uint8Array,
    n: number,
    spending: boolean,
  ): Buffer => {
    const k = Buffer.allocUnsafe(ADDRESS_DELTA_KEY_BYTES);
    keyWriters.addressDelta(k, 0, type, hash160, 0, height, txIndex, txid, n, spending);
    return k;
  },
  /** CAddressIndexIteratorKey / …HeightKey: where an address's deltas (from `height`) begin. */
  addressDeltaPrefix: (type: number, hash160: Uint8Array, height?: number): Buffer => {
    if (height === undefined) return addressPrefix(PREFIX.addressDelta, type, hash160, 0);
    const k = addressPrefix(PREFIX.addressDelta, type, hash160, 4);
    k.writeUInt32BE(height, 22);
    return k;
  },
  /** CAddressUnspentKey. */
  addressUnspent: (type: number, hash160: Uint8Array, txid: Uint8Array, n: number): Buffer => {
    const k = Buffer.allocUnsafe(ADDRESS_UNSPENT_KEY_BYTES);
    keyWriters.addressUnspent(k, 0, type, hash160, 0, txid, n);
    return k;
  },
  addressUnspentPrefix: (type: number, hash160: Uint8Array): Buffer => addressPrefix(PREFIX.addressUnspent, type, hash160, 0),
  /** CSpentIndexKey. */
  spent: (txid: Uint8Array, n: number): Buffer => outpointKey(PREFIX.spent, txid, n),
  /** CTimestampIndexKey (and, without a hash, CTimestampIndexIteratorKey). */
  timestamp: (logicalTime: number, hash?: Uint8Array): Buffer => {
    const k = Buffer.allocUnsafe(hash ? 37 : 5);
    k[0] = PREFIX.timestamp;
    k.writeUInt32BE(logicalTime, 1);
    if (hash) k.set(hash, 5);
    return k;
  },
  blockTimestamp: (hash: Uint8Array): Buffer => prefixed(PREFIX.blockTimestamp, hash),
  migrationProgress: (version: number): Buffer => {
    const k = Buffer.allocUnsafe(5);
    k[0] = PREFIX.migrationProgress;
    k.writeUInt32BE(version, 1);
    return k;
  },
  /**
   * Scratch outpoint records of migration `version`, beside its resume position: a replay that
   * needs data the store only holds for the tip keeps it here while it runs.
   */
  migrationScratch: (version: number, txid: Uint8Array, n: number): Buffer => {
    const k = Buffer.allocUnsafe(41);
    k[0] = PREFIX.migrationProgress;
    k.writeUInt32BE(version, 1);
    k.set(txid, 5);
    k.writeUInt32LE(n, 37);
    return k;
  },
  /** One-byte prefixes of the address index, for whole-prefix scans (tests, rebuilds). */
  addressIndexPrefixes: [PREFIX.addressDelta, PREFIX.addressUnspent, PREFIX.spent, PREFIX.timestamp, PREFIX.blockTimestamp] as const,
};

export function encodeChainTx(count: number): Buffer {
  const v = Buffer.allocUnsafe(8);
  v.writeBigUInt64LE(BigInt(count), 0);
  return v;
}

export function decodeChainTx(v: Uint8Array): number {
  const b = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (b.length !== 8) throw new Error(`corrupt nChainTx record (${b.length} bytes)`);
  return Number(b.readBigUInt64LE(0));
}

/** The parts of a block index record that never change once written. */
export interface IndexRecord {
  haveData: boolean;
  height: number;
  chainWork: bigint;
  size: number;
  txCount: number;
  /** Flat-file location (0/0 for the LevelDB backend). */
  file: number;
  offset: number;
  header: Uint8Array;
}

const RECORD_FIXED = 1 + 4 + 32 + 4 + 4 + 4 + 4;

export function encodeIndexRecord(r: IndexRecord): Buffer {
  const v = Buffer.allocUnsafe(RECORD_FIXED + r.header.length);
  v[0] = r.haveData ? 1 : 0;
  v.writeUInt32LE(r.height, 1);
  v.set(bigintTo32BE(r.chainWork), 5);
  v.writeUInt32LE(r.size, 37);
  v.writeUInt32LE(r.txCount, 41);
  v.writeUInt32LE(r.file, 45);
  v.writeUInt32LE(r.offset, 49);
  v.set(r.header, RECORD_FIXED);
  return v;
}

/** Whether a block index record (raw, a checksum after it or not) says the block's data is stored. */
export function indexRecordHasData(v: Uint8Array): boolean {
  return v.length > 0 && (v[0]! & 1) === 1;
}

export function decodeIndexRecord(v: Uint8Array): IndexRecord {
  const b = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (b.length < RECORD_FIXED + 140) throw new Error(`corrupt block index record (${b.length} bytes)`);
  return {
    haveData: indexRecordHasData(b),
    height: b.readUInt32LE(1),
    chainWork: BigInt('0x' + b.subarray(5, 37).toString('hex')),
    size: b.readUInt32LE(37),
    txCount: b.readUInt32LE(41),
    file: b.readUInt32LE(45),
    offset: b.readUInt32LE(49),
    header: new Uint8Array(b.subarray(RECORD_FIXED)),
  };
}

export function bigintTo32BE(n: bigint): Uint8Array {
  return Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
}

export function encodeTip(hash: Uint8Array, height: number): Buffer {
  const v = Buffer.allocUnsafe(36);
  v.set(hash, 0);
  v.writeUInt32LE(height, 32);
  return v;
}

export function decodeTip(v: Uint8Array): { hash: Uint8Array; height: number } {
  const b = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (b.length !== 36) throw new Error(`corrupt tip record (${b.length} bytes)`);
  return { hash: new Uint8Array(b.subarray(0, 32)), height: b.readUInt32LE(32) };
}

export function encodeHighestRecord(height: number): Buffer {
  const v = Buffer.allocUnsafe(4);
  v.writeUInt32LE(height, 0);
  return v;
}

/** The height `M` holds, or -1 for a store without it (no block record yet). */
export function decodeHighestRecord(v: Uint8Array | undefined): number {
  if (!v) return -1;
  const b = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (b.length !== 4) throw new Error(`corrupt highest-record mark (${b.length} bytes)`);
  return b.readUInt32LE(0);
}

export function encodeTxLocation(height: number, index: number): Buffer {
  const v = Buffer.allocUnsafe(8);
  v.writeUInt32LE(height, 0);
  v.writeUInt32LE(index, 4);
  return v;
}

export function decodeTxLocation(v: Uint8Array): { height: number; index: number } {
  const b = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (b.length !== 8) throw new Error(`corrupt transaction index entry (${b.length} bytes)`);
  return { height: b.readUInt32LE(0), index: b.readUInt32LE(4) };
}

export function encodeFileCursor(file: number, length: number): Buffer {
  const v = Buffer.allocUnsafe(8);
  v.writeUInt32LE(file, 0);
  v.writeUInt32LE(length, 4);
  return v;
}

export function decodeFileCursor(v: Uint8Array): { file: number; length: number } {
  const b = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (b.length !== 8) throw new Error(`corrupt block-file cursor (${b.length} bytes)`);
  return { file: b.readUInt32LE(0), length: b.readUInt32LE(4) };
}

/** Splits a `u` value into its txids. */
export function splitTxids(v: Uint8Array): Uint8Array[] {
  if (v.length % 32 !== 0) throw new Error(`corrupt txid list (${v.length} bytes)`);
  const out: Uint8Array[] = [];
  for (let i = 0; i < v.length; i += 32) out.push(v.subarray(i, i + 32));
  return out;
}

/** The height and parent hash an index record (`H` value) holds, without decoding the rest. */
export function indexRecordLink(v: Uint8Array): { height: number; parent: Buffer } {
  const b = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (b.length < RECORD_FIXED + 140) throw new Error(`corrupt block index record (${b.length} bytes)`);
  return { height: b.readUInt32LE(1), parent: b.subarray(RECORD_FIXED + 4, RECORD_FIXED + 36) };
}
