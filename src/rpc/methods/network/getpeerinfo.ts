/**
 * `getpeerinfo` (zcashd v6.12.2 src/rpc/net.cpp): one object per connected peer; zecrpc has no
 * peers, so the array is empty. The -upstream node is deliberately not shown as a peer (its
 * reachability is in getnetworkinfo's `warnings`).
 */
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';

export const GETPEERINFO_HELP: string =
  'getpeerinfo\n' +
  '\nReturns data about each connected network node as a json array of objects.\n' +
  '\nbResult:\n' +
  '[\n' +
  '  {\n' +
  '    "id": n,                   (numeric) Peer index\n' +
  '    "addr":"host:port",      (string) The IP address and port of the peer\n' +
  '    "addrlocal":"ip:port",   (string) local address\n' +
  '    "services":"xxxxxxxxxxxxxxxx",   (string) The services offered\n' +
  '    "relaytxes":true|false,    (boolean) Whether peer has asked us to relay transactions to it\n' +
  '    "lastsend": ttt,           (numeric) The time in seconds since epoch (Jan 1 1970 GMT) of the last send\n' +
  '    "lastrecv": ttt,           (numeric) The time in seconds since epoch (Jan 1 1970 GMT) of the last receive\n' +
  '    "bytessent": n,            (numeric) The total bytes sent\n' +
  '    "bytesrecv": n,            (numeric) The total bytes received\n' +
  '    "conntime": ttt,           (numeric) The connection time in seconds since epoch (Jan 1 1970 GMT)\n' +
  '    "timeoffset": ttt,         (numeric) The time offset in seconds\n' +
  '    "pingtime": n,             (numeric) ping time\n' +
  '    "pingwait": n,             (numeric) ping wait\n' +
  '    "version": v,              (numeric) The peer version, such as 170002\n' +
  '    "subver": "/MagicBean:x.y.z[-v]/",  (string) The string version\n' +
  '    "inbound": true|false,     (boolean) Inbound (true) or Outbound (false)\n' +
  '    "startingheight": n,       (numeric) The starting height (block) of the peer\n' +
  '    "banscore": n,             (numeric) The ban score\n' +
  '    "synced_headers": n,       (numeric) The last header we have in common with this peer\n' +
  '    "synced_blocks": n,        (numeric) The last block we have in common with this peer\n' +
  '    "inflight": [\n' +
  "       n,                        (numeric) The heights of blocks we're currently asking from this peer\n" +
  '       ...\n' +
  '    ]\n' +
  '  }\n' +
  '  ,...\n' +
  ']\n' +
  '\nExamples:\n' +
  exampleCli('getpeerinfo', '') +
  exampleRpc('getpeerinfo', '');

export function getPeerInfoMethod(): RpcMethod {
  return {
    name: 'getpeerinfo',
    surface: 'peerless',
    category: 'network',
    required: 0,
    optional: 0,
    help: GETPEERINFO_HELP,
    call: () => '[]',
  };
}
