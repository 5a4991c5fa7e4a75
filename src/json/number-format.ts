/**
 * zcashd's two non-integer number renderings (rpc-http-json.md §4.4, §4.8):
 *
 * - `formatAmount`: `ValueFromAmount`, a zatoshi amount as `[-]<int>.<8 digits>`. It is
 *   emitted as a JSON *number token*, never as a double (so `0.00000000`, not `0`).
 * - `formatDouble`: UniValue's `setFloat`, i.e. an ostream with `setprecision(16)`, which
 *   behaves exactly like C `printf("%.16g")`: 16 significant digits, rounded half-to-even
 *   on the exact binary value, trailing zeros dropped, exponent form iff X < -4 or X >= 16.
 */

const ZAT_PER_ZEC = 100_000_000;
const ZAT_PER_ZEC_BIG = 100_000_000n;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** Integer as plain decimal (C++ `ostream << int64/uint64`). */
export function formatInteger(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  // Above 2^53 a number is no longer an exact integer, and String() would switch to
  // exponent form at 1e21; such values must be passed as bigint.
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a safe integer: ${n}`);
  return n === 0 ? '0' : String(n); // String(-0) is already "0"; keep it explicit
}

/** `ValueFromAmount`: 0 → `0.00000000`, -5 → `-0.00000005`, 1250000000 → `12.50000000`. */
export function formatAmount(zat: number | bigint): string {
  if (typeof zat === 'number') {
    // Beyond 2^53 a number no longer holds an exact zatoshi count; callers must pass a bigint.
    if (!Number.isSafeInteger(zat)) throw new RangeError(`amount is not a safe integer zatoshi count: ${zat}`);
    const negative = zat < 0;
    const abs = negative ? -zat : zat;
    const whole = Math.floor(abs / ZAT_PER_ZEC);
    const frac = abs - whole * ZAT_PER_ZEC;
    return (negative ? '-' : '') + whole + '.' + padFraction(frac);
  }
  if (zat < INT64_MIN || zat > INT64_MAX) throw new RangeError(`amount is outside the int64 range: ${zat}`);
  const negative = zat < 0n;
  const abs = negative ? -zat : zat;
  return (negative ? '-' : '') + abs / ZAT_PER_ZEC_BIG + '.' + padFraction(Number(abs % ZAT_PER_ZEC_BIG));
}

function padFraction(frac: number): string {
  const s = String(frac);
  return s.length === 8 ? s : '00000000'.slice(s.length) + s;
}

/**
 * `printf("%.16g")` of a double; NaN and ±Infinity give the empty string, because UniValue's
 * `setNumStr` rejects "nan"/"inf" and leaves an empty number text behind (§4.4).
 */
export function formatDouble(d: number): string {
  if (!Number.isFinite(d)) return '';
  if (d === 0) return Object.is(d, -0) ? '-0' : '0';
  const negative = d < 0;
  const abs = negative ? -d : d;

  let digits: string;
  let exponent: number;
  // JavaScript's toExponential is correctly rounded except that it breaks exact ties upward,
  // where C rounds half to even. A 16-digit tie needs the 17-digit rounding to end in 5, so
  // when the 17th digit is anything else the native 16-digit result is exactly C's.
  const seventeen = abs.toExponential(16);
  if (seventeen.charCodeAt(17) !== 0x35 /* '5' */) {
    const sixteen = abs.toExponential(15); // "d.ddddddddddddddde±X"
    digits = sixteen[0] + sixteen.slice(2, 17);
    exponent = Number(sixteen.slice(18));
  } else {
    ({ digits, exponent } = exactSixteenDigits(abs));
  }
  const text = layoutSignificant(digits, exponent);
  return negative ? '-' + text : text;
}

/**
 * Lays out 16 significant digits d1..d16 (value d1.d2…d16 × 10^exponent) the way `%g` does:
 * trailing zeros removed, scientific form when exponent < -4 or >= 16 (precision), with the
 * exponent signed and at least two digits.
 */
function layoutSignificant(digits: string, exponent: number): string {
  let end = digits.length;
  while (end > 1 && digits.charCodeAt(end - 1) === 0x30 /* '0' */) end--;
  const sig = end === digits.length ? digits : digits.slice(0, end);

  if (exponent < -4 || exponent >= 16) {
    const mantissa = sig.length === 1 ? sig : sig[0] + '.' + sig.slice(1);
    const absExp = exponent < 0 ? -exponent : exponent;
    return mantissa + (exponent < 0 ? 'e-' : 'e+') + (absExp < 10 ? '0' : '') + absExp;
  }
  if (exponent < 0) return '0.' + '0'.repeat(-exponent - 1) + sig;
  const intLen = exponent + 1;
  if (sig.length <= intLen) return sig + '0'.repeat(intLen - sig.length);
  return sig.slice(0, intLen) + '.' + sig.slice(intLen);
}

const POW10: bigint[] = [1n];
function pow10(k: number): bigint {
  for (let i = POW10.length; i <= k; i++) POW10.push(POW10[i - 1]! * 10n);
  return POW10[k]!;
}

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

/**
 * The exact algorithm (§4.4 steps 2–4): the double as a rational num/den, its decimal
 * exponent found exactly, then scaled to a 16-digit integer rounded half to even.
 * `abs` is finite and > 0.
 */
export function exactSixteenDigits(abs: number): { digits: string; exponent: number } {
  F64[0] = abs;
  const bits = U64[0]!;
  const biasedExp = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  // value = mantissa × 2^binExp
  const mantissa = biasedExp === 0 ? fraction : fraction | (1n << 52n);
  const binExp = (biasedExp === 0 ? 1 : biasedExp) - 1075;
  const num = binExp >= 0 ? mantissa << BigInt(binExp) : mantissa;
  const den = binExp >= 0 ? 1n : 1n << BigInt(-binExp);

  // 10^X <= num/den < 10^(X+1); log10 is only an estimate near powers of ten.
  let exponent = Math.floor(Math.log10(abs));
  while (!atLeastPow10(num, den, exponent)) exponent--;
  while (atLeastPow10(num, den, exponent + 1)) exponent++;

  const scale = 15 - exponent;
  const n = scale >= 0 ? num * pow10(scale) : num;
  const d = scale >= 0 ? den : den * pow10(-scale);
  let q = n / d;
  const twiceRem = (n % d) * 2n;
  if (twiceRem > d || (twiceRem === d && (q & 1n) === 1n)) q++;
  if (q === pow10(16)) {
    q = pow10(15);
    exponent++;
  }
  return { digits: q.toString(), exponent };
}

/** num/den >= 10^k, exactly. */
function atLeastPow10(num: bigint, den: bigint, k: number): boolean {
  return k >= 0 ? num >= den * pow10(k) : num * pow10(-k) >= den;
}
