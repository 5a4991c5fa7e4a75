/**
 * `getnetworksolps ( blocks height )` and its deprecated alias `getnetworkhashps` (zcashd v6.12.2
 * src/rpc/mining.cpp): GetNetworkHashPS over the last `blocks` blocks (default 120, -1 for the
 * averaging window) ending at `height` (default: the tip), from the stored headers and chain work.
 */
import { getInt } from '../../../json/getters.js';
import type { JsonValue } from '../../../json/value.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import { networkHashPs } from './network-solps.js';

const ARGUMENTS_AND_RESULT =
  '\nReturns the estimated network solutions per second based on the last n blocks.\n' +
  'Pass in [blocks] to override # of blocks, -1 specifies over difficulty averaging window.\n' +
  'Pass in [height] to estimate the network speed at the time when a certain block was found.\n' +
  '\nArguments:\n' +
  '1. blocks     (numeric, optional, default=120) The number of blocks, or -1 for blocks over difficulty averaging window.\n' +
  '2. height     (numeric, optional, default=-1) To estimate at the time of the given height.\n' +
  '\nResult:\n' +
  'x             (numeric) Solutions per second estimated\n' +
  '\nExamples:\n';

export const GETNETWORKSOLPS_HELP: string =
  'getnetworksolps ( blocks height )\n' + ARGUMENTS_AND_RESULT + exampleCli('getnetworksolps', '') + exampleRpc('getnetworksolps', '');

/** Deprecated(true, "getnetworkhashps", …): the notice of a deprecated method still enabled. */
export const GETNETWORKHASHPS_HELP: string =
  'getnetworkhashps ( blocks height )\n' +
  '\ngetnetworkhashps is DEPRECATED and will be removed in a future release.\n' +
  'Please use getnetworksolps instead.\n' +
  'See https://zcash.github.io/zcash/user/deprecation.html for more information.\n' +
  ARGUMENTS_AND_RESULT +
  exampleCli('getnetworkhashps', '') +
  exampleRpc('getnetworkhashps', '');

/** The method's reply for `params` (getmininginfo calls it with none). */
export async function networkSolPsJson(store: ChainStoreReader, params: readonly JsonValue[]): Promise<string> {
  const lookup = params.length > 0 ? getInt(params[0]!) : 120;
  const height = params.length > 1 ? getInt(params[1]!) : -1;
  return String(await networkHashPs(store, lookup, height));
}

function solPsMethod(store: ChainStoreReader, name: string, help: string): RpcMethod {
  return {
    name,
    category: 'mining',
    required: 0,
    optional: 2,
    help,
    call: (params) => networkSolPsJson(store, params),
  };
}

export function getNetworkSolPsMethod(store: ChainStoreReader): RpcMethod {
  return solPsMethod(store, 'getnetworksolps', GETNETWORKSOLPS_HELP);
}

export function getNetworkHashPsMethod(store: ChainStoreReader): RpcMethod {
  return solPsMethod(store, 'getnetworkhashps', GETNETWORKHASHPS_HELP);
}
