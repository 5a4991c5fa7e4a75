/**
 * `getaddednodeinfo dns ( "node" )` (zcashd v6.12.2 src/rpc/net.cpp): the addnode list. With
 * dns, each added node is resolved (numeric addresses directly, names through the system
 * resolver as zcashd's Lookup does with -dns) and every address is reported "connected": "false",
 * since a node without peers is connected to none; a name that does not resolve is left out of
 * the reply, as zcashd leaves it out.
 */
import { lookup } from 'node:dns/promises';
import type { NetworkName } from '../../../chain/network.js';
import { getBool, getStr } from '../../../json/getters.js';
import { JsonWriter } from '../../../json/writer.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RpcError, type RpcMethod } from '../../method.js';
import { RPC_CLIENT_NODE_NOT_ADDED } from './addnode.js';
import { parseNumericAddress, serviceText, splitHostPort, type NetAddr } from './net-address.js';
import type { PeerLists } from './peer-lists.js';

/** The peer-to-peer port of each network (CChainParams::GetDefaultPort). */
export const DEFAULT_P2P_PORT: Readonly<Record<NetworkName, number>> = { mainnet: 8233, testnet: 18233, regtest: 18344 };

/** Resolves a host name to its addresses (empty when it does not resolve). */
export type HostResolver = (host: string) => Promise<NetAddr[]>;

const RESOLVE_TIMEOUT_MS = 10_000;

/** The system resolver (getaddrinfo), bounded in time. */
export const systemResolver: HostResolver = async (host) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never[]>((resolve) => (timer = setTimeout(() => resolve([]), RESOLVE_TIMEOUT_MS)));
  try {
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }).catch(() => []), timeout]);
    return found.map((a) => parseNumericAddress(a.address)).filter((a): a is NetAddr => a !== null);
  } finally {
    clearTimeout(timer);
  }
};

export const GETADDEDNODEINFO_HELP: string =
  'getaddednodeinfo dns ( "node" )\n' +
  '\nReturns information about the given added node, or all added nodes\n' +
  '(note that onetry addnodes are not listed here)\n' +
  'If dns is false, only a list of added nodes will be provided,\n' +
  'otherwise connected information will also be available.\n' +
  '\nArguments:\n' +
  '1. dns        (boolean, required) If false, only a list of added nodes will be provided, otherwise connected information will also be available.\n' +
  '2. "node"   (string, optional) If provided, return information about this specific node, otherwise all nodes are returned.\n' +
  '\nResult:\n' +
  '[\n' +
  '  {\n' +
  '    "addednode" : "192.168.0.201",   (string) The node IP address\n' +
  '    "connected" : true|false,          (boolean) If connected\n' +
  '    "addresses" : [\n' +
  '       {\n' +
  '         "address" : "192.168.0.201:8233",  (string) The Zcash server host and port\n' +
  '         "connected" : "outbound"           (string) connection, inbound or outbound\n' +
  '       }\n' +
  '       ,...\n' +
  '     ]\n' +
  '  }\n' +
  '  ,...\n' +
  ']\n' +
  '\nExamples:\n' +
  exampleCli('getaddednodeinfo', 'true') +
  exampleCli('getaddednodeinfo', 'true "192.168.0.201"') +
  exampleRpc('getaddednodeinfo', 'true, "192.168.0.201"');

export function getAddedNodeInfoMethod(lists: PeerLists, resolve: HostResolver = systemResolver): RpcMethod {
  return {
    name: 'getaddednodeinfo',
    surface: 'peerless',
    category: 'network',
    required: 1,
    optional: 1,
    help: GETADDEDNODEINFO_HELP,
    async call(params, ctx) {
      const dns = getBool(params[0]!);
      let nodes: string[];
      if (params.length === 1) nodes = [...lists.addedNodes];
      else {
        const node = getStr(params[1]!);
        nodes = lists.addedNodes.filter((n) => n === node).slice(0, 1);
        if (nodes.length === 0) throw new RpcError(RPC_CLIENT_NODE_NOT_ADDED, 'Error: Node has not been added.');
      }
      const w = new JsonWriter().beginArray();
      if (!dns) {
        for (const node of nodes) w.beginObject().key('addednode').str(node).endObject();
        return w.endArray().toString();
      }
      for (const node of nodes) {
        const { host, port } = splitHostPort(node, DEFAULT_P2P_PORT[ctx.network.name]);
        const numeric = parseNumericAddress(host);
        const addresses = numeric ? [numeric] : host === '' ? [] : await resolve(host);
        if (addresses.length === 0) continue;
        w.beginObject().key('addednode').str(node);
        w.key('connected').bool(false);
        w.key('addresses').beginArray();
        for (const ip of addresses)
          w.beginObject().key('address').str(serviceText(ip, port)).key('connected').plainStr('false').endObject();
        w.endArray().endObject();
      }
      return w.endArray().toString();
    },
  };
}
