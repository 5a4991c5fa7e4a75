/**
 * `setmocktime timestamp` (zcashd v6.12.2 src/rpc/misc.cpp, a hidden method): sets the node's
 * fixed clock (`clock.ts`), which every rule and reply that reads "now" then uses. As in zcashd,
 * only on regtest, and only when the node started with `-mocktime` (a fixed clock); the
 * network is checked first, then the clock, then the parameter's type.
 */
import type { NodeClock } from '../../../clock.js';
import { getInt64 } from '../../../json/getters.js';
import { JsonNumber, jsonTypeName } from '../../../json/value.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';

export const SETMOCKTIME_HELP: string =
  'setmocktime timestamp\n' +
  '\nSet the local time to given timestamp (-regtest only).\n' +
  'The node must be started with `-mocktime` in order to use this API.\n' +
  '\nArguments:\n' +
  '1. timestamp  (integer, required) Unix seconds-since-epoch timestamp.';

export function setMockTimeMethod(clock: NodeClock): RpcMethod {
  return {
    name: 'setmocktime',
    category: 'hidden',
    required: 1,
    optional: 0,
    help: SETMOCKTIME_HELP,
    call(params, ctx) {
      if (ctx.network.name !== 'regtest') throw new Error('setmocktime: for regression testing (-regtest mode) only');
      if (!clock.isFixed) throw new Error('setmocktime: the node must be started with `-mocktime` in order to use this API');
      const timestamp = params[0]!;
      if (!(timestamp instanceof JsonNumber)) throw new RpcError(RPC.TYPE_ERROR, `Expected type number, got ${jsonTypeName(timestamp)}`);
      const seconds = getInt64(timestamp);
      // A time whose milliseconds a double cannot hold exactly is refused rather than rounded.
      if (seconds > BigInt(Math.floor(Number.MAX_SAFE_INTEGER / 1000)) || seconds < -BigInt(Math.floor(Number.MAX_SAFE_INTEGER / 1000))) {
        throw new RpcError(RPC.INVALID_PARAMETER, 'setmocktime: timestamp out of range');
      }
      clock.setFixed(Number(seconds));
      return 'null';
    },
  };
}
