/**
 * `z_validateaddress "address"` (zcashd v6.12.2 src/rpc/misc.cpp `z_validateaddress` and its
 * DescribePaymentAddressVisitor): what `KeyIO::DecodePaymentAddress` makes of any Zcash
 * address — transparent, Sprout, Sapling or unified (codec/address/payment-address.ts, which
 * also holds the receiver point checks zcashd's parser applies to unified addresses).
 *
 * Answered as an official zcashd build (built with its wallet) answers for an address its
 * wallet does not hold: `ismine` false after the address's own members, none for a unified
 * address. zecrpc has no wallet, so no address is its own. (Started with `-disablewallet`, such
 * a build reaches this method's wallet lock through a null wallet pointer, so the reply with a
 * wallet is the one zcashd defines; it is also the one a comparison against a zcashd node sees.)
 * The deprecated `type` member follows `address_type` only under `-allowdeprecated=addrtype`,
 * off by default. A unified address is described by its type alone, as in zcashd; its
 * receivers are listed by z_listunifiedreceivers. TEX addresses (ZIP 320) do not decode in
 * zcashd v6.12.2, so they are not valid here either.
 */
import { decodePaymentAddress, type PaymentAddress } from '../../../codec/address/payment-address.js';
import { toHex, toHexReversed } from '../../../codec/hex.js';
import { getStr } from '../../../json/getters.js';
import { JsonWriter } from '../../../json/writer.js';
import { helpExampleCli, helpExampleRpc, helpLines } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';

const EXAMPLE = '"zcWsmqT4X2V4jgxbgiCzyrAfRT1vi1F4sn7M5Pkh66izzw8Uk7LBGAH3DtcSMJeUb2pi3W4SQF8LMKkU2cUuVP68yAGcomL"';

const HELP =
  helpLines(
    'z_validateaddress "address"',
    '',
    'Return information about the given address.',
    '',
    'Arguments:',
    '1. "address"   (string, required) The address to validate',
    '',
    'Result:',
    '{',
    '  "isvalid" : true|false,        (boolean) If the address is valid or not. If not, this is the only property returned.',
    '  "address" : "addr",          (string) The address validated',
    '  "address_type" : "xxxx",     (string) "p2pkh", "p2sh", "sprout" or "sapling"',
    '  "type" : "xxxx",             (string) "p2pkh", "p2sh", "sprout" or "sapling" (DEPRECATED, legacy attribute)',
    '  "ismine" : true|false,         (boolean) If the address is yours or not',
    '  "payingkey" : "hex",         (string) [sprout] The hex value of the paying key, a_pk',
    '  "transmissionkey" : "hex",   (string) [sprout] The hex value of the transmission key, pk_enc',
    '  "diversifier" : "hex",       (string) [sapling] The hex value of the diversifier, d',
    '  "diversifiedtransmissionkey" : "hex", (string) [sapling] The hex value of pk_d',
    '}',
    '',
    'Examples:',
  ) +
  helpExampleCli('z_validateaddress', EXAMPLE) +
  helpExampleRpc('z_validateaddress', EXAMPLE);

export interface ZValidateAddressOptions {
  /** `-allowdeprecated=addrtype`: also print the deprecated `type` member. */
  addrTypeField?: boolean;
}

/**
 * DescribePaymentAddressVisitor's members (uint256 values printed with GetHex, i.e. reversed),
 * with a wallet that holds no key: `ismine` false except for a unified address.
 */
function describe(w: JsonWriter, address: PaymentAddress, addrTypeField: boolean): void {
  const kind = address.kind;
  w.key('address_type').str(kind);
  if (addrTypeField) w.key('type').str(kind);
  if (address.kind === 'sprout') {
    w.key('payingkey').str(toHexReversed(address.payingKey));
    w.key('transmissionkey').str(toHexReversed(address.transmissionKey));
  } else if (address.kind === 'sapling') {
    w.key('diversifier').str(toHex(address.diversifier));
    w.key('diversifiedtransmissionkey').str(toHexReversed(address.transmissionKey));
  }
  if (kind !== 'unified') w.key('ismine').bool(false);
}

export function zValidateAddressMethod(options: ZValidateAddressOptions = {}): RpcMethod {
  const addrTypeField = options.addrTypeField ?? false;
  return {
    name: 'z_validateaddress',
    category: 'util',
    required: 1,
    optional: 0,
    help: HELP,
    call(params, ctx) {
      const text = getStr(params[0]!);
      const address = decodePaymentAddress(text, ctx.network);
      const w = new JsonWriter()
        .beginObject()
        .key('isvalid')
        .bool(address !== null);
      if (address !== null) {
        // zcashd echoes the string it was given, not a re-encoding.
        w.key('address').str(text);
        describe(w, address, addrTypeField);
      }
      return w.endObject().toString();
    },
  };
}
