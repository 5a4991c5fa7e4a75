/**
 * `listbanned` (zcashd v6.12.2 src/rpc/net.cpp): the ban map in its key order, each entry's
 * subnet, end, creation time and reason (every ban set over RPC is "manually added").
 */
import { JsonWriter } from '../../../json/writer.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import { subNetText } from './net-address.js';
import type { PeerLists } from './peer-lists.js';

export const LISTBANNED_HELP: string =
  'listbanned\n' + '\nList all banned IPs/Subnets.\n' + '\nExamples:\n' + exampleCli('listbanned', '') + exampleRpc('listbanned', '');

export function listBannedMethod(lists: PeerLists): RpcMethod {
  return {
    name: 'listbanned',
    surface: 'peerless',
    category: 'network',
    required: 0,
    optional: 0,
    help: LISTBANNED_HELP,
    call() {
      const w = new JsonWriter().beginArray();
      for (const entry of lists.banned()) {
        w.beginObject();
        w.key('address').str(subNetText(entry.subNet));
        w.key('banned_until').int(entry.bannedUntil);
        w.key('ban_created').int(entry.createdAt);
        w.key('ban_reason').plainStr('manually added');
        w.endObject();
      }
      return w.endArray().toString();
    },
  };
}
