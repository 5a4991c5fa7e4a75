/**
 * The one error type every decoder in zecrpc throws.
 *
 * `what` is exactly the text zcashd v6.12.2 (release build, libc++) would put after
 * `TX decode failed: ` — including libc++'s `: unspecified iostream_category error` suffix
 * where zcashd has it. `reason` is a stable machine-readable code and `offset` the byte
 * offset (from the start of the decoded buffer) where decoding stopped.
 */
export type DecodeReason =
  | 'invalid-hex'
  | 'end-of-data'
  | 'non-canonical-compactsize'
  | 'compactsize-too-large'
  | 'unknown-tx-format'
  | 'invalid-tx-format'
  | 'bad-g1-lead-byte'
  | 'bad-g2-lead-byte'
  | 'invalid-sapling-v4'
  | 'invalid-sapling-v5'
  | 'invalid-orchard'
  /** A v6 transaction's Ironwood component (ZIP 229). */
  | 'invalid-ironwood'
  | 'invalid-block'
  /** A Rust-side field check; always reported under its section's reason (never surfaces). */
  | 'invalid-field';

/** libc++'s `std::ios_base::failure::what()` suffix (zcashd release builds link libc++). */
export const IOS_SUFFIX = ': unspecified iostream_category error';

/** Bytes that are not a valid transaction or block: why (`reason`), where (`offset`) and zcashd's message for it (`rpcMessage`). */
export class DecodeError extends Error {
  readonly reason: DecodeReason;
  readonly offset: number;
  /** zcashd's exception text (`e.what()`), without the `TX decode failed: ` prefix. */
  readonly what: string;

  constructor(reason: DecodeReason, offset: number, what: string) {
    super(`${what} (at byte ${offset})`);
    this.name = 'DecodeError';
    this.reason = reason;
    this.offset = offset;
    this.what = what;
  }

  /** The full `message` of zcashd's -22 RPC error for this failure. */
  get rpcMessage(): string {
    return `TX decode failed: ${this.what}`;
  }
}

export const END_OF_DATA = `CBaseDataStream::read(): end of data${IOS_SUFFIX}`;

/** A failure inside a Rust sub-parser, before zcashd wraps it (no suffix yet). */
export class InnerRustError extends Error {
  constructor(
    readonly reason: DecodeReason,
    readonly offset: number,
    readonly inner: string,
  ) {
    super(inner);
  }
}
