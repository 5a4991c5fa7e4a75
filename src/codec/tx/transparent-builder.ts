/**
 * The serialization of a transaction with only transparent inputs and outputs and nothing
 * shielded, in each format zcashd v6.12.2 creates (`CTransaction::SerializationOp`,
 * src/primitives/transaction.h): v1 (Sprout), v3 (Overwinter), v4 (Sapling), v5 (NU5, ZIP 225).
 * createrawtransaction writes its unsigned transactions with it: empty scriptSigs, no
 * JoinSplits, no Sapling spends or outputs, no Orchard actions.
 */
import { NU5_VERSION_GROUP_ID, OVERWINTER_VERSION_GROUP_ID, SAPLING_VERSION_GROUP_ID } from './types.js';

export interface TransparentInput {
  /** The previous transaction's id, 32 bytes in internal order. */
  txid: Uint8Array;
  vout: number;
  sequence: number;
}

export interface TransparentOutput {
  /** Zatoshis, 0..MAX_MONEY. */
  value: bigint;
  script: Uint8Array;
}

export interface TransparentTransaction {
  /** 1 (not overwintered), 3, 4 or 5. */
  version: 1 | 3 | 4 | 5;
  /** The consensus branch id (v5 only). */
  branchId: number;
  lockTime: number;
  /** Overwintered formats only. */
  expiryHeight: number;
  inputs: readonly TransparentInput[];
  outputs: readonly TransparentOutput[];
}

class ByteSink {
  private readonly bytes: number[] = [];

  u8(v: number): void {
    this.bytes.push(v & 0xff);
  }

  u32(v: number): void {
    for (let i = 0; i < 4; i++) this.bytes.push((v >>> (8 * i)) & 0xff);
  }

  i64(v: bigint): void {
    const u = BigInt.asUintN(64, v);
    for (let i = 0n; i < 8n; i++) this.bytes.push(Number((u >> (8n * i)) & 0xffn));
  }

  compactSize(n: number): void {
    if (n < 253) this.u8(n);
    else if (n <= 0xffff) {
      this.u8(253);
      this.u8(n);
      this.u8(n >> 8);
    } else if (n <= 0xffffffff) {
      this.u8(254);
      this.u32(n);
    } else {
      this.u8(255);
      this.i64(BigInt(n));
    }
  }

  raw(b: Uint8Array): void {
    for (const x of b) this.bytes.push(x);
  }

  result(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

const VERSION_GROUP: Record<3 | 4 | 5, number> = {
  3: OVERWINTER_VERSION_GROUP_ID,
  4: SAPLING_VERSION_GROUP_ID,
  5: NU5_VERSION_GROUP_ID,
};

function writeInputs(out: ByteSink, inputs: readonly TransparentInput[]): void {
  out.compactSize(inputs.length);
  for (const input of inputs) {
    out.raw(input.txid);
    out.u32(input.vout);
    out.compactSize(0); // unsigned: empty scriptSig
    out.u32(input.sequence);
  }
}

function writeOutputs(out: ByteSink, outputs: readonly TransparentOutput[]): void {
  out.compactSize(outputs.length);
  for (const output of outputs) {
    out.i64(output.value);
    out.compactSize(output.script.length);
    out.raw(output.script);
  }
}

/** The transaction's bytes (what EncodeHexTx hex-encodes). */
export function serializeTransparentTransaction(tx: TransparentTransaction): Uint8Array {
  const out = new ByteSink();
  if (tx.version === 1) {
    out.u32(1);
    writeInputs(out, tx.inputs);
    writeOutputs(out, tx.outputs);
    out.u32(tx.lockTime);
    return out.result();
  }
  out.u32((tx.version | 0x80000000) >>> 0);
  out.u32(VERSION_GROUP[tx.version]);
  if (tx.version === 5) {
    out.u32(tx.branchId);
    out.u32(tx.lockTime);
    out.u32(tx.expiryHeight);
    writeInputs(out, tx.inputs);
    writeOutputs(out, tx.outputs);
    out.compactSize(0); // Sapling spends
    out.compactSize(0); // Sapling outputs
    out.compactSize(0); // Orchard actions
    return out.result();
  }
  writeInputs(out, tx.inputs);
  writeOutputs(out, tx.outputs);
  out.u32(tx.lockTime);
  out.u32(tx.expiryHeight);
  if (tx.version === 4) {
    out.i64(0n); // valueBalanceSapling
    out.compactSize(0); // Sapling spends
    out.compactSize(0); // Sapling outputs
  }
  out.compactSize(0); // JoinSplits
  return out.result();
}
