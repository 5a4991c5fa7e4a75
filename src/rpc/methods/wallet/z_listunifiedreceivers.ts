/**
 * `z_listunifiedreceivers unified_address` (zcashd v6.12.2 src/wallet/rpcwallet.cpp): the
 * receivers of a unified address, each as the address that pays it alone — a t-address, a
 * Sapling address, and for Orchard a unified address holding just that receiver.
 *
 * zcashd registers it with the wallet methods and, started with `-disablewallet`, answers
 * "Method not found (disabled)"; nothing in it reads a wallet, so zecrpc (which has none)
 * answers as a node with a wallet would. Members come in zcashd's iteration order, the
 * receivers' preference order of ZIP 316: orchard, sapling, then p2sh or p2pkh; receivers of
 * unknown types are skipped.
 */
import type { NetworkParams } from '../../../chain/network.js';
import { decodePaymentAddress, encodeSaplingAddress, encodeUnified } from '../../../codec/address/payment-address.js';
import { TYPECODE_ORCHARD, TYPECODE_P2PKH, TYPECODE_P2SH, TYPECODE_SAPLING, type UnifiedReceiver } from '../../../codec/address/unified.js';
import { encodeTransparentAddress } from '../../../codec/script/address.js';
import { getStr } from '../../../json/getters.js';
import { JsonWriter } from '../../../json/writer.js';
import { helpExampleCli, helpExampleRpc, helpLines } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';

const HELP =
  helpLines(
    'z_listunifiedreceivers unified_address',
    '',
    'Returns a record of the individual receivers contained within the provided UA,',
    'keyed by receiver type. The UA may not have receivers for some receiver types,',
    'in which case those keys will be absent.',
    '',
    'Transactions that send funds to any of the receivers returned by this RPC',
    'method will be detected by the wallet as having been sent to the unified',
    'address.',
    '',
    'Arguments:',
    '1. unified_address (string) The unified address',
    '',
    'Result:',
    '{',
    '  "TRANSPARENT_TYPE": "address", (string) The legacy transparent address ("p2pkh" or "p2sh", never both)',
    '  "sapling": "address",          (string) The legacy Sapling address',
    '  "orchard": "address"           (string) A single-receiver Unified Address containing the Orchard receiver',
    '}',
    '',
    'Examples:',
  ) +
  helpExampleCli('z_listunifiedreceivers', '') +
  helpExampleRpc('z_listunifiedreceivers', '');

/** Known receivers in ZIP 316 preference order. */
const PREFERENCE = [TYPECODE_ORCHARD, TYPECODE_SAPLING, TYPECODE_P2SH, TYPECODE_P2PKH] as const;

export const zListUnifiedReceiversMethod: RpcMethod = {
  name: 'z_listunifiedreceivers',
  category: 'wallet',
  required: 1,
  optional: 0,
  help: HELP,
  asciiResults: true,
  call(params, ctx) {
    const address = decodePaymentAddress(getStr(params[0]!), ctx.network);
    if (address === null) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Invalid address');
    if (address.kind !== 'unified') throw new RpcError(RPC.INVALID_PARAMETER, 'Address is not a unified address');
    const w = new JsonWriter().beginObject();
    for (const typecode of PREFERENCE) {
      const receiver = address.receivers.find((r) => r.typecode === typecode);
      if (receiver !== undefined) writeReceiver(w, receiver, ctx.network);
    }
    return w.endObject().toString();
  },
};

function writeReceiver(w: JsonWriter, receiver: UnifiedReceiver, network: NetworkParams): void {
  switch (receiver.typecode) {
    case TYPECODE_ORCHARD:
      w.key('orchard').str(encodeUnified([receiver], network));
      break;
    case TYPECODE_SAPLING:
      w.key('sapling').str(encodeSaplingAddress(receiver.data, network));
      break;
    case TYPECODE_P2SH:
      w.key('p2sh').str(encodeTransparentAddress('p2sh', receiver.data, network));
      break;
    case TYPECODE_P2PKH:
      w.key('p2pkh').str(encodeTransparentAddress('p2pkh', receiver.data, network));
      break;
  }
}
