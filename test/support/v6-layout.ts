/**
 * Where each field of a v5 or v6 transaction lies in its bytes, read from the layout tables of
 * ZIP 225 (v5) and ZIP 229 (v6: v5's fields, then an Ironwood component in the Orchard encoding).
 * Written for the tests from the ZIP text, sharing nothing with src/codec: it checks the
 * renderer's Orchard and Ironwood members against the bytes they come from.
 *
 * Paths name TxToJSON members (`orchard.actions[1].cmx`, `ironwood.anchor`); each maps to the
 * half-open byte range `[start, end)` of the raw transaction.
 */

export type FieldRanges = Map<string, readonly [number, number]>;

export interface ShieldedLayout {
  version: number;
  versionGroupId: number;
  /** Byte ranges of every Orchard and Ironwood hex member. */
  ranges: FieldRanges;
  /** The raw flags byte and value balance of each Orchard-protocol component present. */
  bundles: Partial<Record<'orchard' | 'ironwood', { actions: number; flags: number; valueBalance: bigint }>>;
}

const ACTION_FIELDS: readonly (readonly [string, number])[] = [
  ['cv', 32],
  ['nullifier', 32],
  ['rk', 32],
  ['cmx', 32],
  ['ephemeralKey', 32],
  ['encCiphertext', 580],
  ['outCiphertext', 80],
];

class Reader {
  at = 0;
  constructor(readonly b: Uint8Array) {}
  skip(n: number): number {
    const start = this.at;
    if (start + n > this.b.length) throw new Error(`layout: ${n} bytes wanted at ${start}, ${this.b.length} in all`);
    this.at += n;
    return start;
  }
  u8(): number {
    return this.b[this.skip(1)]!;
  }
  u32(): number {
    const s = this.skip(4);
    return (this.b[s]! | (this.b[s + 1]! << 8) | (this.b[s + 2]! << 16) | (this.b[s + 3]! << 24)) >>> 0;
  }
  i64(): bigint {
    const s = this.skip(8);
    return Buffer.from(this.b.subarray(s, s + 8)).readBigInt64LE(0);
  }
  compact(): number {
    const first = this.u8();
    if (first < 0xfd) return first;
    if (first === 0xfd) {
      const s = this.skip(2);
      return this.b[s]! | (this.b[s + 1]! << 8);
    }
    if (first === 0xfe) return this.u32();
    throw new Error('layout: an 8-byte CompactSize');
  }
}

function orchardProtocolComponent(r: Reader, name: 'orchard' | 'ironwood', out: ShieldedLayout): void {
  const n = r.compact();
  for (let i = 0; i < n; i++) {
    for (const [field, size] of ACTION_FIELDS) {
      const s = r.skip(size);
      out.ranges.set(`${name}.actions[${i}].${field}`, [s, s + size]);
    }
  }
  // flags, valueBalance, anchor, proofs, signatures and the binding signature exist only with actions.
  if (n === 0) return;
  const flags = r.u8();
  const valueBalance = r.i64();
  const anchor = r.skip(32);
  out.ranges.set(`${name}.anchor`, [anchor, anchor + 32]);
  const proofSize = r.compact();
  const proof = r.skip(proofSize);
  out.ranges.set(`${name}.proof`, [proof, proof + proofSize]);
  for (let i = 0; i < n; i++) {
    const s = r.skip(64);
    out.ranges.set(`${name}.actions[${i}].spendAuthSig`, [s, s + 64]);
  }
  const binding = r.skip(64);
  out.ranges.set(`${name}.bindingSig`, [binding, binding + 64]);
  out.bundles[name] = { actions: n, flags, valueBalance };
}

/** The layout of a v5 or v6 transaction that is exactly `bytes`. */
export function shieldedLayout(bytes: Uint8Array): ShieldedLayout {
  const r = new Reader(bytes);
  const header = r.u32();
  const version = header & 0x7fffffff;
  if (version !== 5 && version !== 6) throw new Error(`layout: version ${version} is not v5 or v6`);
  const out: ShieldedLayout = { version, versionGroupId: r.u32(), ranges: new Map(), bundles: {} };
  r.skip(12); // consensus branch id, lock time, expiry height
  const inputs = r.compact();
  for (let i = 0; i < inputs; i++) {
    r.skip(36);
    r.skip(r.compact());
    r.skip(4);
  }
  const outputs = r.compact();
  for (let i = 0; i < outputs; i++) {
    r.skip(8);
    r.skip(r.compact());
  }
  const spends = r.compact();
  r.skip(96 * spends);
  const saplingOutputs = r.compact();
  r.skip(756 * saplingOutputs);
  if (spends + saplingOutputs > 0) r.skip(8);
  if (spends > 0) r.skip(32);
  r.skip((192 + 64) * spends + 192 * saplingOutputs);
  if (spends + saplingOutputs > 0) r.skip(64);
  orchardProtocolComponent(r, 'orchard', out);
  if (version === 6) orchardProtocolComponent(r, 'ironwood', out);
  if (r.at !== bytes.length) throw new Error(`layout: ${bytes.length - r.at} bytes left over`);
  return out;
}
