/**
 * zcashd v6.12.2 `KeyIO::DecodePaymentAddress` (src/key_io.cpp) and the encoders of the
 * addresses it returns: a unified address first (zcash_address's parser, then the receiver
 * checks of src/rust/src/address_ffi.rs), then Sapling (zcashd's Bech32 decoder), Sprout
 * (Base58Check), and finally a transparent address. TEX addresses (ZIP 320) are not among
 * them: zcashd v6.12.2 only encodes them (z_converttex), so they decode to nothing here too.
 */
import type { NetworkName, NetworkParams } from '../../chain/network.js';
import { isValidOrchardReceiver, isValidSaplingReceiver } from '../../crypto/receivers.js';
import { decodeBase58CheckText, decodeTransparentAddress } from '../script/address.js';
import type { DestinationKind } from '../script/solver.js';
import { convertBits, decodeBech32Strict, decodeBech32Zcashd, encodeBech32 } from './bech32.js';
import { TYPECODE_ORCHARD, TYPECODE_SAPLING, decodeUnifiedAddress, encodeUnifiedAddress, type UnifiedReceiver } from './unified.js';

/** zcashd's key constants per network (src/chainparams.cpp) for the shielded encodings. */
interface ShieldedConstants {
  sproutPrefix: Uint8Array;
  saplingHrp: string;
  unifiedHrp: string;
  texHrp: string;
}

const SHIELDED: Record<NetworkName, ShieldedConstants> = {
  mainnet: { sproutPrefix: Uint8Array.of(0x16, 0x9a), saplingHrp: 'zs', unifiedHrp: 'u', texHrp: 'tex' },
  testnet: { sproutPrefix: Uint8Array.of(0x16, 0xb6), saplingHrp: 'ztestsapling', unifiedHrp: 'utest', texHrp: 'textest' },
  regtest: { sproutPrefix: Uint8Array.of(0x16, 0xb6), saplingHrp: 'zregtestsapling', unifiedHrp: 'uregtest', texHrp: 'texregtest' },
};

/** A Sapling address's 43 bytes in Bech32: ((32 + 11) · 8 + 4) / 5 groups. */
const SAPLING_ADDRESS_GROUPS = 69;
const SPROUT_ADDRESS_BYTES = 64;

export type PaymentAddress =
  | { kind: DestinationKind; hash: Uint8Array }
  | { kind: 'sprout'; payingKey: Uint8Array; transmissionKey: Uint8Array }
  | { kind: 'sapling'; diversifier: Uint8Array; transmissionKey: Uint8Array }
  | { kind: 'unified'; receivers: UnifiedReceiver[] };

/** Rust's `char::is_whitespace` (Unicode White_Space), which `str::trim` strips. */
function isRustWhitespace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** What zcash_address parses: the C string (up to a NUL), trimmed as Rust trims. */
function rustView(str: string): string {
  const nul = str.indexOf('\0');
  let end = nul < 0 ? str.length : nul;
  let start = 0;
  while (start < end && isRustWhitespace(str.charCodeAt(start))) start++;
  while (end > start && isRustWhitespace(str.charCodeAt(end - 1))) end--;
  return str.slice(start, end);
}

/** `UnifiedAddress::Parse`: the receivers in encoding order, or null. */
function parseUnified(str: string, constants: ShieldedConstants): UnifiedReceiver[] | null {
  const receivers = decodeUnifiedAddress(rustView(str), constants.unifiedHrp);
  if (receivers === null) return null;
  for (const r of receivers) {
    if (r.typecode === TYPECODE_SAPLING && !isValidSaplingReceiver(r.data)) return null;
    if (r.typecode === TYPECODE_ORCHARD && !isValidOrchardReceiver(r.data)) return null;
  }
  return receivers;
}

/** `DecodeSapling`: Bech32 (not Bech32m), the network's HRP, 69 groups, zero padding. */
function parseSapling(str: string, constants: ShieldedConstants): Uint8Array | null {
  const bech = decodeBech32Zcashd(str);
  if (bech === null || bech.variant !== 'bech32' || bech.hrp !== constants.saplingHrp) return null;
  if (bech.data.length !== SAPLING_ADDRESS_GROUPS) return null;
  return convertBits(bech.data, 5, 8, false);
}

/** `DecodeSprout`: Base58Check of the network's 2-byte prefix and a_pk ‖ pk_enc. */
function parseSprout(str: string, constants: ShieldedConstants): Uint8Array | null {
  // 70 bytes with the checksum: at most 96 characters, plus room for whitespace zcashd skips.
  const payload = decodeBase58CheckText(str, 128);
  if (payload === null || payload.length !== 2 + SPROUT_ADDRESS_BYTES) return null;
  const prefix = constants.sproutPrefix;
  if (payload[0] !== prefix[0] || payload[1] !== prefix[1]) return null;
  return payload.subarray(2);
}

/** `KeyIO::DecodePaymentAddress(str)` for `network`; null when zcashd's is empty. */
export function decodePaymentAddress(str: string, network: NetworkParams): PaymentAddress | null {
  const constants = SHIELDED[network.name];
  const receivers = parseUnified(str, constants);
  if (receivers !== null) return { kind: 'unified', receivers };
  const sapling = parseSapling(str, constants);
  if (sapling !== null) return { kind: 'sapling', diversifier: sapling.slice(0, 11), transmissionKey: sapling.slice(11, 43) };
  const sprout = parseSprout(str, constants);
  if (sprout !== null) return { kind: 'sprout', payingKey: sprout.slice(0, 32), transmissionKey: sprout.slice(32, 64) };
  return decodeTransparentAddress(str, network);
}

/** The Sapling address of a raw receiver (`d ‖ pk_d`), as zcashd encodes it. */
export function encodeSaplingAddress(raw: Uint8Array, network: NetworkParams): string {
  return encodeBech32(SHIELDED[network.name].saplingHrp, convertBits(raw, 8, 5, true)!, 'bech32');
}

/** The unified address of receivers given in ascending typecode order. */
export function encodeUnified(receivers: readonly UnifiedReceiver[], network: NetworkParams): string {
  return encodeUnifiedAddress(receivers, SHIELDED[network.name].unifiedHrp);
}

/** `KeyIO::EncodeTexAddress`: the ZIP 320 address of a P2PKH key hash. */
export function encodeTexAddress(keyHash: Uint8Array, network: NetworkParams): string {
  return encodeBech32(SHIELDED[network.name].texHrp, convertBits(keyHash, 8, 5, true)!, 'bech32m');
}

/** The key hash of a ZIP 320 address of `network` (zcash_address's TEX parse), or null. */
export function decodeTexAddress(str: string, network: NetworkParams): Uint8Array | null {
  const decoded = decodeBech32Strict(rustView(str), 'bech32m', 1023);
  if (decoded === null || decoded.hrp !== SHIELDED[network.name].texHrp || decoded.bytes.length !== 20) return null;
  return decoded.bytes;
}
