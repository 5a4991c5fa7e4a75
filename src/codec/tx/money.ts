/** Amount range rules shared by the transaction formats. */
import { MAX_MONEY } from './types.js';

/** i64 value (number, or bigint when beyond ±2^53) within ±MAX_MONEY. */
export function isValueBalanceInRange(v: number | bigint): v is number {
  return typeof v === 'number' && v >= -MAX_MONEY && v <= MAX_MONEY;
}

/** 0 ≤ v ≤ MAX_MONEY (transparent outputs; JoinSplit vpub values read as u64). */
export function isMoneyRange(v: number): boolean {
  return v >= 0 && v <= MAX_MONEY;
}
