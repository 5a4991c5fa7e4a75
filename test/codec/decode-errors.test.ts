// Every decode failure of transaction-format.md §1.3/§1.8a/§1.9 and rpc-http-json.md §5.4, with
// zcashd's exact text and the offset where decoding stopped. Invalid shielded data is made by
// mutating real mainnet transactions; field positions come from the independent layout walker.
import { describe, expect, it } from 'vitest';
import { decodeBlockHex } from '../../src/codec/block.js';
import { DecodeError, type DecodeReason } from '../../src/codec/errors.js';
import { hexToBytes, toHex } from '../../src/codec/hex.js';
import { decodeTransaction, decodeTransactionHex, type Transaction } from '../../src/codec/tx/transaction.js';
import { type Field, field, realTxBytes, txLayout } from '../fuzz/corpus.js';
import { P_PALLAS, Q_JUBJUB, jubjubSmallOrderEncodings, le32, offCurveJubjubV, offCurvePallasX } from '../fuzz/points.js';

const S = ': unspecified iostream_category error';
const EOD = `CBaseDataStream::read(): end of data${S}`;
const UPDATE_HASH = `CTransaction::UpdateHash: Invalid transaction format${S}`;
const UNKNOWN_FORMAT = `Unknown transaction format${S}`;
const V4 = (inner: string) => `Failed to parse v4 Sapling bundle: ${inner}${S}`;
const V5 = (inner: string) => `Failed to parse v5 Sapling bundle: ${inner}${S}`;
const ORCHARD = (inner: string) => `Failed to parse Orchard bundle: ${inner}${S}`;
const MAX_MONEY = 21_000_000n * 100_000_000n;

function decodeError(input: string | Uint8Array): DecodeError {
  try {
    if (typeof input === 'string') decodeTransactionHex(input);
    else decodeTransaction(input);
  } catch (e) {
    if (e instanceof DecodeError) return e;
    throw new Error(`not a DecodeError: ${String(e)}`);
  }
  throw new Error('decoding succeeded but a failure was expected');
}

function expectError(input: string | Uint8Array, what: string, offset: number, reason?: DecodeReason): void {
  const e = decodeError(input);
  expect(e.what).toBe(what);
  expect(e.rpcMessage).toBe(`TX decode failed: ${what}`);
  expect(e.offset).toBe(offset);
  if (reason) expect(e.reason).toBe(reason);
}

function i64le(v: bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigInt64(0, v, true);
  return b;
}

function u32le(v: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v >>> 0, true);
  return b;
}

/** A copy of `bytes` with `value` written at the start of field `f` (same length). */
function put(bytes: Uint8Array, f: Field, value: Uint8Array, at = 0): Uint8Array {
  expect(at + value.length).toBeLessThanOrEqual(f.end - f.start);
  const out = bytes.slice();
  out.set(value, f.start + at);
  return out;
}

/** A copy with field `f` replaced by `value` (any length). */
function splice(bytes: Uint8Array, f: Field, value: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length - (f.end - f.start) + value.length);
  out.set(bytes.subarray(0, f.start));
  out.set(value, f.start);
  out.set(bytes.subarray(f.end), f.start + value.length);
  return out;
}

function decodes(bytes: Uint8Array): Transaction {
  const tx = decodeTransaction(bytes);
  expect(tx.size).toBe(bytes.length);
  return tx;
}

// Real transactions (see the vectors README table).
const V1_COINBASE = realTxBytes('mainnet', 1, 0); // §3.10
const V2_JOINSPLIT = realTxBytes('mainnet', 396, 1); // first JoinSplit, PHGR proof
const V4_PLAIN = realTxBytes('mainnet', 419200, 0); // v4 coinbase, no Sapling
const V4_SAPLING = realTxBytes('mainnet', 419202, 3); // 1 spend, 2 outputs
const V4_GROTH_JS = realTxBytes('mainnet', 903000, 13); // 1 Groth16 JoinSplit, 1 output
const V5_SAP_OUT = realTxBytes('mainnet', 1687106, 1); // 1 spend, 1 output
const V5_ORCHARD = realTxBytes('mainnet', 1687107, 4); // 1 spend, 2 Orchard actions

const EMPTY_V1_BODY = '00' + '00' + '00000000';
const V4_HEADER = '0400008085202f89';
const V5_HEADER = '050000800a27a726' + 'b4d0d6c2' + '00000000' + '00000000';

describe('hex validation (§1.10, §5.4 worked examples)', () => {
  for (const bad of ['', 'abc', 'zz', '00 11', '0x00', 'g0', '0', '01000000\n', 'é0']) {
    it(`${JSON.stringify(bad)} → not a valid hex string`, () => {
      expectError(bad, `not a valid hex string${S}`, 0, 'invalid-hex');
      expect(() => decodeBlockHex(bad)).toThrow(`not a valid hex string${S}`);
    });
  }
  it('upper-case hex is accepted', () => {
    const tx = decodeTransactionHex(toHex(V1_COINBASE).toUpperCase());
    expect(tx.txidHex).toBe('851bf6fbf7a976327817c738c489d7fa657752445430922d94c983c0b9ed4609');
  });
});

describe('header and version dispatch (§1.3)', () => {
  it('DEADBEEF: overwintered bit set, version group id missing → end of data', () => {
    expectError('DEADBEEF', EOD, 4, 'end-of-data');
  });
  it('01000000 → end of data', () => expectError('01000000', EOD, 4, 'end-of-data'));
  it('a 3-byte header → end of data', () => expectError('010000', EOD, 3, 'end-of-data'));

  const unknown: [string, number, number][] = [
    ['v3 with group 0', 3, 0],
    ['v4 with the Overwinter group', 4, 0x03c48270],
    ['v5 with the Sapling group', 5, 0x892f2085],
    ['v3 with the NU5 group', 3, 0x26a7270a],
    ['overwintered v0', 0, 0x03c48270],
    ['overwintered v1', 1, 0x03c48270],
    ['overwintered v2', 2, 0x892f2085],
    ['overwintered v6', 6, 0x26a7270a],
    ['0xFFFF with the NU5 group', 0xffff, 0x26a7270a],
    ['v5 with the ZFuture group', 5, 0xffffffff],
  ];
  for (const [name, version, group] of unknown) {
    it(`${name} → Unknown transaction format`, () => {
      const hex = toHex(u32le((0x80000000 | version) >>> 0)) + toHex(u32le(group)) + EMPTY_V1_BODY;
      expectError(hex, UNKNOWN_FORMAT, 0, 'unknown-tx-format');
    });
  }
  it('§5.4 example 030000800000000000000000 → Unknown transaction format', () => {
    expectError('030000800000000000000000', UNKNOWN_FORMAT, 0, 'unknown-tx-format');
  });

  it('non-overwintered version 0 parses as v1 in C++, then the Rust re-parse rejects it', () => {
    expectError('00000000' + EMPTY_V1_BODY, UPDATE_HASH, 0, 'invalid-tx-format');
    // ...but only after the C++ parse: a truncated one reports end of data.
    expectError('00000000' + '0000', EOD, 6, 'end-of-data');
  });
  it('non-overwintered versions ≥ 2 (e.g. header 04000000, 7fffffff) use the v2 layout', () => {
    for (const header of ['02000000', '04000000', 'ffffff7f']) {
      const tx = decodeTransactionHex(header + EMPTY_V1_BODY + '00');
      expect(tx.data.format).toBe('v2');
      expect(tx.size).toBe(11);
    }
    // without the JoinSplit count, a v2 layout runs out of data
    expectError('04000000' + EMPTY_V1_BODY, EOD, 10, 'end-of-data');
  });
  it('ZFuture (0xFFFF, 0xFFFFFFFF) is read with the v4 layout, then rejected by the Rust re-parse', () => {
    const body = '00' + '00' + '00000000' + '00000000' + '0000000000000000' + '00' + '00' + '00';
    expectError('ffff0080ffffffff' + body, UPDATE_HASH, 0, 'invalid-tx-format');
    // a v4-layout problem inside it is reported first
    const badVb = '00' + '00' + '00000000' + '00000000' + '0100000000000000' + '00' + '00' + '00';
    expectError('ffff0080ffffffff' + badVb, V4('nonzero valueBalanceSapling has no sources or sinks'), 28);
  });
});

describe('CompactSize (§1.2): C++ fields', () => {
  const v1 = (cs: string) => '01000000' + cs;
  const cases: [string, string, string | null, DecodeReason][] = [
    ['fd0100', 'non-canonical 0xFD form of 1', `non-canonical ReadCompactSize()${S}`, 'non-canonical-compactsize'],
    ['fdfc00', 'non-canonical 0xFD form of 252', `non-canonical ReadCompactSize()${S}`, 'non-canonical-compactsize'],
    ['feffff0000', 'non-canonical 0xFE form of 65535', `non-canonical ReadCompactSize()${S}`, 'non-canonical-compactsize'],
    ['ffffffffff00000000', 'non-canonical 0xFF form of 2^32−1', `non-canonical ReadCompactSize()${S}`, 'non-canonical-compactsize'],
    ['ff0000000001000000', '0xFF form of 2^32 (canonical, too large)', `ReadCompactSize(): size too large${S}`, 'compactsize-too-large'],
    ['ffffffffffffffffff', '0xFF form of 2^64−1', `ReadCompactSize(): size too large${S}`, 'compactsize-too-large'],
    ['fe01000002', 'MAX_SIZE + 1', `ReadCompactSize(): size too large${S}`, 'compactsize-too-large'],
  ];
  for (const [cs, name, what, reason] of cases) {
    it(`vin count ${cs} (${name})`, () => expectError(v1(cs), what!, 4, reason));
  }
  it('canonical boundary values are accepted and then run out of data', () => {
    for (const cs of ['fc', 'fdfd00', 'fdffff', 'fe00000100', 'fe00000002']) {
      expectError(v1(cs), EOD, 4 + cs.length / 2, 'end-of-data');
    }
  });
  it('a CompactSize cut inside its own bytes → end of data', () => {
    for (const cs of ['fd', 'fd01', 'fe000001', 'ff00000000000000']) expectError(v1(cs), EOD, 4 + cs.length / 2, 'end-of-data');
  });
  it('scriptSig and scriptPubKey lengths use the C++ reader too', () => {
    const input = '01' + '00'.repeat(32) + 'ffffffff';
    expectError('01000000' + input + 'fd0500', `non-canonical ReadCompactSize()${S}`, 41, 'non-canonical-compactsize');
    expectError('01000000' + input + 'fe01000002', `ReadCompactSize(): size too large${S}`, 41, 'compactsize-too-large');
    const output = '00' + '01' + '0000000000000000';
    expectError('01000000' + output + 'fe01000002', `ReadCompactSize(): size too large${S}`, 14, 'compactsize-too-large');
  });
  it('the JoinSplit count uses the C++ reader', () => {
    expectError('02000000' + EMPTY_V1_BODY + 'fd0000', `non-canonical ReadCompactSize()${S}`, 10, 'non-canonical-compactsize');
  });
});

describe('CompactSize (§1.2): Rust-parsed fields', () => {
  const v4Body = '00' + '00' + '00000000' + '00000000' + '0000000000000000';
  it('v4 Sapling spend / output counts', () => {
    expectError(V4_HEADER + v4Body + 'fd0100', V4('non-canonical CompactSize'), 26, 'non-canonical-compactsize');
    expectError(V4_HEADER + v4Body + 'fe01000002', V4('CompactSize too large'), 26, 'compactsize-too-large');
    expectError(V4_HEADER + v4Body + '00' + 'ff0000000001000000', V4('CompactSize too large'), 27, 'compactsize-too-large');
  });
  it('v5 Sapling spend / output counts', () => {
    expectError(V5_HEADER + '0000' + 'fd0100', V5('non-canonical CompactSize'), 22, 'non-canonical-compactsize');
    expectError(V5_HEADER + '0000' + '00' + 'fe01000002', V5('CompactSize too large'), 23, 'compactsize-too-large');
  });
  it('Orchard action count', () => {
    expectError(V5_HEADER + '0000' + '0000' + 'fd0100', ORCHARD('non-canonical CompactSize'), 24, 'non-canonical-compactsize');
    expectError(V5_HEADER + '0000' + '0000' + 'ff0000000001000000', ORCHARD('CompactSize too large'), 24, 'compactsize-too-large');
  });
  it('sizeProofsOrchard', () => {
    const f = field(txLayout(V5_ORCHARD), 'proofsOrchard length');
    expect(f.end - f.start).toBe(3); // a real 2-action proof needs the 0xFD form
    expectError(put(V5_ORCHARD, f, Uint8Array.of(0xfd, 0x10, 0x00)), ORCHARD('non-canonical CompactSize'), f.start);
    expectError(splice(V5_ORCHARD, f, hexToBytes('fe01000002')), ORCHARD('CompactSize too large'), f.start);
  });
});

describe('transparent and JoinSplit amounts (Group B: Rust re-parse)', () => {
  const value0 = field(txLayout(V1_COINBASE), 'vout 0 value');
  it('output values outside 0..MAX_MONEY are rejected after the C++ parse', () => {
    for (const v of [-1n, MAX_MONEY + 1n, -MAX_MONEY, 1n << 62n, -(1n << 63n)]) {
      expectError(put(V1_COINBASE, value0, i64le(v)), UPDATE_HASH, 0, 'invalid-tx-format');
    }
  });
  it('0 and MAX_MONEY are accepted', () => {
    expect(decodes(put(V1_COINBASE, value0, i64le(MAX_MONEY))).data.vout[0]!.value).toBe(Number(MAX_MONEY));
    expect(decodes(put(V1_COINBASE, value0, i64le(0n))).data.vout[0]!.value).toBe(0);
  });
  it('a C++ failure later in the stream wins over a bad amount earlier', () => {
    const bad = put(V1_COINBASE, value0, i64le(-1n));
    expectError(bad.subarray(0, bad.length - 1), EOD, bad.length - 1, 'end-of-data');
  });
  it('JoinSplit vpub_old / vpub_new above MAX_MONEY as u64 (negative included) are rejected', () => {
    const layout = txLayout(V2_JOINSPLIT);
    for (const name of ['js 0 vpub_old', 'js 0 vpub_new']) {
      const f = field(layout, name);
      for (const v of [-1n, MAX_MONEY + 1n, 1n << 60n]) expectError(put(V2_JOINSPLIT, f, i64le(v)), UPDATE_HASH, 0, 'invalid-tx-format');
      expect(decodes(put(V2_JOINSPLIT, f, i64le(MAX_MONEY))).data.joinSplits.length).toBe(1);
    }
  });
});

describe('PHGR proof lead bytes (§1.5)', () => {
  const proof = field(txLayout(V2_JOINSPLIT), 'js 0 proof');
  // g_A, g_A', g_B (G2, 65 bytes), g_B', g_C, g_C', g_K, g_H
  const leads = [0, 33, 66, 131, 164, 197, 230, 263];
  it('the real proof has valid lead bytes at the 8 point offsets', () => {
    leads.forEach((at, i) => expect(i === 2 ? [0x0a, 0x0b] : [0x02, 0x03]).toContain(V2_JOINSPLIT[proof.start + at]));
  });
  leads.forEach((at, i) => {
    const g2 = i === 2;
    it(`point ${i} (${g2 ? 'G2' : 'G1'}) with a bad lead byte`, () => {
      const what = `lead byte of ${g2 ? 'G2' : 'G1'} point not recognized${S}`;
      for (const lead of g2 ? [0x02, 0x00, 0x0c, 0xff] : [0x0a, 0x00, 0x04, 0xff]) {
        expectError(
          put(V2_JOINSPLIT, proof, Uint8Array.of(lead), at),
          what,
          proof.start + at,
          g2 ? 'bad-g2-lead-byte' : 'bad-g1-lead-byte',
        );
      }
      // the other valid lead byte is accepted (coordinates are not checked)
      const other = g2 ? 0x0a + 0x0b - V2_JOINSPLIT[proof.start + at]! : 0x02 + 0x03 - V2_JOINSPLIT[proof.start + at]!;
      decodes(put(V2_JOINSPLIT, proof, Uint8Array.of(other), at));
    });
  });
  it('Groth16 proofs (v4 JoinSplits) are opaque', () => {
    const f = field(txLayout(V4_GROTH_JS), 'js 0 proof');
    expect(f.end - f.start).toBe(192);
    decodes(put(V4_GROTH_JS, f, new Uint8Array(192).fill(0xff)));
  });
});

describe('v4 Sapling rules (§1.7)', () => {
  const plainVb = field(txLayout(V4_PLAIN), 'valueBalanceSapling');
  const layout = txLayout(V4_SAPLING);
  const vb = field(layout, 'valueBalanceSapling');
  it('nonzero valueBalance without spends or outputs', () => {
    // reported after the (empty) output list, i.e. where the JoinSplit count starts
    const after = field(txLayout(V4_PLAIN), 'sapling output count').end;
    for (const v of [1n, -1n, MAX_MONEY]) {
      expectError(put(V4_PLAIN, plainVb, i64le(v)), V4('nonzero valueBalanceSapling has no sources or sinks'), after, 'invalid-sapling-v4');
    }
  });
  it('valueBalance out of ±MAX_MONEY (checked first, at the field)', () => {
    for (const v of [MAX_MONEY + 1n, -MAX_MONEY - 1n, (1n << 63n) - 1n, -(1n << 63n)]) {
      expectError(put(V4_PLAIN, plainVb, i64le(v)), V4('valueBalance out of range'), plainVb.start, 'invalid-sapling-v4');
      expectError(put(V4_SAPLING, vb, i64le(v)), V4('valueBalance out of range'), vb.start, 'invalid-sapling-v4');
    }
  });
  it('±MAX_MONEY accepted when there are spends/outputs', () => {
    expect(decodes(put(V4_SAPLING, vb, i64le(MAX_MONEY))).data.sapling!.valueBalance).toBe(Number(MAX_MONEY));
    expect(decodes(put(V4_SAPLING, vb, i64le(-MAX_MONEY))).data.sapling!.valueBalance).toBe(-Number(MAX_MONEY));
  });
  it('truncated valueBalance → doubled suffix', () => {
    expectError(V4_PLAIN.subarray(0, plainVb.start + 3), V4(EOD), plainVb.start + 3, 'end-of-data');
  });
});

/** Invalid encodings per point type, each built from the curve equation. */
const badJubjub: [string, Uint8Array][] = [
  ['v = q', le32(Q_JUBJUB)],
  ['v = 2^255 − 1', le32((1n << 255n) - 1n)],
  ['off the curve', le32(offCurveJubjubV())],
  ['off the curve, sign bit set', le32(offCurveJubjubV(), true)],
  ['(0, 1) with the sign bit', le32(1n, true)],
  ['(0, −1) with the sign bit', le32(Q_JUBJUB - 1n, true)],
];
const smallOrder = jubjubSmallOrderEncodings();
const badPallas: [string, Uint8Array][] = [
  ['x = p', le32(P_PALLAS)],
  ['x = 2^255 − 1', le32((1n << 255n) - 1n)],
  ['x = 0 with the sign bit', le32(0n, true)],
  ['off the curve', le32(offCurvePallasX())],
];

describe('Sapling field checks (§1.8a group A), v4 and v5', () => {
  const cases = [
    { name: 'v4', bytes: V4_SAPLING, wrap: V4, reason: 'invalid-sapling-v4' as const, anchor: 'spend 0 anchor' },
    { name: 'v5', bytes: V5_SAP_OUT, wrap: V5, reason: 'invalid-sapling-v5' as const, anchor: 'anchorSapling' },
  ];
  for (const c of cases) {
    const layout = txLayout(c.bytes);
    for (const cvName of ['spend 0 cv', 'output 0 cv']) {
      const cv = field(layout, cvName);
      it(`${c.name} ${cvName}: non-canonical / off-curve / each of the 8 small-order points → invalid cv`, () => {
        for (const [, enc] of badJubjub) expectError(put(c.bytes, cv, enc), c.wrap('invalid cv'), cv.start, c.reason);
        for (const enc of smallOrder) expectError(put(c.bytes, cv, enc), c.wrap('invalid cv'), cv.start, c.reason);
      });
    }
    const rk = field(layout, 'spend 0 rk');
    it(`${c.name} rk: invalid encodings → verification key is invalid; small order is accepted`, () => {
      for (const [, enc] of badJubjub) expectError(put(c.bytes, rk, enc), c.wrap('verification key is invalid'), rk.start, c.reason);
      for (const enc of smallOrder) expect(toHex(decodes(put(c.bytes, rk, enc)).data.sapling!.spends[0]!.rk)).toBe(toHex(enc));
    });
    const anchor = field(layout, c.anchor);
    it(`${c.name} anchor ≥ q → base value not a valid field element; q − 1 accepted`, () => {
      for (const v of [Q_JUBJUB, (1n << 256n) - 1n]) {
        expectError(put(c.bytes, anchor, le32(v)), c.wrap('base value not a valid field element'), anchor.start, c.reason);
      }
      decodes(put(c.bytes, anchor, le32(Q_JUBJUB - 1n)));
    });
    const cmu = field(layout, 'output 0 cmu');
    it(`${c.name} cmu ≥ q → cmu not in field; q − 1 accepted`, () => {
      for (const v of [Q_JUBJUB, Q_JUBJUB + 12345n, (1n << 256n) - 1n]) {
        expectError(put(c.bytes, cmu, le32(v)), c.wrap('cmu not in field'), cmu.start, c.reason);
      }
      decodes(put(c.bytes, cmu, le32(Q_JUBJUB - 1n)));
    });
    it(`${c.name} opaque fields (nullifier, ephemeralKey, ciphertexts, proofs, sigs) are not checked`, () => {
      let b = c.bytes;
      for (const name of [
        'spend 0 nullifier',
        'output 0 ephemeralKey',
        'output 0 ciphertexts',
        'spend 0 proof',
        'spend 0 spendAuthSig',
        'bindingSigSapling',
      ]) {
        const f = field(layout, name);
        b = put(b, f, new Uint8Array(f.end - f.start).fill(0xff));
      }
      decodes(b);
    });
  }

  it('v5 valueBalanceSapling out of range', () => {
    const vb = field(txLayout(V5_SAP_OUT), 'valueBalanceSapling');
    expectError(put(V5_SAP_OUT, vb, i64le(MAX_MONEY + 1n)), V5('valueBalance out of range'), vb.start, 'invalid-sapling-v5');
  });

  it('order: v4 checks spend fields in wire order (anchor before rk, spends before outputs)', () => {
    const l = txLayout(V4_SAPLING);
    let b = put(V4_SAPLING, field(l, 'spend 0 rk'), le32(Q_JUBJUB));
    b = put(b, field(l, 'output 1 cv'), smallOrder[0]!);
    expectError(b, V4('verification key is invalid'), field(l, 'spend 0 rk').start);
    b = put(b, field(l, 'spend 0 anchor'), le32(Q_JUBJUB));
    expectError(b, V4('base value not a valid field element'), field(l, 'spend 0 anchor').start);
  });
  it('order: v5 checks output points before the shared anchor (which follows them on the wire)', () => {
    const l = txLayout(V5_SAP_OUT);
    let b = put(V5_SAP_OUT, field(l, 'anchorSapling'), le32(Q_JUBJUB));
    b = put(b, field(l, 'output 0 cmu'), le32(Q_JUBJUB));
    expectError(b, V5('cmu not in field'), field(l, 'output 0 cmu').start);
  });
});

describe('Orchard field checks (§1.8a group A)', () => {
  const layout = txLayout(V5_ORCHARD);
  const checks: [string, string, [string, Uint8Array][]][] = [
    ['action 0 cv', 'invalid Pallas point for value commitment', badPallas],
    ['action 1 cv', 'invalid Pallas point for value commitment', badPallas],
    ['action 0 rk', 'invalid verification key', badPallas],
    ['action 1 rk', 'invalid verification key', badPallas],
    [
      'action 0 nullifier',
      'invalid Pallas point for nullifier',
      [
        ['p', le32(P_PALLAS)],
        ['2^256 − 1', le32((1n << 256n) - 1n)],
      ],
    ],
    [
      'action 1 cmx',
      'invalid Pallas base for field cmx',
      [
        ['p', le32(P_PALLAS)],
        ['p + 1', le32(P_PALLAS + 1n)],
      ],
    ],
    [
      'anchorOrchard',
      'invalid Orchard anchor',
      [
        ['p', le32(P_PALLAS)],
        ['x with bit 255', le32(1n, true)],
      ],
    ],
  ];
  for (const [name, inner, encodings] of checks) {
    it(`${name}: ${encodings.map((e) => e[0]).join(', ')} → ${inner}`, () => {
      const f = field(layout, name);
      for (const [, enc] of encodings) expectError(put(V5_ORCHARD, f, enc), ORCHARD(inner), f.start, 'invalid-orchard');
    });
  }
  it('identity cv and rk (all zero) are accepted at parse time; p − 1 field elements too', () => {
    let b = put(V5_ORCHARD, field(layout, 'action 0 cv'), new Uint8Array(32));
    b = put(b, field(layout, 'action 0 rk'), new Uint8Array(32));
    b = put(b, field(layout, 'action 0 nullifier'), le32(P_PALLAS - 1n));
    b = put(b, field(layout, 'action 0 cmx'), le32(P_PALLAS - 1n));
    b = put(b, field(layout, 'anchorOrchard'), le32(P_PALLAS - 1n));
    expect(decodes(b).data.orchard!.actions.length).toBe(2);
  });
  it('flags: reserved bits rejected, 0..3 accepted', () => {
    const f = field(layout, 'flagsOrchard');
    expect(V5_ORCHARD[f.start]).toBe(3);
    for (const flags of [0x04, 0x08, 0x80, 0xff]) {
      expectError(put(V5_ORCHARD, f, Uint8Array.of(flags)), ORCHARD('invalid Orchard flags'), f.start, 'invalid-orchard');
    }
    for (const flags of [0, 1, 2]) expect(decodes(put(V5_ORCHARD, f, Uint8Array.of(flags))).data.orchard!.flags).toBe(flags);
  });
  it('valueBalanceOrchard outside ±MAX_MONEY', () => {
    const f = field(layout, 'valueBalanceOrchard');
    for (const v of [MAX_MONEY + 1n, -MAX_MONEY - 1n, -(1n << 63n)]) {
      expectError(put(V5_ORCHARD, f, i64le(v)), ORCHARD('valueBalance out of range'), f.start, 'invalid-orchard');
    }
    expect(decodes(put(V5_ORCHARD, f, i64le(-MAX_MONEY))).data.orchard!.valueBalance).toBe(-Number(MAX_MONEY));
  });
  it('order: per action cv, nullifier, rk, cmx; action 0 before action 1; actions before flags', () => {
    let b = put(V5_ORCHARD, field(layout, 'flagsOrchard'), Uint8Array.of(0xff));
    b = put(b, field(layout, 'action 1 cv'), le32(P_PALLAS));
    expectError(b, ORCHARD('invalid Pallas point for value commitment'), field(layout, 'action 1 cv').start);
    b = put(b, field(layout, 'action 0 cmx'), le32(P_PALLAS));
    expectError(b, ORCHARD('invalid Pallas base for field cmx'), field(layout, 'action 0 cmx').start);
    b = put(b, field(layout, 'action 0 rk'), le32(P_PALLAS));
    expectError(b, ORCHARD('invalid verification key'), field(layout, 'action 0 rk').start);
  });
  it('a Sapling failure precedes any Orchard failure', () => {
    const l = txLayout(V5_ORCHARD);
    let b = put(V5_ORCHARD, field(l, 'action 0 cv'), le32(P_PALLAS));
    b = put(b, field(l, 'spend 0 cv'), smallOrder[3]!);
    expectError(b, V5('invalid cv'), field(l, 'spend 0 cv').start);
  });
});

describe('v5 consensus branch id (Group B)', () => {
  const f = field(txLayout(V5_ORCHARD), 'consensusBranchId');
  it('unknown ids are rejected by the Rust re-parse', () => {
    for (const id of [0x12345678, 0xffffffff, 0xc2d6d0b5, 1])
      expectError(put(V5_ORCHARD, f, u32le(id)), UPDATE_HASH, 0, 'invalid-tx-format');
  });
  it('every known id is accepted (even ones invalid for consensus); the id enters the txid', () => {
    const ids = [0x00000000, 0x5ba81b19, 0x76b809bb, 0x2bb40e60, 0xf5b9230b, 0xe9ff75a6, 0xc2d6d0b4, 0xc8e71055, 0x4dec4df0];
    const txids = ids.map((id) => decodes(put(V5_ORCHARD, f, u32le(id))).txidHex);
    expect(new Set(txids).size).toBe(ids.length);
    expect(txids[6]).toBe(decodes(V5_ORCHARD).txidHex);
  });
});
