/** Transparent inputs and outputs (CTxIn / CTxOut), read by zcashd's C++ code. */
import type { ByteReader, ByteWriter } from '../bytes.js';
import type { TxIn, TxOut } from './types.js';

export function readVin(r: ByteReader): TxIn[] {
  const n = r.compactSize();
  const vin: TxIn[] = [];
  for (let i = 0; i < n; i++) {
    const hash = r.bytes(32);
    const index = r.u32();
    const scriptSig = r.varBytes();
    const sequence = r.u32();
    vin.push({ prevout: { hash, index }, scriptSig, sequence });
  }
  return vin;
}

export function readVout(r: ByteReader): TxOut[] {
  const n = r.compactSize();
  const vout: TxOut[] = [];
  for (let i = 0; i < n; i++) {
    const raw = r.i64();
    // Out-of-range values are rejected later (zcashd's Rust re-parse, "Group B"); keep a
    // sentinel that fails that check without losing the decode position.
    const value = typeof raw === 'bigint' ? Number.NaN : raw;
    const scriptPubKey = r.varBytes();
    vout.push({ value, scriptPubKey });
  }
  return vout;
}

export function writeVin(w: ByteWriter, vin: readonly TxIn[]): void {
  w.compactSize(vin.length);
  for (const i of vin) {
    w.bytes(i.prevout.hash).u32(i.prevout.index).varBytes(i.scriptSig).u32(i.sequence);
  }
}

export function writeVout(w: ByteWriter, vout: readonly TxOut[]): void {
  w.compactSize(vout.length);
  for (const o of vout) w.i64(o.value).varBytes(o.scriptPubKey);
}

const NULL_HASH_BYTES = 32;

/** zcashd's IsCoinBase: exactly one input whose prevout is null (zero hash, index 0xffffffff). */
export function isCoinbase(vin: readonly TxIn[]): boolean {
  if (vin.length !== 1) return false;
  const p = vin[0]!.prevout;
  if (p.index !== 0xffffffff) return false;
  for (let i = 0; i < NULL_HASH_BYTES; i++) if (p.hash[i] !== 0) return false;
  return true;
}
