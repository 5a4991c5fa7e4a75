// Sixteen bytes as 32 lowercase hex digits, a table lookup a nibble: shared by the transaction
// writers (tx-inputs.ts, tx-outputs.ts), which write hex a 16-byte step at a time.

/** The 32 hex digits of the 16 bytes in `v`, in order, at `o`. */
@inline
export function hex16(o: usize, v: v128): void {
  const digits = i8x16(0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66);
  const low4 = i8x16.splat(0x0f);
  const high = i8x16.swizzle(digits, v128.and(i16x8.shr_u(v, 4), low4));
  const low = i8x16.swizzle(digits, v128.and(v, low4));
  v128.store(o, i8x16.shuffle(high, low, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23));
  v128.store(o + 16, i8x16.shuffle(high, low, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31));
}
