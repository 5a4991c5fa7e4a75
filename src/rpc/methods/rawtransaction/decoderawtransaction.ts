/** `decoderawtransaction "hexstring"` (zcashd v6.12.2 src/rpc/rawtransaction.cpp). */
import { Buffer } from 'node:buffer';
import { DecodeError } from '../../../codec/errors.js';
import type { NetworkParams } from '../../../chain/network.js';
import { decodeTransactionHexBytes } from '../../../codec/tx/transaction.js';
import { DEFAULT_COMPAT_PROFILE, type CompatProfile } from '../../../compat/profiles.js';
import { txToJsonBytes } from '../../../render/tx.js';
import type { SpentIndexLookup } from '../spent-index-lookup.js';
import { plainStringBytes } from '../../../json/lazy-strings.js';
import { jsonTypeName, type JsonValue } from '../../../json/value.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { helpExampleCli, helpExampleRpc } from '../../help-examples.js';
import { renderInLentMemory } from '../reply-memory.js';
import { DecodeCache } from './decode-cache.js';
import { decodeTransactionHexInScratch } from './scratch-decode.js';

// zcashd's help text, reproduced because it is part of the reply (`help`, -32602 errors).
const HELP =
  'decoderawtransaction "hexstring"\n' +
  '\nReturn a JSON object representing the serialized, hex-encoded transaction.\n' +
  '\nArguments:\n' +
  '1. "hex"      (string, required) The transaction hex string\n' +
  '\nResult:\n' +
  '{\n' +
  '  "txid" : "id",        (string) The transaction id\n' +
  '  "authdigest" : "id",  (string) The transaction\'s auth digest. For pre-v5 txs this is ffff..ffff\n' +
  '  "size" : n,             (numeric) The transaction size\n' +
  '  "overwintered" : bool   (boolean) The Overwintered flag\n' +
  '  "version" : n,          (numeric) The version\n' +
  '  "versiongroupid": "hex"   (string, optional) The version group id (Overwintered txs)\n' +
  '  "locktime" : ttt,       (numeric) The lock time\n' +
  '  "expiryheight" : n,     (numeric, optional) Last valid block height for mining transaction (Overwintered txs)\n' +
  '  "vin" : [               (array of json objects)\n' +
  '     {\n' +
  '       "txid": "id",    (string) The transaction id\n' +
  '       "vout": n,         (numeric) The output number\n' +
  '       "scriptSig": {     (json object) The script\n' +
  '         "asm": "asm",  (string) asm\n' +
  '         "hex": "hex"   (string) hex\n' +
  '       },\n' +
  '       "sequence": n     (numeric) The script sequence number\n' +
  '     }\n' +
  '     ,...\n' +
  '  ],\n' +
  '  "vout" : [             (array of json objects)\n' +
  '     {\n' +
  '       "value" : x.xxx,            (numeric) The value in ZEC\n' +
  '       "n" : n,                    (numeric) index\n' +
  '       "scriptPubKey" : {          (json object)\n' +
  '         "asm" : "asm",          (string) the asm\n' +
  '         "hex" : "hex",          (string) the hex\n' +
  '         "reqSigs" : n,            (numeric) The required sigs\n' +
  '         "type" : "pubkeyhash",  (string) The type, eg \'pubkeyhash\'\n' +
  '         "addresses" : [           (json array of string)\n' +
  '           "t12tvKAXCxZjSmdNbao16dKXC8tRWfcF5oc"   (string) zcash address\n' +
  '           ,...\n' +
  '         ]\n' +
  '       }\n' +
  '     }\n' +
  '     ,...\n' +
  '  ],\n' +
  '  "vjoinsplit" : [        (array of json objects, only for version >= 2)\n' +
  '     {\n' +
  '       "vpub_old" : x.xxx,         (numeric) public input value in ZEC\n' +
  '       "vpub_new" : x.xxx,         (numeric) public output value in ZEC\n' +
  '       "anchor" : "hex",         (string) the anchor\n' +
  '       "nullifiers" : [            (json array of string)\n' +
  '         "hex"                     (string) input note nullifier\n' +
  '         ,...\n' +
  '       ],\n' +
  '       "commitments" : [           (json array of string)\n' +
  '         "hex"                     (string) output note commitment\n' +
  '         ,...\n' +
  '       ],\n' +
  '       "onetimePubKey" : "hex",  (string) the onetime public key used to encrypt the ciphertexts\n' +
  '       "randomSeed" : "hex",     (string) the random seed\n' +
  '       "macs" : [                  (json array of string)\n' +
  '         "hex"                     (string) input note MAC\n' +
  '         ,...\n' +
  '       ],\n' +
  '       "proof" : "hex",          (string) the zero-knowledge proof\n' +
  '       "ciphertexts" : [           (json array of string)\n' +
  '         "hex"                     (string) output note ciphertext\n' +
  '         ,...\n' +
  '       ]\n' +
  '     }\n' +
  '     ,...\n' +
  '  ],\n' +
  '}\n' +
  '\nExamples:\n' +
  helpExampleCli('decoderawtransaction', '"hexstring"') +
  helpExampleRpc('decoderawtransaction', '"hexstring"');

export interface DecodeRawTransactionOptions {
  /** Bytes of hex + results kept for repeated requests; 0 disables the cache. Default 32 MB. */
  cacheBytes?: number;
  /**
   * The spent index's members (-insightexplorer). They change as the chain does, so results are
   * then not cached.
   */
  spentIndexLookup?: SpentIndexLookup | null;
}

export function createDecodeRawTransaction(opts: DecodeRawTransactionOptions = {}): RpcMethod {
  const spentIndexLookup = opts.spentIndexLookup ?? null;
  const maxBytes = spentIndexLookup ? 0 : (opts.cacheBytes ?? 32 * 1024 * 1024);
  const cache = maxBytes > 0 ? new DecodeCache(maxBytes) : null;
  return {
    name: 'decoderawtransaction',
    category: 'rawtransactions',
    required: 1,
    optional: 0,
    help: HELP,
    ...(cache ? { cache } : {}),
    call(params, ctx) {
      const hex = hexParameter(params, cache);
      const profile = ctx.profile ?? DEFAULT_COMPAT_PROFILE;
      // Results differ by network (addresses) and by profile (the branch ids its parser accepts).
      const cacheKey = `${ctx.network.name} ${profile.name}`;
      const hit = cache?.get(cacheKey, hex);
      if (cache) ctx.noteCacheLookup?.('decoderawtransaction', hit !== undefined);
      if (hit) return hit;
      if (spentIndexLookup) return asDeserializationError(withSpentRecords(hex, ctx.network, profile, spentIndexLookup));
      if (cache === null)
        return asDeserializationError(() => {
          // Rendered here into bytes of the reply's own, so the transaction is garbage on return
          // and its bytes may be decoded into memory the next request reuses.
          const { tx, hexText } = decodeTransactionHexInScratch(hex, profile.acceptance);
          return renderInLentMemory(tx, ctx.network, ctx.replyScope, {}, hexText ?? undefined);
        });
      const json = asDeserializationError(() => {
        // Rendered here into a buffer of its own (the one the cache keeps), so likewise.
        const { tx, hexText } = decodeTransactionHexInScratch(hex, profile.acceptance);
        return txToJsonBytes(tx, ctx.network, {}, hexText ?? undefined);
      });
      cache.set(cacheKey, hex, json);
      return json;
    },
  };
}

/**
 * The hex parameter as its bytes: the range of the request's body the reader left it as, the
 * cache's copy when the reader gave the cache's own string, or a string's UTF-8 (hex is ASCII,
 * and any other character makes bytes that are not hex either).
 */
function hexParameter(params: readonly JsonValue[], cache: DecodeCache | null): Uint8Array {
  const bytes = plainStringBytes(params, 0);
  if (bytes !== null) return bytes;
  const hex = params[0]!;
  if (typeof hex !== 'string') throw new RpcError(RPC.TYPE_ERROR, `Expected type string, got ${jsonTypeName(hex)}`);
  return cache?.heldCopyOf(hex) ?? Buffer.from(hex, 'utf8');
}

/** zcashd's -22 for a transaction that does not decode, whenever the decoder finds out. */
function asDeserializationError<T>(work: () => T): T;
function asDeserializationError<T>(work: Promise<T>): Promise<T>;
function asDeserializationError<T>(work: (() => T) | Promise<T>): T | Promise<T> {
  const refuse = (e: unknown): never => {
    if (e instanceof DecodeError) throw new RpcError(RPC.DESERIALIZATION_ERROR, e.rpcMessage);
    throw e;
  };
  if (work instanceof Promise) return work.catch(refuse);
  try {
    return work();
  } catch (e) {
    return refuse(e);
  }
}

/** The reply with the spent index's members, read off the event loop in batches. */
async function withSpentRecords(
  hex: Uint8Array,
  network: NetworkParams,
  profile: CompatProfile,
  lookup: SpentIndexLookup,
): Promise<Buffer> {
  // Decoded before the first wait: `hex` may be a view of the request's body.
  const tx = decodeTransactionHexBytes(hex, profile.acceptance);
  return txToJsonBytes(tx, network, { spent: { bytes: await lookup.records([tx]), at: 0 } });
}

/** The served method (with the result cache). */
export const decodeRawTransaction: RpcMethod = createDecodeRawTransaction();
