/**
 * Orchard-protocol bundles: the Orchard bundle of a v5 transaction (ZIP-225 fields 18–26), parsed
 * by Rust in zcashd, and a v6 transaction's Orchard and Ironwood components (ZIP 229), which keep
 * that encoding and add the `enableCrossAddress` flag (bit 2).
 */
import type { ByteReader, ByteWriter } from '../bytes.js';
import { isPallasBaseField, isValidPallasPoint } from '../../crypto/curves.js';
import { checked32, inRustSection, rustCheck } from './rust-section.js';
import { isValueBalanceInRange } from './money.js';
import { ENC_CIPHERTEXT_SIZE, OUT_CIPHERTEXT_SIZE } from './sapling.js';
import type { OrchardAction, OrchardBundle } from './types.js';

const EMPTY = new Uint8Array(0);

export function readOrchardBundle(r: ByteReader): OrchardBundle | null {
  return readActionBundle(r, 'Failed to parse Orchard bundle', 'invalid-orchard', parseV5Bundle);
}

/** An Orchard-encoded bundle, its parse errors named by `context` and `reason`. */
function readActionBundle(
  r: ByteReader,
  context: string,
  reason: 'invalid-orchard' | 'invalid-ironwood',
  parse: (r: ByteReader) => OrchardBundle | null,
): OrchardBundle | null {
  // Most carry none: a zero action count and nothing after it (no Rust section to enter).
  if (r.pos < r.end && r.buf[r.pos] === 0) {
    r.pos += 1;
    return null;
  }
  return inRustSection(context, reason, r, parse);
}

/** Flag bits other than enableSpends and enableOutputs, reserved 0 in v5. */
const V5_RESERVED_FLAGS = 0xfc;
/** v6 adds enableCrossAddress (bit 2); bits 3–7 must be 0 in both of its components. */
const V6_RESERVED_FLAGS = 0xf8;

/** A v6 transaction's Orchard component: v5's encoding, with the enableCrossAddress flag. */
export function readV6OrchardBundle(r: ByteReader): OrchardBundle | null {
  return readActionBundle(r, 'Failed to parse Orchard bundle', 'invalid-orchard', parseV6Bundle);
}

/**
 * A v6 transaction's Ironwood component, encoded as its Orchard component. No zcashd release
 * reads it: its errors follow the Orchard bundle's, naming the Ironwood bundle.
 */
export function readIronwoodBundle(r: ByteReader): OrchardBundle | null {
  return readActionBundle(r, 'Failed to parse Ironwood bundle', 'invalid-ironwood', parseV6Bundle);
}

function parseV5Bundle(r: ByteReader): OrchardBundle | null {
  return parseBundle(r, V5_RESERVED_FLAGS);
}

function parseV6Bundle(r: ByteReader): OrchardBundle | null {
  return parseBundle(r, V6_RESERVED_FLAGS);
}

function parseBundle(r: ByteReader, reservedFlags: number): OrchardBundle | null {
  const n = r.compactSize('rust');
  if (n === 0) return null;
  const actions: OrchardAction[] = [];
  for (let i = 0; i < n; i++) {
    const cv = checked32(r, isValidPallasPoint, 'invalid Pallas point for value commitment');
    const nullifier = checked32(r, isPallasBaseField, 'invalid Pallas point for nullifier');
    const rk = checked32(r, isValidPallasPoint, 'invalid verification key');
    const cmx = checked32(r, isPallasBaseField, 'invalid Pallas base for field cmx');
    const ephemeralKey = r.bytes(32);
    const encCiphertext = r.bytes(ENC_CIPHERTEXT_SIZE);
    const outCiphertext = r.bytes(OUT_CIPHERTEXT_SIZE);
    actions.push({ cv, nullifier, rk, cmx, ephemeralKey, encCiphertext, outCiphertext, spendAuthSig: EMPTY });
  }
  const flagsAt = r.pos;
  const flags = r.u8();
  rustCheck((flags & reservedFlags) === 0, 'invalid-orchard', flagsAt, 'invalid Orchard flags');
  const vbAt = r.pos;
  const vb = r.i64();
  rustCheck(isValueBalanceInRange(vb), 'invalid-orchard', vbAt, 'valueBalance out of range');
  const anchor = checked32(r, isPallasBaseField, 'invalid Orchard anchor');
  const proof = r.varBytes('rust');
  for (const a of actions) a.spendAuthSig = r.bytes(64);
  const bindingSig = r.bytes(64);
  return { actions, flags, valueBalance: vb as number, anchor, proof, bindingSig };
}

/** Writes an Orchard-protocol bundle: v5's or v6's Orchard component, or v6's Ironwood one. */
export function writeOrchardBundle(w: ByteWriter, b: OrchardBundle | null): void {
  if (!b) {
    w.compactSize(0);
    return;
  }
  w.compactSize(b.actions.length);
  for (const a of b.actions) {
    w.bytes(a.cv).bytes(a.nullifier).bytes(a.rk).bytes(a.cmx).bytes(a.ephemeralKey).bytes(a.encCiphertext).bytes(a.outCiphertext);
  }
  w.u8(b.flags).i64(b.valueBalance).bytes(b.anchor).varBytes(b.proof);
  for (const a of b.actions) w.bytes(a.spendAuthSig);
  w.bytes(b.bindingSig);
}
