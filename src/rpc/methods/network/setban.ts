/**
 * `setban "ip(/netmask)" "add|remove" (bantime) (absolute)` (zcashd v6.12.2 src/rpc/net.cpp):
 * adds or removes a ban list entry. The command is read first (its help as a -1 error when it is
 * neither), then the address: one with a "/" is a subnet, others a single numeric address; an
 * invalid one is zcashd's -23 "Error: Invalid IP/Subnet" (zcashd's code for it, not -30).
 */
import { getInt64, getStr } from '../../../json/getters.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { isValidAddress, parseNumericAddress, parseSubNet, singleAddressSubNet, type SubNet } from './net-address.js';
import type { PeerLists } from './peer-lists.js';

/** RPC_CLIENT_NODE_ALREADY_ADDED (src/rpc/protocol.h). */
export const RPC_CLIENT_NODE_ALREADY_ADDED = -23;

export const SETBAN_HELP: string =
  'setban "ip(/netmask)" "add|remove" (bantime) (absolute)\n' +
  '\nAttempts to add or remove an IP/Subnet from the banned list.\n' +
  '\nArguments:\n' +
  '1. "ip(/netmask)" (string, required) The IP/Subnet (see getpeerinfo for nodes IP) with an optional netmask (default is /32 = single IP)\n' +
  "2. \"command\"      (string, required) 'add' to add an IP/Subnet to the list, 'remove' to remove an IP/Subnet from the list\n" +
  '3. "bantime"      (numeric, optional) time in seconds how long (or until when if [absolute] is set) the IP is banned (0 or empty means using the default time of 24h which can also be overwritten by the -bantime startup argument)\n' +
  '4. "absolute"     (boolean, optional) If set, the bantime must be an absolute timestamp in seconds since epoch (Jan 1 1970 GMT)\n' +
  '\nExamples:\n' +
  exampleCli('setban', '"192.168.0.6" "add" 86400') +
  exampleCli('setban', '"192.168.0.0/24" "add"') +
  exampleRpc('setban', '"192.168.0.6", "add" 86400');

function parseTarget(text: string): { subNet: SubNet; isSubnet: boolean } | null {
  if (text.includes('/')) {
    const subNet = parseSubNet(text);
    return subNet ? { subNet, isSubnet: true } : null;
  }
  const ip = parseNumericAddress(text);
  return ip && isValidAddress(ip) ? { subNet: singleAddressSubNet(ip), isSubnet: false } : null;
}

export function setBanMethod(lists: PeerLists): RpcMethod {
  return {
    name: 'setban',
    surface: 'peerless',
    category: 'network',
    required: 2,
    optional: 2,
    help: SETBAN_HELP,
    call(params) {
      const command = getStr(params[1]!);
      if (command !== 'add' && command !== 'remove') throw new Error(SETBAN_HELP);
      const target = parseTarget(getStr(params[0]!));
      if (!target) throw new RpcError(RPC_CLIENT_NODE_ALREADY_ADDED, 'Error: Invalid IP/Subnet');
      const { subNet, isSubnet } = target;
      if (command === 'add') {
        const banned = isSubnet ? lists.isSubNetBanned(subNet) : lists.isAddressBanned(subNet.network);
        if (banned) throw new RpcError(RPC_CLIENT_NODE_ALREADY_ADDED, 'Error: IP/Subnet already banned');
        const banTime = params.length >= 3 && params[2] !== null ? getInt64(params[2]!) : 0n;
        // UniValue::isTrue: only the JSON literal true.
        const absolute = params.length === 4 && params[3] === true;
        lists.ban(subNet, banTime, absolute);
      } else if (!lists.unban(subNet)) {
        throw new RpcError(RPC.MISC_ERROR, 'Error: Unban failed');
      }
      return 'null';
    },
  };
}
