/**
 * `getnetworkinfo` (zcashd v6.12.2 src/rpc/net.cpp) as zcashd answers with no connections and
 * not listening (-listen=0, so no local addresses are discovered): v6.12.2's version, subversion
 * and protocol version, NODE_NETWORK|NODE_BLOOM services, and the three networks without proxies
 * (onion limited and unreachable, as zcashd sets it without -proxy or -onion).
 *
 * One deviation, for a situation zcashd has no analogue of: with -upstream, `warnings` says when
 * the upstream node cannot be reached or answers with an error (asked with getblockcount, within
 * the relay's timeout), since mempool and relay methods depend on it. The upstream is never
 * presented as a peer. Without -upstream, or with one that answers, `warnings` is "" and
 * `warningstimestamp` the current time, as zcashd reports when it has no warning.
 */
import { JsonWriter } from '../../../json/writer.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RpcError, type RpcMethod } from '../../method.js';
import { DEFAULT_FEE_RATES, ZCASHD_CLIENT_VERSION, ZCASHD_PROTOCOL_VERSION, zcashdSubversion } from '../control/getinfo.js';
import { UPSTREAM_UNAVAILABLE, type UpstreamRelay } from '../mempool/upstream-relay.js';

/** nLocalServices: NODE_NETWORK (1) | NODE_BLOOM (4), -peerbloomfilters being on by default. */
const LOCAL_SERVICES = '0000000000000005';

export const GETNETWORKINFO_HELP: string =
  'getnetworkinfo\n' +
  'Returns an object containing various state info regarding P2P networking.\n' +
  '\nResult:\n' +
  '{\n' +
  '  "version": xxxxx,                      (numeric) the server version\n' +
  '  "subversion": "/MagicBean:x.y.z[-v]/",     (string) the server subversion string\n' +
  '  "protocolversion": xxxxx,              (numeric) the protocol version\n' +
  '  "localservices": "xxxxxxxxxxxxxxxx", (string) the services we offer to the network\n' +
  '  "timeoffset": xxxxx,                   (numeric) the time offset (deprecated; always 0)\n' +
  '  "connections": xxxxx,                  (numeric) the number of connections\n' +
  '  "networks": [                          (array) information per network\n' +
  '  {\n' +
  '    "name": "xxx",                     (string) network (ipv4, ipv6 or onion)\n' +
  '    "limited": true|false,               (boolean) is the network limited using -onlynet?\n' +
  '    "reachable": true|false,             (boolean) is the network reachable?\n' +
  '    "proxy": "host:port"               (string) the proxy that is used for this network, or empty if none\n' +
  '  }\n' +
  '  ,...\n' +
  '  ],\n' +
  '  "relayfee": x.xxxxxxxx,                (numeric) minimum relay fee rate for transactions in ZEC per 1000 bytes\n' +
  '  "localaddresses": [                    (array) list of local addresses\n' +
  '  {\n' +
  '    "address": "xxxx",                 (string) network address\n' +
  '    "port": xxx,                         (numeric) network port\n' +
  '    "score": xxx                         (numeric) relative score\n' +
  '  }\n' +
  '  ,...\n' +
  '  ]\n' +
  '  "warnings": "..."                    (string) any network warnings (such as alert messages) \n' +
  '}\n' +
  '\nExamples:\n' +
  exampleCli('getnetworkinfo', '') +
  exampleRpc('getnetworkinfo', '');

export interface GetNetworkInfoOptions {
  /** Wall clock in seconds (warningstimestamp). */
  clock: () => number;
  uaComments?: readonly string[];
  /** -minrelaytxfee's rate in zatoshis per 1000 bytes. */
  minRelayTxFee?: bigint;
  upstream?: UpstreamRelay | null;
}

/** The warning about the upstream node, or "" when it answers. */
export async function upstreamWarning(upstream: UpstreamRelay | null | undefined): Promise<string> {
  if (!upstream) return '';
  try {
    await upstream.call('getblockcount', []);
    return '';
  } catch (e) {
    if (!(e instanceof RpcError)) throw e;
    if (e.code === UPSTREAM_UNAVAILABLE) return e.message;
    return `upstream node ${upstream.displayUrl}: getblockcount failed with error ${e.code}: ${e.message}`;
  }
}

export function getNetworkInfoMethod(options: GetNetworkInfoOptions): RpcMethod {
  const subversion = zcashdSubversion(options.uaComments);
  const relayFee = options.minRelayTxFee ?? DEFAULT_FEE_RATES.minRelayTxFee;
  return {
    name: 'getnetworkinfo',
    surface: 'peerless',
    category: 'network',
    required: 0,
    optional: 0,
    help: GETNETWORKINFO_HELP,
    async call() {
      const warnings = await upstreamWarning(options.upstream);
      const w = new JsonWriter().beginObject();
      w.key('version').int(ZCASHD_CLIENT_VERSION);
      w.key('subversion').str(subversion);
      w.key('protocolversion').int(ZCASHD_PROTOCOL_VERSION);
      w.key('localservices').plainStr(LOCAL_SERVICES);
      w.key('timeoffset').int(0);
      w.key('connections').int(0);
      w.key('networks').beginArray();
      for (const [name, limited] of [
        ['ipv4', false],
        ['ipv6', false],
        ['onion', true],
      ] as const) {
        w.beginObject().key('name').plainStr(name).key('limited').bool(limited).key('reachable').bool(!limited);
        w.key('proxy').plainStr('').key('proxy_randomize_credentials').bool(false).endObject();
      }
      w.endArray();
      w.key('relayfee').amount(relayFee);
      w.key('localaddresses').beginArray().endArray();
      w.key('warnings').str(warnings);
      w.key('warningstimestamp').int(options.clock());
      return w.endObject().toString();
    },
  };
}
