/**
 * `getinfo` (zcashd v6.12.2 src/rpc/misc.cpp) as an official zcashd build (wallet compiled in)
 * answers it with -disablewallet: none of the wallet's own members (walletversion, balance,
 * keypool*, unlocked_until), but `paytxfee`, which zcashd prints whenever the wallet is compiled
 * in (rpc-http-json.md §7.8): -paytxfee's rate, 0 by default.
 *
 * version/build/subversion/protocolversion are zcashd v6.12.2's own, because clients gate on
 * them (lightwalletd logs and checks the `/MagicBean:` subversion) and zecrpc serves exactly
 * v6.12.2's RPC. Honest where it can be: `connections` is 0 (zecrpc has no peer-to-peer network;
 * a -upstream node is not a peer), `proxy` is "" (no -proxy), `relayfee` is -minrelaytxfee's rate
 * (zcashd's default minimum relay fee unless set), `blocks` and `difficulty` come from the
 * store's tip. `errors` is "" and `errorstimestamp` the current time, as zcashd reports when it
 * has no warning: zcashd's end-of-support warning (deprecation.cpp, set once the chain nears
 * v6.12.2's deprecation height) is not reproduced.
 */
import { difficultyFromBits } from '../../../chain/pow.js';
import { JsonWriter } from '../../../json/writer.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';

export const ZCASHD_CLIENT_VERSION = 6_120_250;
export const ZCASHD_BUILD = 'v6.12.2';
export const ZCASHD_PROTOCOL_VERSION = 170_140;
/** The fee rates getinfo prints, in zatoshis per 1000 bytes. */
export interface FeeRates {
  /** `paytxfee`: -paytxfee's rate. */
  payTxFee: bigint;
  /** `relayfee`: -minrelaytxfee's rate. */
  minRelayTxFee: bigint;
}

/** zcashd's defaults: DEFAULT_TRANSACTION_FEE (wallet.h) and DEFAULT_MIN_RELAY_TX_FEE (main.h). */
export const DEFAULT_FEE_RATES: FeeRates = { payTxFee: 0n, minRelayTxFee: 100n };

/** FormatSubVersion("MagicBean", …, -uacomment values). */
export function zcashdSubversion(uaComments: readonly string[] = []): string {
  return `/MagicBean:6.12.2${uaComments.length ? `(${uaComments.join('; ')})` : ''}/`;
}

export const GETINFO_HELP: string =
  'getinfo\n' +
  'Returns an object containing various state info.\n' +
  '\nResult:\n' +
  '{\n' +
  '  "version": xxxxx,           (numeric) the server version\n' +
  '  "build": xxxxx,             (string)  the build number\n' +
  '  "subversion": xxxxx,        (string)  the server sub-version identifier\n' +
  '  "protocolversion": xxxxx,   (numeric) the protocol version\n' +
  '  "walletversion": xxxxx,     (numeric, optional) the wallet version, if wallet functionality is enabled\n' +
  '  "balance": xxxxxxx,         (numeric, optional) the total Zcash balance of the wallet, if wallet functionality is enabled\n' +
  '  "blocks": xxxxxx,           (numeric) the current number of blocks processed in the server\n' +
  '  "timeoffset": xxxxx,        (numeric) the time offset (deprecated; always 0)\n' +
  '  "connections": xxxxx,       (numeric) the number of connections\n' +
  '  "proxy": "host:port",     (string, optional) the proxy used by the server\n' +
  '  "difficulty": xxxxxx,       (numeric) the current difficulty\n' +
  '  "testnet": true|false,      (boolean) if the server is using testnet or not\n' +
  '  "keypoololdest": xxxxxx,    (numeric, optional) the timestamp (seconds since GMT epoch) of the oldest pre-generated key in the key pool, if wallet functionality is enabled\n' +
  '  "keypoolsize": xxxx,        (numeric, optional) how many new keys are pre-generated\n' +
  '  "unlocked_until": ttt,      (numeric, optional) the timestamp in seconds since epoch (midnight Jan 1 1970 GMT) that the wallet is unlocked for transfers, or 0 if the wallet is locked, if wallet functionality is available and the wallet is encrypted\n' +
  '  "paytxfee": x.xxxx,         (numeric) the transaction fee rate set in ZEC per 1000 bytes\n' +
  '  "relayfee": x.xxxx,         (numeric) minimum relay fee rate for transactions in ZEC per 1000 bytes\n' +
  '  "errors": "..."           (string) message describing the latest or highest-priority error\n' +
  '  "errorstimestamp": "..."  (string) timestamp associated with the latest or highest-priority error\n' +
  '}\n' +
  '\nExamples:\n' +
  exampleCli('getinfo', '') +
  exampleRpc('getinfo', '');

export interface GetInfoOptions {
  /** Wall clock in seconds (errorstimestamp). */
  clock?: () => number;
  /** -uacomment values. */
  uaComments?: readonly string[];
  /** -paytxfee's and -minrelaytxfee's rates (default DEFAULT_FEE_RATES). */
  feeRates?: FeeRates;
}

export function getInfoMethod(store: ChainStoreReader, options: GetInfoOptions = {}): RpcMethod {
  const clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
  const subversion = zcashdSubversion(options.uaComments);
  const { payTxFee, minRelayTxFee } = options.feeRates ?? DEFAULT_FEE_RATES;
  return {
    name: 'getinfo',
    category: 'control',
    required: 0,
    optional: 0,
    help: GETINFO_HELP,
    async call(_params, ctx) {
      const tip = await store.tip();
      const entry = tip ? await store.blockIndex(tip.hash) : null;
      // GetDifficulty(NULL): the tip's own bits; 1.0 for a chain without a tip.
      const difficulty = entry ? difficultyFromBits(bitsOf(entry.header), ctx.network) : 1;
      const w = new JsonWriter().beginObject();
      w.key('version').int(ZCASHD_CLIENT_VERSION);
      w.key('build').plainStr(ZCASHD_BUILD);
      w.key('subversion').str(subversion);
      w.key('protocolversion').int(ZCASHD_PROTOCOL_VERSION);
      w.key('blocks').int(tip ? tip.height : -1);
      w.key('timeoffset').int(0);
      w.key('connections').int(0);
      w.key('proxy').plainStr('');
      w.key('difficulty').double(difficulty);
      w.key('testnet').bool(ctx.network.name === 'testnet');
      w.key('paytxfee').amount(payTxFee);
      w.key('relayfee').amount(minRelayTxFee);
      w.key('errors').plainStr('');
      w.key('errorstimestamp').int(clock());
      return w.endObject().toString();
    },
  };
}

/** nBits: header bytes 104..108 (after version, prev hash, merkle root, commitments, time). */
function bitsOf(header: Uint8Array): number {
  return (header[104]! | (header[105]! << 8) | (header[106]! << 16) | (header[107]! << 24)) >>> 0;
}
