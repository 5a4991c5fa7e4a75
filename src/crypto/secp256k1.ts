/**
 * The secp256k1 operations zcashd's CPubKey performs (src/pubkey.cpp over libsecp256k1):
 * `IsFullyValid` (the key parses as a curve point, hybrid 06/07 encodings included) and
 * `RecoverCompact` (the key of a 65-byte compact recoverable signature), and CKey's
 * (src/key.cpp): `Check`, `GetPubKey` and `Sign` (RFC 6979 nonces, low S, DER), on @noble/curves.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';

const COMPRESSED_SIZE = 33;
const UNCOMPRESSED_SIZE = 65;

/** `CPubKey::GetLen(prefix)`: the length a key with this first byte must have, 0 if none. */
function pubkeyLength(prefix: number): number {
  if (prefix === 0x02 || prefix === 0x03) return COMPRESSED_SIZE;
  if (prefix === 0x04 || prefix === 0x06 || prefix === 0x07) return UNCOMPRESSED_SIZE;
  return 0;
}

/**
 * `CPubKey(bytes).IsFullyValid()`: the length matches the prefix and libsecp256k1's
 * `secp256k1_ec_pubkey_parse` accepts it, which takes a hybrid key (06/07) whose prefix
 * matches the parity of y.
 */
export function isFullyValidPubkey(key: Uint8Array): boolean {
  if (key.length === 0 || pubkeyLength(key[0]!) !== key.length) return false;
  const prefix = key[0]!;
  const standard = prefix === 0x06 || prefix === 0x07 ? Uint8Array.from(key, (b, i) => (i === 0 ? 0x04 : b)) : key;
  try {
    const point = secp256k1.Point.fromBytes(standard);
    if (prefix === 0x06 || prefix === 0x07) return (point.toAffine().y & 1n) === (prefix === 0x07 ? 1n : 0n);
    return true;
  } catch {
    return false;
  }
}

/**
 * `CPubKey::RecoverCompact(hash, sig)`: the serialized public key (compressed when the header
 * says so) that signed the 32-byte `hash`, or null. The header byte is 27 + recovery id
 * (+ 4 for a compressed key); r and s must be below the group order and not zero.
 */
export function recoverCompact(hash: Uint8Array, sig: Uint8Array): Uint8Array | null {
  if (sig.length !== 65) return null;
  const header = sig[0]! - 27;
  const recovery = header & 3;
  const compressed = (header & 4) !== 0;
  try {
    const signature = secp256k1.Signature.fromBytes(sig.subarray(1), 'compact').addRecoveryBit(recovery);
    return signature.recoverPublicKey(hash).toBytes(compressed);
  } catch {
    // r or s out of range, or no point with x = r (+ n) on the curve.
    return null;
  }
}

/** `CKey::Check`: a secret key is 32 bytes in [1, n − 1]. */
export function isValidSecret(secret: Uint8Array): boolean {
  return secret.length === 32 && secp256k1.utils.isValidSecretKey(secret);
}

/** `CKey::GetPubKey`: the serialized public key, compressed (33 bytes) or not (65). */
export function publicKeyOf(secret: Uint8Array, compressed: boolean): Uint8Array {
  return secp256k1.getPublicKey(secret, compressed);
}

/**
 * `CKey::Sign(hash, vchSig)`: a DER signature of the 32-byte `hash` with RFC 6979's
 * deterministic nonce (libsecp256k1's default, no extra entropy) and a low S, as zcashd signs.
 */
export function signDer(hash: Uint8Array, secret: Uint8Array): Uint8Array {
  return secp256k1.sign(hash, secret, { prehash: false, lowS: true, format: 'der' });
}

/** Whether `der` is a valid low-S DER signature of `hash` by `publicKey`. */
export function verifyDer(hash: Uint8Array, der: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return secp256k1.verify(der, hash, publicKey, { prehash: false, lowS: true, format: 'der' });
  } catch {
    return false;
  }
}

/**
 * `CPubKey::Verify(hash, sig)`, which a script's signature check calls: the key parses (hybrid
 * 06/07 keys as libsecp256k1 takes them), the DER signature parses and either half of S is
 * taken (libsecp256k1 normalizes it before verifying), so a high-S signature verifies here (the script flags refuse it
 * earlier). libsecp256k1's lax DER parser also takes some non-DER encodings; those fail here,
 * which only a combined signature that no standard signer made could reach.
 */
export function verifyDerNormalized(hash: Uint8Array, der: Uint8Array, publicKey: Uint8Array): boolean {
  if (!isFullyValidPubkey(publicKey)) return false;
  const prefix = publicKey[0]!;
  const key = prefix === 0x06 || prefix === 0x07 ? Uint8Array.from(publicKey, (b, i) => (i === 0 ? 0x04 : b)) : publicKey;
  try {
    return secp256k1.verify(der, hash, key, { prehash: false, lowS: false, format: 'der' });
  } catch {
    return false;
  }
}
