/**
 * zcashd's relay-policy options (init.cpp): `-datacarrier`, `-datacarriersize` and
 * `-permitbaremultisig`, which decide what sendrawtransaction holds standard.
 */
import { DEFAULT_RELAY_POLICY, type RelayPolicy } from '../chain/tx-policy.js';
import type { NodeConfig } from '../config.js';

/**
 * `GetArg(name, default)` of an integer: `atoi64`, i.e. strtoll's reading (leading whitespace, a
 * sign, the digits that follow; nothing readable is 0; beyond int64 saturates).
 */
function atoi64(text: string): bigint {
  const m = /^[ \t\n\v\f\r]*([+-]?)(\d*)/.exec(text)!;
  if (m[2] === '') return 0n;
  const v = BigInt(`${m[1] === '-' ? '-' : ''}${m[2]}`);
  const max = (1n << 63n) - 1n;
  return v > max ? max : v < -max - 1n ? -max - 1n : v;
}

export function relayPolicy(config: Pick<NodeConfig, 'getArg' | 'getBoolArg'>): RelayPolicy {
  const size = config.getArg('datacarriersize');
  return {
    dataCarrier: config.getBoolArg('datacarrier', DEFAULT_RELAY_POLICY.dataCarrier),
    // zcashd stores it in an `unsigned`: the int64 wraps to 32 bits (-1 allows any size).
    maxDataCarrierBytes: size === undefined ? DEFAULT_RELAY_POLICY.maxDataCarrierBytes : Number(BigInt.asUintN(32, atoi64(size))),
    permitBareMultisig: config.getBoolArg('permitbaremultisig', DEFAULT_RELAY_POLICY.permitBareMultisig),
  };
}
