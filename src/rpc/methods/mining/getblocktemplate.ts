/**
 * `getblocktemplate ( "jsonrequestobject" )` (zcashd v6.12.2 src/rpc/mining.cpp). zecrpc has no
 * mempool and no miner address: with -upstream the request goes to the upstream node, whose
 * template (built on its own mempool) is relayed as it is; without, zcashd's answer for a node
 * with its wallet disabled and no -mineraddress, which it gives before reading the request.
 */
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import type { UpstreamRelay } from '../mempool/upstream-relay.js';

export const GETBLOCKTEMPLATE_HELP: string =
  'getblocktemplate ( "jsonrequestobject" )\n' +
  "\nIf the request parameters include a 'mode' key, that is used to explicitly select between the default 'template' request or a 'proposal'.\n" +
  'It returns data needed to construct a block to work on.\n' +
  'See https://en.bitcoin.it/wiki/BIP_0022 for full specification.\n' +
  "\nTo obtain information about founder's reward or funding stream\n" +
  "amounts, use 'getblocksubsidy HEIGHT' passing in the height returned\n" +
  'by this API.\n' +
  "\nThe roots returned in 'defaultroots' are only valid if the block template is\n" +
  "used unmodified. If any part of the block template marked as 'mutable' in the\n" +
  'output is mutated, these roots may need to be recomputed. For more information\n' +
  'on the derivation process, see ZIP 244.\n' +
  '\nArguments:\n' +
  '1. "jsonrequestobject"       (string, optional) A json object in the following spec\n' +
  '     {\n' +
  '       "mode":"template,"    (string, optional) This must be set to "template" or omitted\n' +
  '       "capabilities":[      (array, optional) A list of strings\n' +
  "           \"support\"         (string) client side supported feature, 'longpoll', 'coinbasetxn', 'coinbasevalue', 'proposal', 'serverlist', 'workid'\n" +
  '           ,...\n' +
  '         ],\n' +
  '       "longpollid":"id"     (string, optional) id to wait for\n' +
  '     }\n' +
  '\n' +
  '\nResult:\n' +
  '{\n' +
  '  "version" : n,                     (numeric) The block version\n' +
  '  "previousblockhash" : "xxxx",      (string) The hash of current highest block\n' +
  '  "blockcommitmentshash" : "xxxx",   (string) (DEPRECATED) The hash of the block commitments field in the block header\n' +
  '  "lightclientroothash" : "xxxx",    (string) (DEPRECATED) The hash of the light client root field in the block header\n' +
  '  "finalsaplingroothash" : "xxxx",   (string) (DEPRECATED) The hash of the light client root field in the block header\n' +
  '  "defaultroots" : {                 (json object) root hashes that need to be recomputed if the transaction set is modified\n' +
  '     "merkleroot" : "xxxx"           (string) The hash of the transactions in the block header\n' +
  '     "chainhistoryroot" : "xxxx"     (string) The hash of the chain history\n' +
  '     "authdataroot" : "xxxx"         (string) (From NU5) The hash of the authorizing data merkel tree\n' +
  '     "blockcommitmentshash" : "xxxx" (string) (From NU5) The hash of the block commitments field in the block header\n' +
  '  }\n' +
  '  "transactions" : [                 (array) contents of non-coinbase transactions that should be included in the next block\n' +
  '      {\n' +
  '         "data" : "xxxx",            (string) transaction data encoded in hexadecimal (byte-for-byte)\n' +
  '         "hash" : "xxxx",            (string) hash/id encoded in little-endian hexadecimal\n' +
  '         "depends" : [               (array) array of numbers \n' +
  "             n                       (numeric) transactions before this one (by 1-based index in 'transactions' list) that must be present in the final block if this one is\n" +
  '             ,...\n' +
  '         ],\n' +
  '         "fee": n,                   (numeric) difference in value between transaction inputs and outputs (in zatoshis); for coinbase transactions, this is a negative Number of the total collected block fees (i.e., not including the block subsidy); if key is not present, fee is unknown and clients MUST NOT assume there isn\'t one\n' +
  '         "sigops" : n,               (numeric) total number of SigOps, as counted for purposes of block limits; if key is not present, sigop count is unknown and clients MUST NOT assume there aren\'t any\n' +
  '         "required" : true|false     (boolean) if provided and true, this transaction must be in the final block\n' +
  '      }\n' +
  '      ,...\n' +
  '  ],\n' +
  '  "coinbasetxn" : { ... },           (json object) information for coinbase transaction\n' +
  '  "target" : "xxxx",                 (string) The hash target\n' +
  '  "longpollid" : "str",              (string) an id to include with a request to longpoll on an update to this template\n' +
  '  "mintime" : xxx,                   (numeric) The minimum timestamp appropriate for next block time in seconds since epoch (Jan 1 1970 GMT)\n' +
  '  "mutable" : [                      (array of string) list of ways the block template may be changed \n' +
  "     \"value\"                         (string) A way the block template may be changed, e.g. 'time', 'transactions', 'prevblock'\n" +
  '     ,...\n' +
  '  ],\n' +
  '  "noncerange" : "00000000ffffffff", (string) A range of valid nonces\n' +
  '  "sigoplimit" : n,                  (numeric) limit of sigops in blocks\n' +
  '  "sizelimit" : n,                   (numeric) limit of block size\n' +
  '  "curtime" : ttt,                   (numeric) current timestamp in seconds since epoch (Jan 1 1970 GMT)\n' +
  '  "bits" : "xxx",                    (string) compressed target of next block\n' +
  '  "height" : n                       (numeric) The height of the next block\n' +
  '}\n' +
  '\nExamples:\n' +
  exampleCli('getblocktemplate', '') +
  exampleRpc('getblocktemplate', '');

export function getBlockTemplateMethod(upstream: UpstreamRelay | null): RpcMethod {
  return {
    name: 'getblocktemplate',
    surface: 'upstream',
    category: 'mining',
    required: 0,
    optional: 1,
    help: GETBLOCKTEMPLATE_HELP,
    call(params, ctx) {
      if (upstream) return upstream.call('getblocktemplate', params, ctx);
      throw new RpcError(RPC.METHOD_NOT_FOUND, 'Wallet disabled and -mineraddress not set');
    },
  };
}
