/**
 * `createmultisig nrequired ["key",...]` (zcashd v6.12.2 src/rpc/misc.cpp `createmultisig` and
 * `_createmultisig_redeemScript`): the P2SH address and redeem script of an m-of-n multisig.
 *
 * Keys are hex public keys. zcashd also takes the address of a key its wallet holds; with no
 * wallet (zecrpc has none, as a `-disablewallet` node) an address falls through to the hex
 * case and is " Invalid public key: <address>", exactly as zcashd answers then.
 */
import { toHex, hexToBytesStrict } from '../../../codec/hex.js';
import { encodeTransparentAddress } from '../../../codec/script/address.js';
import { multisigScript } from '../../../codec/script/destination-script.js';
import { hash160 } from '../../../crypto/hash.js';
import { isFullyValidPubkey } from '../../../crypto/secp256k1.js';
import { getArray, getInt, getStr } from '../../../json/getters.js';
import type { JsonValue } from '../../../json/value.js';
import { JsonWriter } from '../../../json/writer.js';
import { helpExampleCli, helpExampleRpc, helpLines } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';

const EXAMPLE_KEYS = '\\"t16sSauSf5pF2UkUwvKGq4qjNRzBZYqgEL5\\",\\"t171sgjn4YtPu27adkKGrdDwzRTxnRkBfKV\\"';

const HELP =
  helpLines(
    'createmultisig nrequired ["key",...]',
    '',
    'Creates a multi-signature address with n signature of m keys required.',
    'It returns a json object with the address and redeemScript.',
    '',
    'Arguments:',
    '1. nrequired      (numeric, required) The number of required signatures out of the n keys or addresses.',
    '2. "keys"       (string, required) A json array of keys which are Zcash addresses or hex-encoded public keys',
    '     [',
    '       "key"    (string) Zcash address or hex-encoded public key',
    '       ,...',
    '     ]',
    '',
    'Result:',
    '{',
    '  "address":"multisigaddress",  (string) The value of the new multisig address.',
    '  "redeemScript":"script"       (string) The string value of the hex-encoded redemption script.',
    '}',
    '',
    'Examples:',
    '',
    'Create a multisig address from 2 addresses',
  ) +
  helpExampleCli('createmultisig', `2 "[${EXAMPLE_KEYS}]"`) +
  '\nAs a json rpc call\n' +
  helpExampleRpc('createmultisig', `2, "[${EXAMPLE_KEYS}]"`);

/** MAX_SCRIPT_ELEMENT_SIZE: a redeem script is pushed whole when spent. */
const MAX_SCRIPT_ELEMENT_SIZE = 520;
const MAX_KEYS = 16;

/** `_createmultisig_redeemScript`: zcashd's checks in its order, each a code -1 error. */
export function multisigRedeemScript(requiredParam: JsonValue, keysParam: JsonValue): Uint8Array {
  const required = getInt(requiredParam);
  const keys = getArray(keysParam);
  if (required < 1) throw new Error('a multisignature address must require at least one key to redeem');
  if (keys.length < required) {
    throw new Error(`not enough keys supplied (got ${keys.length} keys, but need at least ${required} to redeem)`);
  }
  if (keys.length > MAX_KEYS)
    throw new Error('Number of addresses involved in the multisignature address creation > 16\nReduce the number');
  const pubkeys = keys.map((k) => {
    const text = getStr(k);
    const key = hexToBytesStrict(text);
    if (key === null || !isFullyValidPubkey(key)) throw new Error(' Invalid public key: ' + text);
    return key;
  });
  const script = multisigScript(required, pubkeys);
  if (script.length > MAX_SCRIPT_ELEMENT_SIZE) {
    throw new Error(`redeemScript exceeds size limit: ${script.length} > ${MAX_SCRIPT_ELEMENT_SIZE}`);
  }
  return script;
}

export const createMultisigMethod: RpcMethod = {
  name: 'createmultisig',
  category: 'util',
  required: 2,
  optional: 0,
  help: HELP,
  call(params, ctx) {
    const script = multisigRedeemScript(params[0]!, params[1]!);
    return new JsonWriter()
      .beginObject()
      .key('address')
      .str(encodeTransparentAddress('p2sh', hash160(script), ctx.network))
      .key('redeemScript')
      .str(toHex(script))
      .endObject()
      .toString();
  },
};
