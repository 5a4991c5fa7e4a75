/**
 * `getrawtransaction "txid" ( verbose "blockhash" )` (src/rpc/rawtransaction.cpp, v6.12.2) over
 * the chain store. zecrpc has no mempool, and its store keeps a txid index of the best chain,
 * so lookups behave like zcashd running with `-txindex`: the not-found message is the txindex
 * one, and the genesis coinbase is not found without a block hash (zcashd never connects the
 * genesis block's transactions, so its txindex has no entry for them).
 */
import { blockHeaderHash, readBlockHeader } from '../../../codec/block.js';
import { STORED_BLOCK_ACCEPTANCE } from '../../../codec/tx/acceptance.js';
import { ByteReader } from '../../../codec/bytes.js';
import { bytesEqual, toHexReversed } from '../../../codec/hex.js';
import { readTransaction, type Transaction } from '../../../codec/tx/transaction.js';
import { transactionEnd } from '../../../codec/tx/transaction-end.js';
import { TransactionStarts } from './transaction-starts.js';
import { getInt, JsonWriter } from '../../../json/index.js';
import { txToJsonBytes, type TxJsonExtras } from '../../../render/tx.js';
import type { SpentIndexLookup } from '../spent-index-lookup.js';
import type { BlockIndexEntry, ChainStoreReader, ChainTip } from '../../../store/types.js';
import { TipScopedReplyCache, tipScope } from '../blockchain/reply-cache.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import type { ReplyScope } from '../../workers/reply-slab.js';
import { renderInLentMemory } from '../reply-memory.js';
import { hashHexV, isZeroHash, uint256FromHexLenient } from '../../params.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc, helpLines as lines } from '../../help-examples.js';

export const GETRAWTRANSACTION_HELP: string =
  lines(
    'getrawtransaction "txid" ( verbose "blockhash" )',
    '',
    'NOTE: If "blockhash" is not provided and the -txindex option is not enabled, then this call only',
    'works for mempool transactions. If either "blockhash" is provided or the -txindex option is',
    'enabled, it also works for blockchain transactions. If the block which contains the transaction',
    'is known, its hash can be provided even for nodes without -txindex. Note that if a blockhash is',
    'provided, only that block will be searched and if the transaction is in the mempool or other',
    'blocks, or if this node does not have the given block available, the transaction will not be found.',
    '',
    'Return the raw transaction data.',
    '',
    "If verbose=0, returns a string that is serialized, hex-encoded data for 'txid'.",
    "If verbose is non-zero, returns an Object with information about 'txid'.",
    '',
    'Arguments:',
    '1. "txid"      (string, required) The transaction id',
    '2. verbose     (numeric, optional, default=0) If 0, return a string of hex-encoded data, otherwise return a JSON object',
    '3. "blockhash" (string, optional) The block in which to look for the transaction',
    '',
    'Result (if verbose is not set or set to 0):',
    '"data"      (string) The serialized, hex-encoded data for \'txid\'',
    '',
    'Result (if verbose > 0):',
    '{',
    '  "in_active_chain": b,        (bool) Whether specified block is in the active chain or not (only present with explicit "blockhash" argument)',
    '  "hex" : "data",              (string) The serialized, hex-encoded data for \'txid\'',
    '  "txid" : "id",               (string) The transaction id (same as provided)',
    '  "authdigest" : "id",         (string) The transaction\'s auth digest. For pre-v5 transactions this will be ffff..ffff',
    '  "size" : n,                  (numeric) The transaction size',
    '  "overwintered" : b,          (bool, optional) Whether the overwintered flag is set',
    '  "version" : n,               (numeric) The version',
    '  "versiongroupid" : "hex",    (string, optional) The version group ID',
    '  "locktime" : ttt,            (numeric) The lock time',
    '  "expiryheight" : ttt,        (numeric, optional) The block height after which the transaction expires',
    '  "vin" : [                    (array of json objects)',
    '     {                    (coinbase transactions)',
    '       "coinbase": "hex", (string) The coinbase scriptSig as hex',
    '       "sequence": n      (numeric) The script sequence number',
    '     },',
    '     {                    (non-coinbase transactions)',
    '       "txid": "id",      (string) The transaction id',
    '       "vout": n,         (numeric) ',
    '       "scriptSig": {     (json object) The script',
    '         "asm": "asm",    (string) asm',
    '         "hex": "hex"     (string) hex',
    '       },',
    '       "sequence": n      (numeric) The script sequence number',
    '       "value": n         (numeric, optional) The value of the output being spent in ZEC',
    '       "valueSat": n      (numeric, optional) The value of the output being spent, in zats',
    '       "address": n       (string, optional) The address of the output being spent',
    '     }',
    '     ,...',
    '  ],',
    '  "vout" : [              (array of json objects)',
    '     {',
    '       "value" : x.xxx,            (numeric) The value in ZEC',
    '       "valueZat" : n,             (numeric) The value in zats',
    '       "valueSat" : n,             (numeric) The value in zats',
    '       "n" : n,                    (numeric) index',
    '       "scriptPubKey" : {          (json object)',
    '         "asm" : "asm",            (string) the asm',
    '         "hex" : "hex",            (string) the hex',
    '         "reqSigs" : n,            (numeric) The required sigs',
    '         "type" : "pubkeyhash",    (string) The type, eg \'pubkeyhash\'',
    '         "addresses" : [           (json array of string)',
    '           "zcashaddress"          (string) Zcash address',
    '           ,...',
    '         ]',
    '       }',
    '     }',
    '     ,...',
    '  ],',
    '  "vjoinsplit" : [        (array of json objects, only for version >= 2)',
    '     {',
    '       "vpub_old" : x.xxx,         (numeric) public input value in ZEC',
    '       "vpub_oldZat" : n,          (numeric) public input value in zats',
    '       "vpub_new" : x.xxx,         (numeric) public output value in ZEC',
    '       "vpub_newZat" : n,          (numeric) public output value in zats',
    '       "anchor" : "hex",           (string) the anchor',
    '       "nullifiers" : [            (json array of string)',
    '         "hex"                     (string) input note nullifier',
    '         ,...',
    '       ],',
    '       "commitments" : [           (json array of string)',
    '         "hex"                     (string) output note commitment',
    '         ,...',
    '       ],',
    '       "onetimePubKey" : "hex",    (string) the onetime public key used to encrypt the ciphertexts',
    '       "randomSeed" : "hex",       (string) the random seed',
    '       "macs" : [                  (json array of string)',
    '         "hex"                     (string) input note MAC',
    '         ,...',
    '       ],',
    '       "proof" : "hex",            (string) the zero-knowledge proof',
    '       "ciphertexts" : [           (json array of string)',
    '         "hex"                     (string) output note ciphertext',
    '         ,...',
    '       ]',
    '     }',
    '     ,...',
    '  ],',
    '  "valueBalance" : x.xxx,  (numeric, optional) The net value of Sapling Spends minus Outputs in ZEC',
    '  "valueBalanceZat" : n,   (numeric, optional) The net value of Sapling Spends minus Outputs in zatoshis',
    '  "vShieldedSpend" : [     (array of json objects, only for version >= 3)',
    '     {',
    '       "cv" : "hex",           (string) Value commitment to the input note',
    '       "anchor" : "hex",       (string) Merkle root of the Sapling note commitment tree',
    '       "nullifier" : "hex",    (string) The nullifier of the input note',
    '       "rk" : "hex",           (string) The randomized public key for spendAuthSig',
    '       "proof" : "hex",        (string) A zero-knowledge proof using the Sapling Spend circuit',
    '       "spendAuthSig" : "hex", (string) A signature authorizing this Spend',
    '     }',
    '     ,...',
    '  ],',
    '  "vShieldedOutput" : [            (array of json objects, only for version >= 3)',
    '     {',
    '       "cv" : "hex",             (string) Value commitment to the input note',
    '       "cmu" : "hex",            (string) The u-coordinate of the note commitment for the output note',
    '       "ephemeralKey" : "hex",   (string) A Jubjub public key',
    '       "encCiphertext" : "hex",  (string) The output note encrypted to the recipient',
    '       "outCiphertext" : "hex",  (string) A ciphertext enabling the sender to recover the output note',
    '       "proof" : "hex",          (string) A zero-knowledge proof using the Sapling Output circuit',
    '     }',
    '     ,...',
    '  ],',
    '  "bindingSig" : "hash",          (string, optional) The Sapling binding sig',
    '  "orchard" : {                   (JSON object with Orchard-specific information)',
    '     "actions" : [                (JSON array of objects)',
    '       {',
    '         "cv" : "hex",            (string) A value commitment to the net value of the input note minus the output note',
    '         "nullifier" : "hex",     (string) The nullifier of the input note',
    '         "rk" : "hex",            (string) The randomized validating key for spendAuthSig',
    '         "cmx" : "hex",           (string) The x-coordinate of the note commitment for the output note',
    '         "ephemeralKey" : "hex",  (string) An encoding of an ephemeral Pallas public key',
    '         "encCiphertext" : "hex", (string) The output note encrypted to the recipient',
    '         "outCiphertext" : "hex", (string) A ciphertext enabling the sender to recover the output note',
    '         "spendAuthSig" : "hex"   (string) A signature authorizing the spend in this Action',
    '       }',
    '       ,...',
    '     ],',
    '     "valueBalance" : x.xxx,      (numeric, optional) The net value of Orchard Actions in ZEC',
    '     "valueBalanceZat" : n,       (numeric, optional) The net value of Orchard Actions in zatoshis',
    '     "flags" : { (optional)',
    '       "enableSpends"  : true|false (bool)',
    '       "enableOutputs" : true|false (bool)',
    '     },',
    '     "anchor" : "hex",          (string, optional) A root of the Orchard note commitment tree at some block height in the past',
    '     "proof" : "hex",           (string, optional) Encoding of aggregated zk-SNARK proofs for Orchard Actions',
    '     "bindingSig" : "hex"       (string, optional) An Orchard binding signature on the SIGHASH transaction hash',
    '  },',
    '  "joinSplitPubKey" : "hex",      (string, optional) An encoding of a JoinSplitSig public validating key',
    '  "joinSplitSig" : "hex",         (string, optional) The Sprout binding signature',
    '  "blockhash" : "hash",           (string) the block hash',
    '  "height" : n,                   (numeric) the block height',
    '  "confirmations" : n,            (numeric) The confirmations',
    '  "time" : ttt,                   (numeric) The transaction time in seconds since epoch (Jan 1 1970 GMT)',
    '  "blocktime" : ttt               (numeric) The block time in seconds since epoch (Jan 1 1970 GMT)',
    '}',
    '',
    'Examples:',
  ) +
  exampleCli('getrawtransaction', '"mytxid"') +
  exampleCli('getrawtransaction', '"mytxid" 1') +
  exampleRpc('getrawtransaction', '"mytxid", 1') +
  exampleCli('getrawtransaction', '"mytxid" 0 "myblockhash"') +
  exampleCli('getrawtransaction', '"mytxid" 1 "myblockhash"');

const WALLET_HINT = '. Use gettransaction for wallet transactions.';

/** A transaction found in a stored block, with the block it came from. */
interface FoundTx {
  tx: Transaction;
  blockHash: Uint8Array;
  /** nTime of the containing block's header. */
  blockTime: number;
}

/**
 * Reads the block's transactions in order until `match` accepts one. Stops early, so looking
 * up an early transaction of a 2 MB block parses only what precedes it. A block that does not
 * decode yields nothing (GetTransaction's ReadBlockFromDisk failure).
 */
function scanBlock(bytes: Uint8Array, match: (tx: Transaction) => boolean): FoundTx | null {
  try {
    const r = new ByteReader(bytes);
    const header = readBlockHeader(r);
    const count = r.compactSize();
    for (let i = 0; i < count; i++) {
      const tx = readTransaction(r, STORED_BLOCK_ACCEPTANCE);
      if (match(tx)) return { tx, blockHash: blockHeaderHash(header), blockTime: header.time };
    }
  } catch {
    return null;
  }
  return null;
}

/**
 * The block's transaction at `index` when it has `txid` (zcashd re-checks the txid of what it
 * read), else null, as scanBlock answers for it. The transactions before it are stepped over by
 * their lengths where transactionEnd can tell them, and read whole where it cannot, so a block
 * whose earlier transactions do not decode still yields nothing; from where the block's `starts`
 * already reach, they are not stepped over again. Starts that lead to no transaction with the
 * txid are forgotten and the block stepped through afresh.
 */
function readAtPosition(bytes: Uint8Array, index: number, txid: Uint8Array, starts: number[]): FoundTx | null {
  const remembered = starts.length > 0;
  const found = stepToPosition(bytes, index, txid, starts);
  if (found || !remembered) return found;
  starts.length = 0;
  return stepToPosition(bytes, index, txid, starts);
}

function stepToPosition(bytes: Uint8Array, index: number, txid: Uint8Array, starts: number[]): FoundTx | null {
  try {
    const r = new ByteReader(bytes);
    const header = readBlockHeader(r);
    if (index >= r.compactSize()) return null;
    if (starts.length === 0) starts.push(r.pos);
    let i = Math.min(index, starts.length - 1);
    r.pos = starts[i]!;
    for (; i < index; i++) {
      const next = transactionEnd(r.buf, r.pos, r.end, STORED_BLOCK_ACCEPTANCE);
      if (next >= 0) r.pos = next;
      else readTransaction(r, STORED_BLOCK_ACCEPTANCE);
      if (i + 1 === starts.length) starts.push(r.pos);
    }
    const tx = readTransaction(r, STORED_BLOCK_ACCEPTANCE);
    return bytesEqual(tx.txid, txid) ? { tx, blockHash: blockHeaderHash(header), blockTime: header.time } : null;
  } catch {
    return null;
  }
}

/**
 * The position of `txid` in the block's stored txid list, or -1 (not listed, or no list). A
 * position found is only a hint: the transaction read there must still have that txid.
 */
async function listedPosition(store: ChainStoreReader, blockHash: Uint8Array, txid: Uint8Array): Promise<number> {
  const txids = await store.blockTxids(blockHash);
  if (!txids) return -1;
  for (let i = 0; i < txids.length; i++) if (bytesEqual(txids[i]!, txid)) return i;
  return -1;
}

/** GetTransaction with an explicit block: only that block is searched. */
async function findInBlock(store: ChainStoreReader, starts: TransactionStarts, entry: BlockIndexEntry, txid: Uint8Array): Promise<FoundTx> {
  const bytes = entry.haveData ? await store.blockBytes(entry.hash) : null;
  if (!bytes) throw new RpcError(RPC.MISC_ERROR, 'Block not available');
  // Through the stored txid list, only the transaction at the listed position is hashed, not
  // every one before it; without it (or if the block disagrees with it), every one in turn.
  const listed = await listedPosition(store, entry.hash, txid);
  const found =
    (listed >= 0 ? readAtPosition(bytes, listed, txid, starts.of(entry.hash, bytes)) : null) ??
    scanBlock(bytes, (tx) => bytesEqual(tx.txid, txid));
  if (!found) {
    throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, `No such transaction found in the provided block${WALLET_HINT}`);
  }
  return found;
}

/** GetTransaction through the txid index (zcashd with -txindex and an empty mempool). */
async function findInIndex(store: ChainStoreReader, starts: TransactionStarts, txid: Uint8Array): Promise<FoundTx> {
  const notFound = new RpcError(RPC.INVALID_ADDRESS_OR_KEY, `No such mempool or blockchain transaction${WALLET_HINT}`);
  const location = await store.txLocation(txid);
  if (!location || location.height === 0) throw notFound;
  const bytes = await store.blockBytes(location.blockHash);
  if (!bytes) throw notFound;
  // zcashd re-checks the txid of what it read ("txid mismatch" → not found).
  const found = readAtPosition(bytes, location.index, txid, starts.of(location.blockHash, bytes));
  if (!found) throw notFound;
  return found;
}

/**
 * TxToJSON's block members: height/confirmations/time on the active chain, else -1/0, from the
 * containing block's index entry and one reading of the tip.
 */
function blockExtras(found: FoundTx, entry: BlockIndexEntry | null, tip: ChainTip | null): TxJsonExtras['block'] {
  if (!entry) return undefined;
  if (entry.onBestChain && tip && entry.height <= tip.height) {
    return {
      hash: found.blockHash,
      height: entry.height,
      confirmations: 1 + tip.height - entry.height,
      time: found.blockTime,
    };
  }
  return { hash: found.blockHash, notIndexed: true };
}

/** Readings of the chain a reply makes at most before it answers from the last, however often the tip moves. */
const CHAIN_VIEW_READINGS = 3;

/**
 * The given block's index entry, the containing block's and the tip, read while the tip did not
 * move (a store that counts its tip changes tells), so that a reply's block members and
 * `in_active_chain` describe one chain, as zcashd answers them under its lock: read again when a
 * block was connected or the chain reorganized meanwhile. The given block's entry, already read,
 * is the containing block's when the transaction was found in it.
 */
async function chainView(
  store: ChainStoreReader,
  found: FoundTx,
  given: BlockIndexEntry | null,
  changes: number | undefined,
): Promise<{ given: BlockIndexEntry | null; entry: BlockIndexEntry | null; tip: ChainTip | null }> {
  for (let reading = 1; ; reading++) {
    const entry = given && bytesEqual(given.hash, found.blockHash) ? given : await store.blockIndex(found.blockHash);
    const tip = await store.tip();
    const now = store.tipChanges?.();
    if (now === changes || reading === CHAIN_VIEW_READINGS) return { given, entry, tip };
    changes = now;
    if (given) given = (await store.blockIndex(given.hash)) ?? given;
  }
}

/** Bytes of finished replies kept for the current tip (a verbose reply is several times its transaction's size). */
const GETRAWTRANSACTION_CACHE_BYTES = 32 * 1024 * 1024;

export interface GetRawTransactionOptions {
  /** The spent index's members in the verbose object (-insightexplorer); none by default. */
  spentIndexLookup?: SpentIndexLookup | null;
  /** Keep finished replies for the current tip (default true; off to measure the uncached path). */
  cacheReplies?: boolean;
}

/**
 * Replies are cached per chain tip, as getblock's are: a stored transaction's bytes never
 * change, and everything else in the reply (which block it is in on the active chain, its
 * confirmations, `in_active_chain`) is a function of the active chain, which the tip determines.
 * Explorers ask for the same transactions over and over, and a large transaction's verbose
 * reply costs far more to read, decode and render than to send again. With the
 * spent index the reply is not cached: its members are the index's, not the block's.
 */
export function getRawTransactionMethod(store: ChainStoreReader, options: GetRawTransactionOptions = {}): RpcMethod {
  const spentIndexLookup = options.spentIndexLookup ?? null;
  const cacheReplies = (options.cacheReplies ?? true) && spentIndexLookup === null;
  const cache = cacheReplies ? new TipScopedReplyCache(GETRAWTRANSACTION_CACHE_BYTES) : null;
  const starts = new TransactionStarts();
  return {
    name: 'getrawtransaction',
    category: 'rawtransactions',
    required: 1,
    optional: 2,
    help: GETRAWTRANSACTION_HELP,
    ...(cache
      ? {
          cache: {
            get bytes() {
              return cache.size;
            },
            clear: () => cache.clear(),
          },
        }
      : {}),
    call(params, ctx) {
      const txidHex = hashHexV(params[0], 'parameter 1');
      // An int getter, unlike getblock: true/false are type errors, any non-zero is verbose.
      const verbose = params.length > 1 ? getInt(params[1]!) !== 0 : false;
      const blockHex = params.length > 2 ? hashHexV(params[2], 'parameter 3') : null;
      if (!cache)
        return rawTransactionReply(store, starts, spentIndexLookup, ...hashes(txidHex, blockHex), verbose, { scope: ctx.replyScope });

      const key = `${verbose ? 1 : 0}:${hashKey(txidHex)}:${blockHex === null ? '' : hashKey(blockHex)}`;
      // A reply held for the tip as it is now is answered at once, without waiting for the tip:
      // a store that counts its tip changes tells whether the tip is still the reply's.
      const held = store.tipChanges ? cache.getAtChanges<Buffer>(store.tipChanges(), key) : undefined;
      return held ?? cachedReply(store, starts, cache, spentIndexLookup, ...hashes(txidHex, blockHex), verbose, key);
    },
  };
}

/** The transaction's hash and the given block's (null for none, or the all-zero hash, which means none). */
function hashes(txidHex: string, blockHex: string | null): [Uint8Array, Uint8Array | null] {
  const blockHash = blockHex === null ? null : uint256FromHexLenient(blockHex);
  return [uint256FromHexLenient(txidHex), blockHash !== null && !isZeroHash(blockHash) ? blockHash : null];
}

/**
 * A hash parameter's part of a cache key: a hash's usual 64 digits as they are (each such text
 * names one hash, so the key needs no decoding), other lengths as the 64 digits they name, so
 * that a long parameter makes no long key.
 */
function hashKey(hex: string): string {
  return hex.length === 64 ? hex : toHexReversed(uint256FromHexLenient(hex));
}

/** The reply cached for the tip, or rendered and kept for it. */
async function cachedReply(
  store: ChainStoreReader,
  starts: TransactionStarts,
  cache: TipScopedReplyCache,
  spentIndexLookup: SpentIndexLookup | null,
  txid: Uint8Array,
  givenBlock: Uint8Array | null,
  verbose: boolean,
  key: string,
): Promise<Buffer> {
  const scope = await tipScope(store);
  const cached = cache.get<Buffer>(scope.scope, key);
  if (cached !== undefined) return cached;
  const reply = await rawTransactionReply(store, starts, spentIndexLookup, txid, givenBlock, verbose, null);
  cache.set(scope, await tipScope(store), key, reply);
  return reply;
}

/** GetTransaction, then the hex or TxToJSON of what it found. */
async function rawTransactionReply(
  store: ChainStoreReader,
  starts: TransactionStarts,
  spentIndexLookup: SpentIndexLookup | null,
  txid: Uint8Array,
  givenBlock: Uint8Array | null,
  verbose: boolean,
  lending: { scope: ReplyScope | undefined } | null,
): Promise<Buffer> {
  const changesAtStart = store.tipChanges?.();
  let blockEntry: BlockIndexEntry | null = null;
  if (givenBlock) {
    blockEntry = await store.blockIndex(givenBlock);
    if (!blockEntry) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Block hash not found');
  }

  const found = blockEntry ? await findInBlock(store, starts, blockEntry, txid) : await findInIndex(store, starts, txid);
  if (!verbose) return new JsonWriter(2 * found.tx.size + 2).hexStr(found.tx.bytes).toBuffer();

  const view = await chainView(store, found, blockEntry, changesAtStart);
  const extras: TxJsonExtras = { leadingHex: true, block: blockExtras(found, view.entry, view.tip) };
  if (spentIndexLookup) extras.spent = { bytes: await spentIndexLookup.records([found.tx]), at: 0 };
  const given = view.given;
  if (given) extras.inActiveChain = given.onBestChain && view.tip !== null && given.height <= view.tip.height;
  return lending ? renderInLentMemory(found.tx, store.network, lending.scope, extras) : txToJsonBytes(found.tx, store.network, extras);
}
