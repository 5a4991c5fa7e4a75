/**
 * `gettxout "txid" n ( includemempool )` (zcashd v6.12.2 src/rpc/blockchain.cpp): an unspent
 * transparent output from the coins view the chain state keeps (`c` records), with its
 * transaction's version (read from the transaction in its block, which the coin record does not
 * keep) and the tip as `bestblock`; null when the output is spent or never existed.
 *
 * `includemempool` (default true) reads zcashd's mempool view over the coins: zecrpc has no
 * mempool, so with -upstream the call is answered by the upstream node (whose mempool may spend
 * the output, or hold the transaction that creates it); without, an empty mempool changes nothing.
 */
import { scriptToAsm } from '../../../codec/script/asm.js';
import { encodeTransparentAddress } from '../../../codec/script/address.js';
import { solveScript } from '../../../codec/script/solver.js';
import { decodeBlock } from '../../../codec/block.js';
import { STORED_BLOCK_ACCEPTANCE } from '../../../codec/tx/acceptance.js';
import { getBool, getInt, getStr } from '../../../json/getters.js';
import { JsonWriter } from '../../../json/writer.js';
import type { Coin } from '../../../state/apply-block.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { uint256FromHexLenient } from '../../params.js';
import type { UpstreamRelay } from '../mempool/upstream-relay.js';

/** A coin of the active chain's coins view, or null when it is spent or unknown. */
export type CoinLookup = (txid: Uint8Array, n: number) => Coin | null;

export const GETTXOUT_HELP: string =
  'gettxout "txid" n ( includemempool )\n' +
  '\nReturns details about an unspent transaction output.\n' +
  '\nArguments:\n' +
  '1. "txid"       (string, required) The transaction id\n' +
  '2. n              (numeric, required) vout value\n' +
  '3. includemempool  (boolean, optional) Whether to include the mempool\n' +
  '\nResult:\n' +
  '{\n' +
  '  "bestblock" : "hash",    (string) the block hash\n' +
  '  "confirmations" : n,       (numeric) The number of confirmations\n' +
  '  "value" : x.xxx,           (numeric) The transaction value in ZEC\n' +
  '  "scriptPubKey" : {         (json object)\n' +
  '     "asm" : "code",       (string) \n' +
  '     "hex" : "hex",        (string) \n' +
  '     "reqSigs" : n,          (numeric) Number of required signatures\n' +
  '     "type" : "pubkeyhash", (string) The type, eg pubkeyhash\n' +
  '     "addresses" : [          (array of string) array of Zcash addresses\n' +
  '        "zcashaddress"        (string) Zcash address\n' +
  '        ,...\n' +
  '     ]\n' +
  '  },\n' +
  '  "version" : n,              (numeric) The version\n' +
  '  "coinbase" : true|false     (boolean) Coinbase or not\n' +
  '}\n' +
  '\nExamples:\n' +
  '\nGet unspent transactions\n' +
  exampleCli('listunspent', '') +
  '\nView the details\n' +
  exampleCli('gettxout', '"txid" 1') +
  '\nAs a json rpc call\n' +
  exampleRpc('gettxout', '"txid", 1');

/** The version of the transaction `txid` of the active chain (CCoins::nVersion). */
async function txVersion(store: ChainStoreReader, txid: Uint8Array): Promise<number> {
  const where = await store.txLocation(txid);
  const bytes = where ? await store.blockBytes(where.blockHash) : null;
  const tx = bytes ? decodeBlock(bytes, STORED_BLOCK_ACCEPTANCE).transactions[where!.index] : undefined;
  if (!tx) throw new RpcError(RPC.DATABASE_ERROR, 'Database corrupted: an unspent coin has no transaction in the active chain');
  const b = tx.bytes;
  // The header's low 31 bits (the top bit is fOverwintered).
  return (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) & 0x7fffffff;
}

/** ScriptPubKeyToJSON(script, out, fIncludeHex = true). */
export function writeScriptPubKey(w: JsonWriter, script: Uint8Array, network: ChainStoreReader['network']): void {
  w.beginObject();
  w.key('asm').str(scriptToAsm(script, false));
  w.key('hex').hexStr(script);
  const solved = solveScript(script);
  if (solved.reqSigs === undefined || !solved.destinations) {
    w.key('type').plainStr(solved.type);
  } else {
    w.key('reqSigs').int(solved.reqSigs);
    w.key('type').plainStr(solved.type);
    w.key('addresses').beginArray();
    for (const d of solved.destinations) w.plainStr(encodeTransparentAddress(d.kind, d.hash, network));
    w.endArray();
  }
  w.endObject();
}

export function getTxOutMethod(store: ChainStoreReader, coins: CoinLookup, upstream: UpstreamRelay | null): RpcMethod {
  return {
    name: 'gettxout',
    category: 'blockchain',
    required: 2,
    optional: 1,
    help: GETTXOUT_HELP,
    async call(params, ctx) {
      const txid = uint256FromHexLenient(getStr(params[0]!));
      const n = getInt(params[1]!);
      const includeMempool = params.length > 2 ? getBool(params[2]!) : true;
      if (includeMempool && upstream) return upstream.call('gettxout', params, ctx);
      // The coins view's best block is the tip it was written with (one batch per block).
      const tip = await store.tip();
      const coin = n >= 0 && tip ? coins(txid, n) : null;
      if (!coin || !tip) {
        // A store started from a checkpoint lacks the coins created before it: a miss there
        // proves nothing, and zcashd's null would say the output is spent.
        if ((await store.chainStateTip())?.coinsComplete === false) {
          throw new RpcError(
            RPC.MISC_ERROR,
            'The coins view starts at a checkpoint: an output it does not hold may exist unspent before it',
          );
        }
        return 'null';
      }
      const version = await txVersion(store, txid);
      const w = new JsonWriter().beginObject();
      w.key('bestblock').hexStrReversed(tip.hash);
      w.key('confirmations').int(tip.height - coin.height + 1);
      w.key('value').amount(coin.value);
      w.key('scriptPubKey');
      writeScriptPubKey(w, coin.scriptPubKey, ctx.network);
      w.key('version').int(version);
      w.key('coinbase').bool(coin.coinbase);
      return w.endObject().toString();
    },
  };
}
