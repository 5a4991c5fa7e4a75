/**
 * zcashd's `KeyIO::DecodeSecret` (key_io.cpp): a WIF private key, Base58Check of the network's
 * secret-key prefix ‖ 32-byte key (‖ 0x01 when its public key is compressed).
 */
import type { NetworkParams } from '../../chain/network.js';
import { decodeBase58CheckText } from './address.js';

/** SECRET_KEY base58 prefixes (chainparams.cpp): mainnet 0x80, testnet and regtest 0xef. */
const SECRET_KEY_PREFIX: Record<NetworkParams['name'], number> = { mainnet: 0x80, testnet: 0xef, regtest: 0xef };

export interface SecretKey {
  /** 32 bytes, big-endian; not yet checked against the curve order (`isValidSecret`). */
  secret: Uint8Array;
  compressed: boolean;
}

/** The key a WIF string holds for `network`, or null where zcashd's decoding fails. */
export function decodeSecretKey(text: string, network: NetworkParams): SecretKey | null {
  // 1 + 32 + 1 payload bytes and 4 of checksum are at most 52 characters.
  const data = decodeBase58CheckText(text, 64);
  if (data === null || data[0] !== SECRET_KEY_PREFIX[network.name]) return null;
  if (data.length === 33) return { secret: data.slice(1), compressed: false };
  if (data.length === 34 && data[33] === 1) return { secret: data.slice(1, 33), compressed: true };
  return null;
}
