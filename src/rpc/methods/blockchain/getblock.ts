/**
 * `getblock "hash|height" ( verbosity )` (zcashd v6.12.2 src/rpc/blockchain.cpp, `getblock`).
 *
 * Checks run in zcashd's order, since the first failing check decides the error a client sees
 * (the height is parsed before the verbosity, and the verbosity range before the hash lookup).
 * Deliberate deviation: a JSON number is also accepted as the height (see blockHashFromArg).
 */
import { Buffer } from 'node:buffer';
import { getBool, getInt, getStr } from '../../../json/index.js';
import type { JsonValue } from '../../../json/value.js';
import type { ChainStoreReader, ChainTip } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc, helpLines as lines } from '../../help-examples.js';
import { RPC, RpcError, type RawJson, type RpcMethod } from '../../method.js';
import {
  HASH_HEX_LENGTH,
  interpretHeight,
  isJsonNumber,
  parseHeightString,
  stringByteLength,
  uint256FromHexLenient,
} from '../../params.js';
import { decodeBlock, decodeBlockHeader, type Block } from '../../../codec/block.js';
import { STORED_BLOCK_ACCEPTANCE } from '../../../codec/tx/acceptance.js';
import { toHexReversed } from '../../../codec/hex.js';
import { storedBlockToJson } from '../../../render/block.js';
import type { BlockIndexEntry } from '../../../store/types.js';
import { BlockReadError, storedTxidsProblem } from '../../../store/verify.js';
import { asReadBlockFailure, inlineBlockRenderer } from '../../workers/block-renderer.js';
import type { SpentIndexLookup } from '../spent-index-lookup.js';
import { blockStateView, connectedBlockStateView } from './block-state.js';
import { activeHashAt, chainContext, requireBlockBytes, requireBlockIndex } from './context.js';
import { TipScopedReplyCache, tipScope } from './reply-cache.js';

/**
 * getblock's first parameter → block hash (internal order). A string shorter than 64 bytes is
 * a height (strict regex, stoi, negative = from the tip); anything longer is a hash, parsed
 * leniently with no validation at all. `heightToHash` resolves heights on the active chain.
 *
 * A deliberate deviation from zcashd (`getblock-numeric-height`, compat/deviations.ts): a JSON *number* is also
 * accepted as a height, for clients whose JSON-RPC layer sends numbers (zcashd accepts only
 * strings and answers -1 "JSON value is not a string as expected"; zcash-cli and zecrpc-cli send
 * the height as a string, which both accept). The number goes through the 32-bit integer getter,
 * so 1.5 or 1e3 give -1 "JSON integer out of range".
 */
async function blockHashFromArg(
  arg: JsonValue,
  tipHeight: number,
  heightToHash: (height: number) => Promise<Uint8Array>,
): Promise<Uint8Array> {
  if (isJsonNumber(arg)) return heightToHash(interpretHeight(getInt(arg), tipHeight));
  const s = getStr(arg);
  if (stringByteLength(s) < HASH_HEX_LENGTH) return heightToHash(parseHeightString(s, tipHeight));
  return uint256FromHexLenient(s);
}

/** getblock verbosity: a number via the int getter, anything else via the bool getter. */
function parseVerbosity(arg: JsonValue | undefined): 0 | 1 | 2 {
  if (arg === undefined) return 1;
  const verbosity = isJsonNumber(arg) ? getInt(arg) : getBool(arg) ? 1 : 0;
  if (verbosity < 0 || verbosity > 2) {
    throw new RpcError(RPC.INVALID_PARAMETER, 'Verbosity must be in range from 0 to 2');
  }
  return verbosity as 0 | 1 | 2;
}

export const GETBLOCK_HELP: string =
  lines(
    'getblock "hash|height" ( verbosity )',
    '',
    'If verbosity is 0, returns a string that is serialized, hex-encoded data for the block.',
    'If verbosity is 1, returns an Object with information about the block.',
    'If verbosity is 2, returns an Object with information about the block and information about each transaction. ',
    '',
    'Arguments:',
    '1. "hash|height"          (string, required) The block hash or height. Height can be negative where -1 is the last known valid block',
    '2. verbosity              (numeric, optional, default=1) 0 for hex encoded data, 1 for a json object, and 2 for json object with transaction data',
    '',
    'Result (for verbosity = 0):',
    '"data"             (string) A string that is serialized, hex-encoded data for the block.',
    '',
    'Result (for verbosity = 1):',
    '{',
    '  "hash" : "hash",       (string) the block hash (same as provided hash)',
    '  "confirmations" : n,   (numeric) The number of confirmations, or -1 if the block is not on the main chain',
    '  "size" : n,            (numeric) The block size',
    '  "height" : n,          (numeric) The block height or index (same as provided height)',
    '  "version" : n,         (numeric) The block version',
    '  "merkleroot" : "xxxx", (string) The merkle root',
    '  "finalsaplingroot" : "xxxx", (string) The root of the Sapling commitment tree after applying this block',
    '  "finalorchardroot" : "xxxx", (string, optional) The root of the Orchard commitment tree after',
    '                               applying this block. Omitted for blocks prior to NU5 activation. This',
    '                               will be the null hash if this block has never been connected to a',
    '                               main chain.',
    '                               NB: The serialized representation of this field returned by this method',
    '                                   was byte-flipped relative to its representation in the `getrawtransaction`',
    '                                   output in prior releases up to and including v5.2.0. This has now been',
    '                                   rectified.',
    '  "tx" : [               (array of string) The transaction ids',
    '     "transactionid"     (string) The transaction id',
    '     ,...',
    '  ],',
    '  "time" : ttt,          (numeric) The block time in seconds since epoch (Jan 1 1970 GMT)',
    '  "nonce" : n,           (numeric) The nonce',
    '  "bits" : "1d00ffff",   (string) The bits',
    '  "difficulty" : x.xxx,  (numeric) The difficulty',
    '  "chainSupply": {          (object) information about the total supply',
    '      "monitored": xx,           (boolean) true if the total supply is being monitored',
    '      "chainValue": xxxxxx,      (numeric, optional) total chain supply after this block, in ZEC',
    '      "chainValueZat": xxxxxx,   (numeric, optional) total chain supply after this block, in zatoshis',
    '      "valueDelta": xxxxxx,      (numeric, optional) change to the chain supply produced by this block, in ZEC',
    '      "valueDeltaZat": xxxxxx,   (numeric, optional) change to the chain supply produced by this block, in zatoshis',
    '  },',
    '  "valuePools": [            (array) information about each value pool',
    '      {',
    '          "id": "xxxx",            (string) name of the pool',
    '          "monitored": xx,           (boolean) true if the pool is being monitored',
    '          "chainValue": xxxxxx,      (numeric, optional) total amount in the pool, in ZEC',
    '          "chainValueZat": xxxxxx,   (numeric, optional) total amount in the pool, in zatoshis',
    '          "valueDelta": xxxxxx,      (numeric, optional) change to the amount in the pool produced by this block, in ZEC',
    '          "valueDeltaZat": xxxxxx,   (numeric, optional) change to the amount in the pool produced by this block, in zatoshis',
    '      }, ...',
    '  ],',
    '  "trees": {                 (object) information about the note commitment trees',
    '      "sapling": {             (object, optional)',
    '          "size": n,             (numeric) the total number of Sapling note commitments as of the end of this block',
    '      },',
    '      "orchard": {             (object, optional)',
    '          "size": n,             (numeric) the total number of Orchard note commitments as of the end of this block',
    '      },',
    '  },',
    '  "previousblockhash" : "hash",  (string) The hash of the previous block',
    '  "nextblockhash" : "hash"       (string) The hash of the next block',
    '}',
    '',
    'Result (for verbosity = 2):',
    '{',
    '  ...,                     Same output as verbosity = 1.',
    '  "tx" : [               (array of Objects) The transactions in the format of the getrawtransaction RPC. Different from verbosity = 1 "tx" result.',
    '         ,...',
    '  ],',
    '  ,...                     Same output as verbosity = 1.',
    '}',
    '',
    'Examples:',
  ) +
  exampleCli('getblock', '"00000000febc373a1da2bd9f887b105ad79ddc26ac26c2b28652d64e5207c5b5"') +
  exampleRpc('getblock', '"00000000febc373a1da2bd9f887b105ad79ddc26ac26c2b28652d64e5207c5b5"') +
  exampleCli('getblock', '12800') +
  exampleRpc('getblock', '12800');

/** Reply text kept per tip for getblock (see reply-cache.ts). */
const GETBLOCK_CACHE_CHARS = 64 * 1024 * 1024;

/**
 * Most transactions for which verbosity 1 is rendered from the stored txid list on the calling
 * thread: verifying the list (its merkle root) costs time per txid, so a block with more goes
 * to the block renderer (worker threads in the server) like verbosity 2.
 */
const SUMMARY_MAX_TXS = 2048;

/**
 * `getblock <hash> 1` of a connected block without reading or decoding it: header and size from
 * the index record, txids from the store's list (verified against the header's merkle root),
 * chain state from the block's record. Null when the block is not eligible (never connected,
 * no chain state kept, many transactions): the caller then renders from the block bytes.
 */
async function verbosityOneFromSummary(
  store: ChainStoreReader,
  entry: BlockIndexEntry,
  tip: ChainTip | null,
  legacyOrchardRoot: boolean,
): Promise<string | null> {
  if (!entry.haveData || entry.txCount > SUMMARY_MAX_TXS) return null;
  const state = await connectedBlockStateView(store, entry);
  if (!state) return null;
  const txids = await store.blockTxids(entry.hash);
  const where = `txid list of block ${toHexReversed(entry.hash)}`;
  if (!txids) throw new BlockReadError(where, 'the block has stored data but no txid list');
  let header;
  try {
    header = decodeBlockHeader(entry.header);
  } catch {
    throw new BlockReadError(`index record of block ${toHexReversed(entry.hash)}`, 'the stored header does not decode');
  }
  const problem = storedTxidsProblem(entry.hash, header, txids, entry.txCount);
  if (problem) throw new BlockReadError(where, problem);
  const context = await chainContext(store, entry, tip);
  context.state = state;
  context.legacyOrchardRoot = legacyOrchardRoot;
  return storedBlockToJson({ header, size: entry.size, txids }, context, store.network);
}

export interface GetBlockOptions {
  /** Keep finished replies for the current tip (default true; off to measure the uncached path). */
  cacheReplies?: boolean;
  /** Verbosity 1 of connected blocks from the index, without reading the block (default true; off to measure the decode path). */
  summaryReplies?: boolean;
  /** `-legacyorchardroot`: finalorchardroot byte-reversed, as zcashd v4.5.0–v5.2.0 printed it. */
  legacyOrchardRoot?: boolean;
  /** The spent index's members of every transaction at verbosity 2 (-insightexplorer). */
  spentIndexLookup?: SpentIndexLookup | null;
}

/**
 * The spent index's records of a block's transactions (-insightexplorer), read before the block
 * goes to the renderer, which may be another thread, away from the index. The block is decoded
 * here to list its outpoints, its txids hashed from these bytes (a stored txid list could differ
 * from them unnoticed: the renderer verifies the bytes only); an unsound block gets no records,
 * since the renderer refuses it anyway.
 */
async function blockSpentRecords(lookup: SpentIndexLookup, bytes: Uint8Array): Promise<Uint8Array | undefined> {
  let block: Block;
  try {
    block = decodeBlock(bytes, STORED_BLOCK_ACCEPTANCE);
  } catch {
    return undefined;
  }
  return lookup.records(block.transactions);
}

export function getBlockMethod(store: ChainStoreReader, options: GetBlockOptions = {}): RpcMethod {
  const cacheReplies = options.cacheReplies ?? true;
  const summaryReplies = options.summaryReplies ?? true;
  const cache = new TipScopedReplyCache(cacheReplies ? GETBLOCK_CACHE_CHARS : 0);
  return {
    name: 'getblock',
    category: 'blockchain',
    required: 1,
    optional: 1,
    help: GETBLOCK_HELP,
    cache: {
      get bytes() {
        return cache.size;
      },
      clear: () => cache.clear(),
    },
    async call(params, rpcCtx) {
      const { tip, scope } = await tipScope(store);
      // Which block a height names depends only on the tip, so it is cached alongside replies.
      const heightToHash = async (height: number): Promise<Uint8Array> => {
        const cached = cache.get(scope, `height:${height}`);
        if (cached !== undefined) return Buffer.from(cached, 'hex');
        const hash = await activeHashAt(store, height);
        cache.set(scope, (await tipScope(store)).scope, `height:${height}`, Buffer.from(hash).toString('hex'));
        return hash;
      };
      const hash = await blockHashFromArg(params[0]!, tip?.height ?? -1, heightToHash);
      const verbosity = parseVerbosity(params[1]);
      const key = `${verbosity}:${Buffer.from(hash).toString('hex')}`;
      const cached = cache.get<RawJson>(scope, key);
      if (cacheReplies) rpcCtx.noteCacheLookup?.('getblock', cached !== undefined);
      if (cached !== undefined) return cached;

      const entry = await requireBlockIndex(store, hash);
      let reply: RawJson;
      try {
        const summary =
          verbosity === 1 && summaryReplies ? await verbosityOneFromSummary(store, entry, tip, options.legacyOrchardRoot ?? false) : null;
        if (summary !== null) {
          cache.set(scope, (await tipScope(store)).scope, key, summary);
          return summary;
        }
        const bytes = await requireBlockBytes(store, entry);
        // Rendering verifies the block (decode, merkle root) at every verbosity.
        const context = verbosity === 0 ? null : await chainContext(store, entry, tip);
        if (context) {
          context.state = await blockStateView(store, entry, bytes);
          context.legacyOrchardRoot = options.legacyOrchardRoot ?? false;
          if (verbosity === 2 && options.spentIndexLookup) context.spent = await blockSpentRecords(options.spentIndexLookup, bytes);
        }
        // Uncached, the reply is its result's only holder, so the renderer may lend it memory.
        const req = { hash, bytes, verbosity, context, network: store.network, transient: !cacheReplies };
        reply = await (rpcCtx?.blockRenderer ?? inlineBlockRenderer).render(req);
      } catch (e) {
        throw asReadBlockFailure(e);
      }
      cache.set(scope, (await tipScope(store)).scope, key, reply);
      return reply;
    },
  };
}
