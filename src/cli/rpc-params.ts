/**
 * How zcash-cli turns command-line words into JSON-RPC params: zcashd v6.12.2's conversion table
 * (src/rpc/common.h, used by RPCConvertValues in src/rpc/client.cpp). Every method zcashd
 * registers is listed with its required and optional positional parameters, each one of:
 *   s  passed as a JSON string, verbatim
 *   n  the word `null` becomes JSON null, anything else a verbatim string
 *   o  parsed as a JSON value (numbers, booleans, null, arrays, objects; a bare word is an error)
 * Each entry is written `<required>|<optional>`, one letter per parameter.
 */
import { parseJson } from '../json/reader.js';
import type { JsonValue } from '../json/value.js';

const TABLE: Readonly<Record<string, string>> = {
  // blockchain
  getblockcount: '|',
  getbestblockhash: '|',
  getdifficulty: '|',
  getrawmempool: '|o',
  getblockdeltas: 'o|',
  getblockhashes: 'oo|o',
  getblockhash: 'o|',
  getblockheader: 's|o',
  getblock: 's|o',
  gettxoutsetinfo: '|',
  gettxout: 'so|o',
  verifychain: '|oo',
  getblockchaininfo: '|',
  getchaintips: '|',
  z_gettreestate: 's|',
  z_getsubtreesbyindex: 'so|o',
  getmempoolinfo: '|',
  invalidateblock: 's|',
  reconsiderblock: 's|',
  // mining
  getlocalsolps: '|',
  getnetworksolps: '|oo',
  getnetworkhashps: '|oo',
  getgenerate: '|',
  generate: 'o|',
  setgenerate: 'o|o',
  getmininginfo: '|',
  prioritisetransaction: 'soo|',
  getblocktemplate: '|o',
  submitblock: 's|s',
  getblocksubsidy: '|o',
  // misc
  getinfo: '|',
  validateaddress: 's|',
  z_validateaddress: 's|',
  createmultisig: 'oo|',
  verifymessage: 'sss|',
  setmocktime: 'o|',
  getexperimentalfeatures: '|',
  getaddressmempool: 'o|',
  getaddressutxos: 'o|',
  getaddressdeltas: 'o|',
  getaddressbalance: 'o|',
  getaddresstxids: 'o|',
  getspentinfo: 'o|',
  getmemoryinfo: '|',
  // net
  getconnectioncount: '|',
  ping: '|',
  getpeerinfo: '|',
  addnode: 'ss|',
  disconnectnode: 's|',
  getaddednodeinfo: 'o|s',
  getnettotals: '|',
  getdeprecationinfo: '|',
  getnetworkinfo: '|',
  setban: 'ss|oo',
  listbanned: '|',
  clearbanned: '|',
  // rawtransaction
  getrawtransaction: 's|os',
  gettxoutproof: 'o|s',
  verifytxoutproof: 's|',
  createrawtransaction: 'oo|oo',
  decoderawtransaction: 's|',
  decodescript: 's|',
  signrawtransaction: 's|ooss',
  sendrawtransaction: 's|o',
  // rpcdisclosure
  z_getpaymentdisclosure: 'soo|s',
  z_validatepaymentdisclosure: 's|',
  // rpcdump
  importprivkey: 's|so',
  importaddress: 's|soo',
  importpubkey: 's|so',
  z_importwallet: 's|',
  importwallet: 's|',
  dumpprivkey: 's|',
  z_exportwallet: 's|',
  z_importkey: 's|so',
  z_importviewingkey: 's|so',
  z_exportkey: 's|',
  z_exportviewingkey: 's|',
  // rpcwallet
  z_converttex: 's|',
  getnewaddress: '|s',
  getrawchangeaddress: '|',
  sendtoaddress: 'so|sso',
  listaddresses: '|',
  listaddressgroupings: '|o',
  signmessage: 'ss|',
  getreceivedbyaddress: 's|ooo',
  getbalance: '|soooo',
  sendmany: 'so|oso',
  addmultisigaddress: 'oo|s',
  listreceivedbyaddress: '|ooosoo',
  listtransactions: '|soooo',
  listsinceblock: '|sooooo',
  gettransaction: 's|ooo',
  backupwallet: 's|',
  keypoolrefill: '|o',
  walletpassphrase: 'so|',
  walletpassphrasechange: 'ss|',
  walletconfirmbackup: 's|',
  walletlock: '|',
  encryptwallet: 's|',
  lockunspent: 'oo|',
  listlockunspent: '|',
  settxfee: 'o|',
  getwalletinfo: '|o',
  resendwallettransactions: '|',
  listunspent: '|oooooo',
  z_listunspent: '|ooooo',
  fundrawtransaction: 's|o',
  zcsamplejoinsplit: '|',
  zcbenchmark: 'so|o',
  z_getnewaddress: '|s',
  z_getnewaccount: '|',
  z_getaddressforaccount: 'o|oo',
  z_listaccounts: '|',
  z_listaddresses: '|o',
  z_listunifiedreceivers: 's|',
  z_listreceivedbyaddress: 's|oo',
  z_getbalance: 's|oo',
  z_getbalanceforviewingkey: 's|oo',
  z_getbalanceforaccount: 'o|oo',
  z_gettotalbalance: '|oo',
  z_viewtransaction: 's|',
  z_getoperationresult: '|o',
  z_getoperationstatus: '|o',
  z_sendmany: 'so|oos',
  z_setmigration: 'o|',
  z_getmigrationstatus: '|o',
  z_shieldcoinbase: 'ss|oons',
  z_mergetoaddress: 'os|ooons',
  z_listoperationids: '|s',
  z_getnotescount: '|oo',
  // server
  help: '|s',
  setlogfilter: 's|',
  stop: '|o',
};

type Conversion = 's' | 'n' | 'o';

export interface ParameterSpec {
  required: Conversion[];
  optional: Conversion[];
}

export function parameterSpec(method: string): ParameterSpec | undefined {
  if (!Object.hasOwn(TABLE, method)) return undefined;
  const [required = '', optional = ''] = TABLE[method]!.split('|');
  return { required: [...required] as Conversion[], optional: [...optional] as Conversion[] };
}

/** The ways RPCConvertValues fails, with the exact texts zcash-cli prints after `error: `. */
export type ConversionFailure =
  { kind: 'unknown-method'; message: string } | { kind: 'wrong-count'; message: string } | { kind: 'unparseable'; message: string };

/** ParseNonRFCJSONValue: the word parsed as the only element of a JSON array. */
function parseNonRfcJson(word: string): JsonValue | undefined {
  try {
    const v = parseJson(`[${word}]`);
    return Array.isArray(v) && v.length === 1 ? v[0] : undefined;
  } catch {
    return undefined;
  }
}

export function convertParams(method: string, words: readonly string[]): { params: JsonValue[] } | { failure: ConversionFailure } {
  const spec = parameterSpec(method);
  if (spec === undefined) return { failure: { kind: 'unknown-method', message: `Unknown RPC method, ${method}` } };
  const { required, optional } = spec;
  if (words.length < required.length || words.length > required.length + optional.length) {
    const needed =
      optional.length === 0 ? `exactly ${required.length}` : `at least ${required.length} and at most ${required.length + optional.length}`;
    const which = words.length < required.length ? 'Not enough parameters' : 'Too many parameters';
    return {
      failure: { kind: 'wrong-count', message: `${which} for method \`${method}\`. Needed ${needed}, but received ${words.length}` },
    };
  }
  const all = [...required, ...optional];
  const params: JsonValue[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const conversion = all[i]!;
    if (conversion === 's') {
      params.push(word);
      continue;
    }
    const parsed = parseNonRfcJson(word);
    if (conversion === 'n') params.push(parsed === null ? null : word);
    else if (parsed !== undefined) params.push(parsed);
    else return { failure: { kind: 'unparseable', message: `Error parsing JSON: ${word}` } };
  }
  return { params };
}
