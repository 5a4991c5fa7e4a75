/**
 * zcashd v6.12.2's `AmountFromValue` (src/rpc/server.cpp) and the `ParseFixedPoint` it reads
 * the value's text with (src/util/strencodings.cpp): a JSON number's token or a string, as a
 * decimal with at most 8 places and an optional exponent, then MoneyRange. Errors are -3.
 */
import { MAX_MONEY } from '../codec/tx/types.js';
import { JsonNumber, type JsonValue } from '../json/value.js';
import { RPC, RpcError } from './method.js';

/** 10^18 − 1: the magnitude ParseFixedPoint's 64-bit mantissa may reach. */
const UPPER_BOUND = 10n ** 18n - 1n;
const DIGIT = /[0-9]/;

/** `ParseFixedPoint(text, decimals)`: the value in units of 10^-decimals, or null. */
export function parseFixedPoint(text: string, decimals: number): bigint | null {
  let mantissa = 0n;
  let exponent = 0n;
  let trailingZeros = 0;
  let pointOffset = 0;
  let negative = false;
  let i = 0;
  const end = text.length;
  const digitAt = (k: number): boolean => k < end && DIGIT.test(text[k]!);
  // A digit joins the mantissa, its trailing zeros deferred (they may only scale the exponent).
  const takeDigit = (c: string): boolean => {
    if (c === '0') {
      trailingZeros++;
      return true;
    }
    for (let z = 0; z <= trailingZeros; z++) {
      if (mantissa > UPPER_BOUND / 10n) return false;
      mantissa *= 10n;
    }
    mantissa += BigInt(c.charCodeAt(0) - 48);
    trailingZeros = 0;
    return true;
  };

  if (i < end && text[i] === '-') {
    negative = true;
    i++;
  }
  if (i >= end) return null;
  if (text[i] === '0') i++;
  else if (text[i]! >= '1' && text[i]! <= '9') {
    while (digitAt(i)) if (!takeDigit(text[i++]!)) return null;
  } else return null;
  if (i < end && text[i] === '.') {
    i++;
    if (!digitAt(i)) return null;
    while (digitAt(i)) {
      if (!takeDigit(text[i++]!)) return null;
      pointOffset++;
    }
  }
  if (i < end && (text[i] === 'e' || text[i] === 'E')) {
    i++;
    let exponentNegative = false;
    if (i < end && text[i] === '+') i++;
    else if (i < end && text[i] === '-') {
      exponentNegative = true;
      i++;
    }
    if (!digitAt(i)) return null;
    while (digitAt(i)) {
      if (exponent > UPPER_BOUND / 10n) return null;
      exponent = exponent * 10n + BigInt(text.charCodeAt(i++) - 48);
    }
    if (exponentNegative) exponent = -exponent;
  }
  if (i !== end) return null;

  exponent = exponent - BigInt(pointOffset) + BigInt(trailingZeros) + BigInt(decimals);
  if (negative) mantissa = -mantissa;
  if (exponent < 0n || exponent >= 18n) return null;
  for (let k = 0n; k < exponent; k++) {
    if (mantissa > UPPER_BOUND / 10n || mantissa < -(UPPER_BOUND / 10n)) return null;
    mantissa *= 10n;
  }
  if (mantissa > UPPER_BOUND || mantissa < -UPPER_BOUND) return null;
  return mantissa;
}

/** `AmountFromValue(value)`: zatoshis. */
export function amountFromValue(value: JsonValue | undefined): bigint {
  if (!(value instanceof JsonNumber) && typeof value !== 'string') throw new RpcError(RPC.TYPE_ERROR, 'Amount is not a number or string');
  const amount = parseFixedPoint(value instanceof JsonNumber ? value.text : value, 8);
  if (amount === null) throw new RpcError(RPC.TYPE_ERROR, 'Invalid amount');
  if (amount < 0n || amount > BigInt(MAX_MONEY)) throw new RpcError(RPC.TYPE_ERROR, 'Amount out of range');
  return amount;
}
