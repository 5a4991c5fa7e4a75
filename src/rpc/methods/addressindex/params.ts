/**
 * The address-index methods' argument parsing (zcashd v6.12.2 src/rpc/misc.cpp
 * getAddressesFromParams, getHeightRange), with zcashd's checks in zcashd's order.
 */
import { decodeTransparentAddress } from '../../../codec/script/address.js';
import { getBool, getInt, getStr } from '../../../json/getters.js';
import { JsonObject, type JsonValue } from '../../../json/value.js';
import { SCRIPT_P2PKH, SCRIPT_P2SH } from '../../../store/indexes/address-index.js';
import { RPC, requestMemoryExceeded, RpcError, type RpcContext } from '../../method.js';

export interface IndexAddress {
  /** CScript::P2PKH (1) or P2SH (2). */
  type: number;
  hash: Uint8Array;
}

/**
 * Memory a request uses per address it lists, in bytes, before reading any index entry. The
 * peak resident memory per address of a list of 200,000 with no history, parsing the request
 * included, was measured at 344–584 bytes alone (bench/insight-memory.ts) and about 520 for
 * eight such requests at once; the charge leaves twice that for the collector's timing under
 * load. Charged against the request's memory (`RpcContext.requestMemory`) before the list is
 * decoded, and what is charged is not left for entries: at 256 MiB a request may list about
 * 209,000 addresses, where zcashd takes any number (a 32 MiB body holds about 900,000).
 */
export const ADDRESS_WORK_BYTES = 1280;

/**
 * A single address string, or {"addresses": [...]}; every entry must be a t-address of this
 * network. A list longer than the request's memory allows is refused with -7 first.
 */
export function addressesFromParam(param: JsonValue, ctx: Pick<RpcContext, 'network' | 'requestMemory'>): IndexAddress[] {
  const { network } = ctx;
  let strings: string[];
  if (typeof param === 'string') strings = [param];
  else if (param instanceof JsonObject) {
    const list = param.get('addresses');
    if (!Array.isArray(list)) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Addresses is expected to be an array');
    if (ctx.requestMemory !== undefined && list.length * ADDRESS_WORK_BYTES > ctx.requestMemory) {
      throw requestMemoryExceeded(ctx.requestMemory);
    }
    // zcashd takes every string first (a non-string is get_str's -1), then decodes them.
    strings = list.map((v) => getStr(v));
  } else throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Invalid address');
  return strings.map((s) => {
    const d = decodeTransparentAddress(s, network);
    if (!d) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Invalid address');
    return { type: d.kind === 'p2pkh' ? SCRIPT_P2PKH : SCRIPT_P2SH, hash: d.hash };
  });
}

/** `find_value(obj, key)`, null when the parameter is not an object or lacks the key. */
export function member(param: JsonValue, key: string): JsonValue {
  return param instanceof JsonObject ? (param.get(key) ?? null) : null;
}

/** The optional "chainInfo" member (get_bool). */
export function chainInfoFlag(param: JsonValue): boolean {
  const v = member(param, 'chainInfo');
  return v === null ? false : getBool(v);
}

/**
 * getHeightRange: "start"/"end" (get_int, nonnegative), then start is clamped to the tip, an end
 * of 0 or past the tip means the tip, and start > end is an error.
 */
export function heightRange(param: JsonValue, tipHeight: number): { start: number; end: number } {
  let start = 0;
  let end = 0;
  const s = member(param, 'start');
  const e = member(param, 'end');
  if (s !== null) {
    start = getInt(s);
    if (start < 0) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Start height must be nonnegative');
  }
  if (e !== null) {
    end = getInt(e);
    if (end < 0) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'End height must be nonnegative');
  }
  if (start > tipHeight) start = tipHeight;
  if (end === 0 || end > tipHeight) end = tipHeight;
  if (start > end) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'End value is expected to be greater than or equal to start');
  return { start, end };
}
