/**
 * The block read methods of zcashd v6.12.2's src/rpc/blockchain.cpp over a chain store:
 * getblock, getblockcount, getbestblockhash, getblockhash, getblockheader (here), plus
 * getblockchaininfo / getdifficulty (blockchain-info.ts) and getrawtransaction
 * (rawtransaction-get.ts), all collected by `blockchainMethods`.
 *
 * Checks run in zcashd's order, since the first failing check decides the error a client sees
 * (e.g. getblock parses the height before the verbosity, and the verbosity range before the
 * hash lookup).
 */
import { Buffer } from 'node:buffer';
import { decodeBlock, decodeBlockHeader } from '../../codec/block.js';
import { toHex, toHexReversed } from '../../codec/hex.js';
import { blockHeaderToJson, blockToJson, blockToJsonBytes } from '../../json/block.js';
import { getBool, getInt, getStr } from '../../json/index.js';
import type { JsonValue } from '../../json/value.js';
import type { ChainStoreReader, ChainTip } from '../../store/types.js';
import { RPC, RpcError, type RawJson, type RpcMethod } from '../method.js';
import {
  HASH_HEX_LENGTH,
  interpretHeight,
  isJsonNumber,
  parseHeightString,
  stringByteLength,
  uint256FromHexLenient,
} from '../params.js';
import { chainContext, requireBlockBytes, requireBlockIndex, requireTip, tipHeight } from './blockchain-context.js';
import {
  GETBESTBLOCKHASH_HELP,
  GETBLOCKCOUNT_HELP,
  GETBLOCKHASH_HELP,
  GETBLOCKHEADER_HELP,
  GETBLOCK_HELP,
} from './blockchain-help.js';
import { getBlockchainInfoMethod, getDifficultyMethod, systemClock, type Clock } from './blockchain-info.js';
import { TipScopedReplyCache } from './blockchain-reply-cache.js';
import { getRawTransactionMethod } from './rawtransaction-get.js';

/** A JSON string token for text that needs no escaping (hex). */
function jsonHexString(hex: string): string {
  return `"${hex}"`;
}

/** The active-chain block at an already range-checked height (zcashd's chainActive[h]). */
async function activeHashAt(store: ChainStoreReader, height: number): Promise<Uint8Array> {
  const hash = await store.hashAtHeight(height);
  // Only reachable if the tip moved back between reading it and this lookup.
  if (!hash) throw new RpcError(RPC.INVALID_PARAMETER, 'Block height out of range');
  return hash;
}

/**
 * getblock's first parameter → block hash (internal order). A string shorter than 64 bytes is
 * a height (strict regex, stoi, negative = from the tip); anything longer is a hash, parsed
 * leniently with no validation at all. `heightToHash` resolves heights on the active chain.
 *
 * zecrpc's one documented deviation from zcashd: a JSON *number* is also accepted as a height
 * (zcashd only accepts strings and answers -1 "JSON value is not a string as expected"; its
 * zcash-cli converts numbers, so scripts written for the CLI work unchanged). The number goes
 * through the 32-bit integer getter, so 1.5 or 1e3 give -1 "JSON integer out of range".
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
function parseVerbosity(arg: JsonValue | undefined): number {
  if (arg === undefined) return 1;
  const verbosity = isJsonNumber(arg) ? getInt(arg) : getBool(arg) ? 1 : 0;
  if (verbosity < 0 || verbosity > 2) {
    throw new RpcError(RPC.INVALID_PARAMETER, 'Verbosity must be in range from 0 to 2');
  }
  return verbosity;
}

/** Reply text kept per tip for getblock (see blockchain-reply-cache.ts). */
const GETBLOCK_CACHE_CHARS = 64 * 1024 * 1024;

const tipKey = (tip: ChainTip | null): string => (tip ? Buffer.from(tip.hash).toString('hex') : '');

export function getBlockMethod(store: ChainStoreReader, cacheReplies = true): RpcMethod {
  const cache = new TipScopedReplyCache(cacheReplies ? GETBLOCK_CACHE_CHARS : 0);
  return {
    name: 'getblock',
    category: 'blockchain',
    required: 1,
    optional: 1,
    help: GETBLOCK_HELP,
    async call(params) {
      const tip = await store.tip();
      const scope = tipKey(tip);
      // Which block a height names depends only on the tip, so it is cached alongside replies.
      const heightToHash = async (height: number): Promise<Uint8Array> => {
        const cached = cache.get(scope, `height:${height}`);
        if (cached !== undefined) return Buffer.from(cached, 'hex');
        const hash = await activeHashAt(store, height);
        cache.set(scope, tipKey(await store.tip()), `height:${height}`, Buffer.from(hash).toString('hex'));
        return hash;
      };
      const hash = await blockHashFromArg(params[0]!, tip?.height ?? -1, heightToHash);
      const verbosity = parseVerbosity(params[1]);
      const key = `${verbosity}:${Buffer.from(hash).toString('hex')}`;
      const cached = cache.get<RawJson>(scope, key);
      if (cached !== undefined) return cached;

      const entry = await requireBlockIndex(store, hash);
      const bytes = await requireBlockBytes(store, entry);
      let reply: RawJson;
      if (verbosity === 0) {
        // The stored bytes are exactly what zcashd re-serializes from the block it read.
        reply = jsonHexString(toHex(bytes));
      } else {
        let block;
        try {
          block = decodeBlock(bytes);
        } catch {
          // A stored block that no longer decodes is ReadBlockFromDisk failing.
          throw new RpcError(RPC.INTERNAL_ERROR, "Can't read block from disk");
        }
        const ctx = await chainContext(store, entry, tip);
        // Verbosity 2 of a big block is megabytes of JSON: render it straight into bytes.
        reply = verbosity === 2 ? blockToJsonBytes(block, 2, ctx, store.network) : blockToJson(block, 1, ctx, store.network);
      }
      cache.set(scope, tipKey(await store.tip()), key, reply);
      return reply;
    },
  };
}

export function getBlockCountMethod(store: ChainStoreReader): RpcMethod {
  return {
    name: 'getblockcount',
    category: 'blockchain',
    required: 0,
    optional: 0,
    help: GETBLOCKCOUNT_HELP,
    async call() {
      return String(await tipHeight(store));
    },
  };
}

export function getBestBlockHashMethod(store: ChainStoreReader): RpcMethod {
  return {
    name: 'getbestblockhash',
    category: 'blockchain',
    required: 0,
    optional: 0,
    help: GETBESTBLOCKHASH_HELP,
    async call() {
      return jsonHexString(toHexReversed((await requireTip(store)).hash));
    },
  };
}

export function getBlockHashMethod(store: ChainStoreReader): RpcMethod {
  return {
    name: 'getblockhash',
    category: 'blockchain',
    required: 1,
    optional: 0,
    help: GETBLOCKHASH_HELP,
    async call(params) {
      const height = interpretHeight(getInt(params[0]!), await tipHeight(store));
      return jsonHexString(toHexReversed(await activeHashAt(store, height)));
    },
  };
}

export function getBlockHeaderMethod(store: ChainStoreReader): RpcMethod {
  return {
    name: 'getblockheader',
    category: 'blockchain',
    required: 1,
    optional: 1,
    help: GETBLOCKHEADER_HELP,
    async call(params) {
      // No height form here: the argument is always a leniently parsed hash.
      const hash = uint256FromHexLenient(getStr(params[0]!));
      const verbose = params.length > 1 ? getBool(params[1]!) : true;
      const entry = await requireBlockIndex(store, hash);
      if (!verbose) return jsonHexString(toHex(entry.header));
      let header;
      try {
        header = decodeBlockHeader(entry.header);
      } catch {
        throw new RpcError(RPC.DATABASE_ERROR, 'Failed to read index entry');
      }
      return blockHeaderToJson(header, await chainContext(store, entry, await store.tip()), store.network);
    },
  };
}

export interface BlockchainMethodOptions {
  /** Wall clock for getblockchaininfo's verificationprogress (seconds). */
  clock?: Clock;
  /** Keep finished getblock replies for the current tip (default true; off to measure the uncached path). */
  cacheReplies?: boolean;
}

/** Every read method served from the chain store. */
export function blockchainMethods(store: ChainStoreReader, options: BlockchainMethodOptions = {}): RpcMethod[] {
  return [
    getBestBlockHashMethod(store),
    getBlockMethod(store, options.cacheReplies ?? true),
    getBlockchainInfoMethod(store, options.clock ?? systemClock),
    getBlockCountMethod(store),
    getBlockHashMethod(store),
    getBlockHeaderMethod(store),
    getDifficultyMethod(store),
    getRawTransactionMethod(store),
  ];
}
