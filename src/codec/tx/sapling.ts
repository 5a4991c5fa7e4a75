/**
 * Sapling data: the v4 components (valueBalance, spends, outputs — bindingSig is read by C++
 * after the JoinSplits) and the v5 bundle (ZIP-225). Both are parsed by Rust in zcashd, so
 * errors are wrapped as "Failed to parse v4/v5 Sapling bundle: …".
 */
import type { ByteReader, ByteWriter } from '../bytes.js';
import { isCanonicalJubjubPoint, isJubjubBaseField, isJubjubSmallOrder } from '../../crypto/curves.js';
import { checked32, inRustSection, rustCheck } from './rust-section.js';
import { isValueBalanceInRange } from './money.js';
import { requirePart, type SaplingOutput, type SaplingSpend } from './types.js';

export const GROTH_PROOF_SIZE = 192;
export const ENC_CIPHERTEXT_SIZE = 580;
export const OUT_CIPHERTEXT_SIZE = 80;

const isValueCommitment = (b: Uint8Array) => isCanonicalJubjubPoint(b) && !isJubjubSmallOrder(b);
const readCv = (r: ByteReader) => checked32(r, isValueCommitment, 'invalid cv');
const readAnchor = (r: ByteReader) => checked32(r, isJubjubBaseField, 'base value not a valid field element');
const readRk = (r: ByteReader) => checked32(r, isCanonicalJubjubPoint, 'verification key is invalid');
const readCmu = (r: ByteReader) => checked32(r, isJubjubBaseField, 'cmu not in field');

function readValueBalance(r: ByteReader): number {
  const at = r.pos;
  const v = r.i64();
  rustCheck(isValueBalanceInRange(v), 'invalid-field', at, 'valueBalance out of range');
  return v as number;
}

const EMPTY = new Uint8Array(0);

/**
 * An output description up to its out-ciphertext, with an empty proof: v4 reads the proof right
 * after these fields, v5 after all the outputs.
 */
function readOutputFields(r: ByteReader): SaplingOutput {
  const cv = readCv(r);
  const cmu = readCmu(r);
  const ephemeralKey = r.bytes(32);
  const encCiphertext = r.bytes(ENC_CIPHERTEXT_SIZE);
  const outCiphertext = r.bytes(OUT_CIPHERTEXT_SIZE);
  return { cv, cmu, ephemeralKey, encCiphertext, outCiphertext, zkproof: EMPTY };
}

export interface SaplingV4Components {
  valueBalance: number;
  spends: SaplingSpend[];
  outputs: SaplingOutput[];
}

/** The v4 components; null when there are no spends or outputs (the value balance is then 0). */
export function readSaplingV4Components(r: ByteReader): SaplingV4Components | null {
  // Most v4 transactions carry none: a zero value balance and two zero counts, read at once.
  if (r.end - r.pos >= 10 && isZero(r.buf, r.pos, 10)) {
    r.pos += 10;
    return null;
  }
  return inRustSection('Failed to parse v4 Sapling bundle', 'invalid-sapling-v4', r, parseSaplingV4Components);
}

function isZero(b: Uint8Array, at: number, n: number): boolean {
  for (let i = at; i < at + n; i++) if (b[i] !== 0) return false;
  return true;
}

function parseSaplingV4Components(r: ByteReader): SaplingV4Components | null {
  const valueBalance = readValueBalance(r);
  const nSpends = r.compactSize('rust');
  const spends: SaplingSpend[] = [];
  for (let i = 0; i < nSpends; i++) {
    const cv = readCv(r);
    const anchor = readAnchor(r);
    const nullifier = r.bytes(32);
    const rk = readRk(r);
    const zkproof = r.bytes(GROTH_PROOF_SIZE);
    const spendAuthSig = r.bytes(64);
    spends.push({ cv, anchor, nullifier, rk, zkproof, spendAuthSig });
  }
  const nOutputs = r.compactSize('rust');
  const outputs: SaplingOutput[] = [];
  for (let i = 0; i < nOutputs; i++) {
    const o = readOutputFields(r);
    o.zkproof = r.bytes(GROTH_PROOF_SIZE);
    outputs.push(o);
  }
  rustCheck(
    valueBalance === 0 || nSpends + nOutputs > 0,
    'invalid-sapling-v4',
    r.pos,
    'nonzero valueBalanceSapling has no sources or sinks',
  );
  return nSpends + nOutputs > 0 ? { valueBalance, spends, outputs } : null;
}

export function writeSaplingV4Components(w: ByteWriter, c: SaplingV4Components): void {
  w.i64(c.valueBalance);
  w.compactSize(c.spends.length);
  for (const s of c.spends) {
    w.bytes(s.cv).bytes(s.anchor).bytes(s.nullifier).bytes(s.rk).bytes(s.zkproof).bytes(s.spendAuthSig);
  }
  w.compactSize(c.outputs.length);
  for (const o of c.outputs) {
    w.bytes(o.cv).bytes(o.cmu).bytes(o.ephemeralKey).bytes(o.encCiphertext).bytes(o.outCiphertext).bytes(o.zkproof);
  }
}

export interface SaplingV5Bundle {
  spends: SaplingSpend[];
  outputs: SaplingOutput[];
  valueBalance: number;
  sharedAnchor: Uint8Array | null;
  bindingSig: Uint8Array | null;
}

/** ZIP-225 Sapling part of a v5 transaction (fields 8–17); null when it has no spends or outputs. */
export function readSaplingV5Bundle(r: ByteReader): SaplingV5Bundle | null {
  // Most carry none: two zero counts and nothing after them.
  if (r.end - r.pos >= 2 && isZero(r.buf, r.pos, 2)) {
    r.pos += 2;
    return null;
  }
  return inRustSection('Failed to parse v5 Sapling bundle', 'invalid-sapling-v5', r, parseSaplingV5Bundle);
}

function parseSaplingV5Bundle(r: ByteReader): SaplingV5Bundle | null {
  const nSpends = r.compactSize('rust');
  const spends: SaplingSpend[] = [];
  for (let i = 0; i < nSpends; i++) {
    const cv = readCv(r);
    const nullifier = r.bytes(32);
    const rk = readRk(r);
    spends.push({ cv, anchor: EMPTY, nullifier, rk, zkproof: EMPTY, spendAuthSig: EMPTY });
  }
  const nOutputs = r.compactSize('rust');
  const outputs: SaplingOutput[] = [];
  for (let i = 0; i < nOutputs; i++) outputs.push(readOutputFields(r));
  const any = nSpends + nOutputs > 0;
  if (!any) return null;
  const valueBalance = readValueBalance(r);
  const sharedAnchor = nSpends > 0 ? readAnchor(r) : null;
  for (const s of spends) s.zkproof = r.bytes(GROTH_PROOF_SIZE);
  for (const s of spends) s.spendAuthSig = r.bytes(64);
  for (const o of outputs) o.zkproof = r.bytes(GROTH_PROOF_SIZE);
  const bindingSig = r.bytes(64);
  if (sharedAnchor) for (const s of spends) s.anchor = sharedAnchor;
  return { spends, outputs, valueBalance, sharedAnchor, bindingSig };
}

export function writeSaplingV5Bundle(w: ByteWriter, b: SaplingV5Bundle | null): void {
  if (!b) {
    w.compactSize(0).compactSize(0);
    return;
  }
  w.compactSize(b.spends.length);
  for (const s of b.spends) w.bytes(s.cv).bytes(s.nullifier).bytes(s.rk);
  w.compactSize(b.outputs.length);
  for (const o of b.outputs) w.bytes(o.cv).bytes(o.cmu).bytes(o.ephemeralKey).bytes(o.encCiphertext).bytes(o.outCiphertext);
  const any = b.spends.length + b.outputs.length > 0;
  if (any) w.i64(b.valueBalance);
  if (b.spends.length > 0) w.bytes(requirePart(b.sharedAnchor, 'a v5 Sapling bundle with spends', 'sharedAnchor'));
  for (const s of b.spends) w.bytes(s.zkproof);
  for (const s of b.spends) w.bytes(s.spendAuthSig);
  for (const o of b.outputs) w.bytes(o.zkproof);
  if (any) w.bytes(requirePart(b.bindingSig, 'a Sapling bundle with spends or outputs', 'bindingSig'));
}
