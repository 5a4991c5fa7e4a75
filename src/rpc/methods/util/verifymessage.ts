/**
 * `verifymessage "zcashaddress" "signature" "message"` (zcashd v6.12.2 src/rpc/misc.cpp
 * `verifymessage`): whether a compact secp256k1 signature over
 * SHA-256d(ser("Zcash Signed Message:\n") ‖ ser(message)) recovers the key of a P2PKH address.
 */
import { Buffer } from 'node:buffer';
import { decodeTransparentAddress } from '../../../codec/script/address.js';
import { bytesEqual } from '../../../codec/hex.js';
import { hash160, sha256d } from '../../../crypto/hash.js';
import { recoverCompact } from '../../../crypto/secp256k1.js';
import { getStr } from '../../../json/getters.js';
import { helpExampleCli, helpExampleRpc, helpLines } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { decodeBase64Zcashd } from './base64.js';

const ADDRESS = '"t14oHp2v54vfmdgQ3v3SNuQga8JKHTNi2a1"';

const HELP =
  helpLines(
    'verifymessage "zcashaddress" "signature" "message"',
    '',
    'Verify a signed message',
    '',
    'Arguments:',
    '1. "zcashaddress"    (string, required) The Zcash address to use for the signature.',
    '2. "signature"       (string, required) The signature provided by the signer in base 64 encoding (see signmessage).',
    '3. "message"         (string, required) The message that was signed.',
    '',
    'Result:',
    'true|false   (boolean) If the signature is verified or not.',
    '',
    'Examples:',
    '',
    'Unlock the wallet for 30 seconds',
  ) +
  helpExampleCli('walletpassphrase', '"mypassphrase" 30') +
  '\nCreate the signature\n' +
  helpExampleCli('signmessage', `${ADDRESS} "my message"`) +
  '\nVerify the signature\n' +
  helpExampleCli('verifymessage', `${ADDRESS} "signature" "my message"`) +
  '\nAs json rpc\n' +
  helpExampleRpc('verifymessage', `${ADDRESS}, "signature", "my message"`);

/** strMessageMagic (src/main.cpp). */
export const MESSAGE_MAGIC = 'Zcash Signed Message:\n';

/** A string as zcashd serializes it: CompactSize length, then its bytes. */
function serializeString(bytes: Uint8Array): Uint8Array {
  const n = bytes.length;
  const size =
    n < 253
      ? Uint8Array.of(n)
      : n <= 0xffff
        ? Uint8Array.of(253, n & 0xff, n >> 8)
        : Uint8Array.of(254, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24);
  const out = new Uint8Array(size.length + n);
  out.set(size, 0);
  out.set(bytes, size.length);
  return out;
}

/** The hash a message's signature signs. */
export function messageHash(message: string): Uint8Array {
  const magic = serializeString(Buffer.from(MESSAGE_MAGIC, 'utf8'));
  const body = serializeString(Buffer.from(message, 'utf8'));
  const all = new Uint8Array(magic.length + body.length);
  all.set(magic, 0);
  all.set(body, magic.length);
  return sha256d(all);
}

export const verifyMessageMethod: RpcMethod = {
  name: 'verifymessage',
  category: 'util',
  required: 3,
  optional: 0,
  help: HELP,
  call(params, ctx) {
    const address = getStr(params[0]!);
    const signature = getStr(params[1]!);
    const message = getStr(params[2]!);
    const destination = decodeTransparentAddress(address, ctx.network);
    if (destination === null) throw new RpcError(RPC.TYPE_ERROR, 'Invalid address');
    if (destination.kind !== 'p2pkh') throw new RpcError(RPC.TYPE_ERROR, 'Address does not refer to key');
    const sig = decodeBase64Zcashd(signature);
    if (sig === null) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Malformed base64 encoding');
    const pubkey = recoverCompact(messageHash(message), sig);
    return pubkey !== null && bytesEqual(hash160(pubkey), destination.hash) ? 'true' : 'false';
  },
};
