/**
 * What zcashd's TxToJSON prints from the spent index when it keeps one (-insightexplorer), as
 * fixed-size records in one buffer: a record per input (what it spent: value, script type,
 * address hash) and per output (what spent it: txid, input index, height), transaction by
 * transaction, each transaction's inputs then its outputs. One buffer, not an object per
 * record, because getblock verbosity 2 sends a block's records to a render thread, and cloning
 * an object per record there stalls the event loop on large blocks.
 */

/** Tag ‖ value (int64 LE) ‖ script type (CScript::ScriptType) ‖ hash160. */
export const SPENT_INPUT_RECORD_BYTES = 1 + 8 + 1 + 20;
/** Tag ‖ spending txid (internal order) ‖ input index (u32 LE) ‖ height (u32 LE). */
export const SPENDER_RECORD_BYTES = 1 + 32 + 4 + 4;

/** What an input spent (CSpentIndexValue's satoshis, addressType, addressHash). */
export interface SpentOutputRecord {
  value: number;
  type: number;
  hash: Uint8Array;
}

/** Which input spent an output (CSpentIndexValue's txid, inputIndex, blockHeight). */
export interface SpenderRecord {
  txid: Uint8Array;
  inputIndex: number;
  height: number;
}

/** A transaction's records: one per input (null for none, and for a coinbase's) and per output. */
export interface TxSpentRecords {
  inputs: readonly (SpentOutputRecord | null)[];
  outputs: readonly (SpenderRecord | null)[];
}

/** Bytes a transaction's records take. */
export function spentRecordsBytes(inputs: number, outputs: number): number {
  return inputs * SPENT_INPUT_RECORD_BYTES + outputs * SPENDER_RECORD_BYTES;
}

/** The records of `txs`, in order, in one buffer. */
export function packSpentRecords(txs: readonly TxSpentRecords[]): Uint8Array {
  let size = 0;
  for (const tx of txs) size += spentRecordsBytes(tx.inputs.length, tx.outputs.length);
  const out = Buffer.alloc(size);
  let at = 0;
  for (const tx of txs) {
    for (const r of tx.inputs) {
      if (r) {
        out[at] = 1;
        // Within MoneyRange, so non-negative and below 2^53: two exact 32-bit halves.
        out.writeUInt32LE(r.value % 2 ** 32, at + 1);
        out.writeUInt32LE(Math.floor(r.value / 2 ** 32), at + 5);
        out[at + 9] = r.type;
        out.set(r.hash.subarray(0, 20), at + 10);
      }
      at += SPENT_INPUT_RECORD_BYTES;
    }
    for (const r of tx.outputs) {
      if (r) {
        out[at] = 1;
        out.set(r.txid.subarray(0, 32), at + 1);
        out.writeUInt32LE(r.inputIndex >>> 0, at + 33);
        out.writeUInt32LE(r.height >>> 0, at + 37);
      }
      at += SPENDER_RECORD_BYTES;
    }
  }
  return out;
}

/** One transaction's records: `at` is where its first input's record starts in `bytes`. */
export interface TxSpentFields {
  bytes: Uint8Array;
  at: number;
}

/** Where input `i`'s record starts, or -1 when it has none. */
export function spentInputAt(f: TxSpentFields, i: number): number {
  const at = f.at + i * SPENT_INPUT_RECORD_BYTES;
  return f.bytes[at] === 1 ? at : -1;
}

/** Where output `n`'s record starts (after the transaction's `inputs` input records), or -1. */
export function spenderAt(f: TxSpentFields, inputs: number, n: number): number {
  const at = f.at + inputs * SPENT_INPUT_RECORD_BYTES + n * SPENDER_RECORD_BYTES;
  return f.bytes[at] === 1 ? at : -1;
}

/** An input record's value: zatoshis within MoneyRange, so below 2^51 and exact as a number. */
export function spentValue(bytes: Uint8Array, at: number): number {
  const b = bytes;
  const low = (b[at + 1]! | (b[at + 2]! << 8) | (b[at + 3]! << 16)) + b[at + 4]! * 2 ** 24;
  return low + (b[at + 5]! | (b[at + 6]! << 8) | (b[at + 7]! << 16)) * 2 ** 32;
}
