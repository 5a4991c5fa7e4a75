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

export interface SaplingV4Components {
  valueBalance: number;
  spends: SaplingSpend[];
  outputs: SaplingOutput[];
}

export function readSaplingV4Components(r: ByteReader): SaplingV4Components {
  return inRustSection('Failed to parse v4 Sapling bundle', 'invalid-sapling-v4', r, () => {
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
      const cv = readCv(r);
      const cmu = readCmu(r);
      const ephemeralKey = r.bytes(32);
      const encCiphertext = r.bytes(ENC_CIPHERTEXT_SIZE);
      const outCiphertext = r.bytes(OUT_CIPHERTEXT_SIZE);
      const zkproof = r.bytes(GROTH_PROOF_SIZE);
      outputs.push({ cv, cmu, ephemeralKey, encCiphertext, outCiphertext, zkproof });
    }
    rustCheck(
      valueBalance === 0 || nSpends + nOutputs > 0,
      'invalid-sapling-v4',
      r.pos,
      'nonzero valueBalanceSapling has no sources or sinks',
    );
    return { valueBalance, spends, outputs };
  });
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

const EMPTY = new Uint8Array(0);

/** ZIP-225 Sapling part of a v5 transaction (fields 8–17). */
export function readSaplingV5Bundle(r: ByteReader): SaplingV5Bundle {
  return inRustSection('Failed to parse v5 Sapling bundle', 'invalid-sapling-v5', r, () => {
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
    for (let i = 0; i < nOutputs; i++) {
      const cv = readCv(r);
      const cmu = readCmu(r);
      const ephemeralKey = r.bytes(32);
      const encCiphertext = r.bytes(ENC_CIPHERTEXT_SIZE);
      const outCiphertext = r.bytes(OUT_CIPHERTEXT_SIZE);
      outputs.push({ cv, cmu, ephemeralKey, encCiphertext, outCiphertext, zkproof: EMPTY });
    }
    const any = nSpends + nOutputs > 0;
    const valueBalance = any ? readValueBalance(r) : 0;
    const sharedAnchor = nSpends > 0 ? readAnchor(r) : null;
    for (const s of spends) s.zkproof = r.bytes(GROTH_PROOF_SIZE);
    for (const s of spends) s.spendAuthSig = r.bytes(64);
    for (const o of outputs) o.zkproof = r.bytes(GROTH_PROOF_SIZE);
    const bindingSig = any ? r.bytes(64) : null;
    if (sharedAnchor) for (const s of spends) s.anchor = sharedAnchor;
    return { spends, outputs, valueBalance, sharedAnchor, bindingSig };
  });
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
