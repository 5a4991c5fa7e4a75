// decodeTransaction reads the transparent part of most transactions, v1 to v5, in one quick
// function (readQuickly in src/codec/tx/transaction.ts), and everything else through the general
// readers. Both must give the same transaction, or the same zcashd error at the same offset, on
// every input: real transactions on their own and inside blocks, every truncation, mutations, and
// the edges the quick path leaves to the general one (long CompactSizes, large output values,
// unknown branch ids, version 0, shielded parts after a transparent part read quickly).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteReader } from '../../src/codec/bytes.js';
import { DecodeError } from '../../src/codec/errors.js';
import { toHex } from '../../src/codec/hex.js';
import {
  decodeTransaction,
  decodeTransactionFieldByField,
  decodeTransactionQuickly,
  readTransaction,
  type Transaction,
} from '../../src/codec/tx/transaction.js';
import { realTransactions } from '../fuzz/corpus.js';
import { compactSizeBytes, mutatedTransaction } from '../fuzz/properties.js';

/** Everything a decoded transaction exposes, as comparable values. */
function summary(tx: Transaction): unknown {
  const d = tx.data;
  return {
    format: d.format,
    overwintered: d.overwintered,
    version: d.version,
    versionGroupId: d.versionGroupId,
    consensusBranchId: d.consensusBranchId,
    lockTime: d.lockTime,
    expiryHeight: d.expiryHeight,
    size: tx.size,
    txid: tx.txidHex,
    authDigest: toHex(tx.authDigest),
    vin: d.vin.map((i) => [toHex(i.prevout.hash), i.prevout.index, toHex(i.scriptSig), i.sequence]),
    vout: d.vout.map((o) => [o.value, toHex(o.scriptPubKey)]),
    joinSplits: d.joinSplits.map((js) => [js.vpubOld, js.vpubNew, toHex(js.proof)]),
    joinSplitPubKey: d.joinSplitPubKey && toHex(d.joinSplitPubKey),
    joinSplitSig: d.joinSplitSig && toHex(d.joinSplitSig),
    sapling: d.sapling && {
      valueBalance: d.sapling.valueBalance,
      spends: d.sapling.spends.map((s) => toHex(s.nullifier)),
      outputs: d.sapling.outputs.map((o) => toHex(o.cmu)),
      sharedAnchor: d.sapling.sharedAnchor && toHex(d.sapling.sharedAnchor),
      bindingSig: d.sapling.bindingSig && toHex(d.sapling.bindingSig),
    },
    orchard: d.orchard && {
      actions: d.orchard.actions.map((a) => toHex(a.cmx)),
      flags: d.orchard.flags,
      valueBalance: d.orchard.valueBalance,
    },
    serialized: toHex(tx.serialize()),
    carries: tx.carries,
  };
}

type Outcome = { ok: unknown } | { error: [string, number, string] };

function outcome(decode: () => Transaction): Outcome {
  try {
    return { ok: summary(decode()) };
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return { error: [e.reason, e.offset, e.what] };
  }
}

/**
 * The quick and general paths agree on `bytes`, on their own and read at an offset by a reader
 * over a larger buffer whose bytes past the reader's end are `after` (junk by default).
 */
function agree(bytes: Uint8Array, after: Uint8Array = JUNK): Outcome {
  const general = outcome(() => decodeTransactionFieldByField(bytes));
  expect(outcome(() => decodeTransaction(bytes))).toEqual(general);
  expect(outcome(() => decodeTransaction(Buffer.from(bytes)))).toEqual(general);
  // Inside a larger buffer, as decodeBlock reads: the reader must end just after the transaction.
  const framed = new Uint8Array(3 + bytes.length + after.length).fill(0xa5);
  framed.set(bytes, 3);
  framed.set(after, 3 + bytes.length);
  const r = new ByteReader(framed, 3, 3 + bytes.length);
  const inFrame = outcome(() => readTransaction(r));
  if ('error' in general) expect(inFrame).toEqual({ error: [general.error[0], general.error[1] + 3, general.error[2]] });
  else {
    expect(inFrame).toEqual(general);
    expect(r.pos).toBe(3 + (general.ok as { size: number }).size);
  }
  return general;
}

const JUNK = new Uint8Array(16).fill(0xa5);

/**
 * Which reader decides `bytes`: 'quick' when readQuickly returns a transaction or throws
 * zcashd's error itself (with shielded parts after a transparent part it read), 'general' when
 * it leaves the bytes to the field-by-field readers.
 */
function pathTaken(bytes: Uint8Array): 'quick' | 'general' {
  try {
    return decodeTransactionQuickly(bytes) === null ? 'general' : 'quick';
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return 'quick';
  }
}

function everyTruncation(b: Uint8Array): void {
  for (let k = 0; k <= b.length; k++) {
    agree(b.subarray(0, k));
    agree(b.subarray(0, k), b.subarray(k)); // the reader's end cut inside the transaction
  }
}

const real = realTransactions().map((t) => t.tx.bytes);
const byFormat = (f: string) => real.filter((b) => decodeTransaction(b).data.format === f);

/** Hex of a transaction assembled from parts. */
function tx(...parts: (string | Uint8Array)[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'hex') : Buffer.from(p)))));
}
/**
 * The smallest real v2 transaction with its first JoinSplit's vpub_old replaced: zcashd's Rust
 * re-parse refuses a vpub outside MoneyRange after the transparent part was read quickly.
 */
function realV2WithVpubOld(valueHex: string): Uint8Array {
  const b = Uint8Array.from([...byFormat('v2')].sort((x, y) => x.length - y.length)[0]!);
  const joinSplits = decodeTransaction(b).data.joinSplits.length;
  const vpubOld = b.length - joinSplits * 1802 - 32 - 64; // JoinSplits, then pubkey and signature
  expect(b[vpubOld - 1]).toBe(joinSplits); // the one-byte JoinSplit count
  b.set(Buffer.from(valueHex, 'hex'), vpubOld);
  return b;
}
const V4 = '0400008085202f89';
const V5 = '050000800a27a726';
const NU5_BRANCH = 'b4d0d6c2';
const IN = `${'11'.repeat(32)}01000000` + '0151' + 'feffffff'; // prevout, 1-byte script, sequence
const OUT = (valueHex: string, script = '76a914' + '22'.repeat(20) + '88ac') =>
  valueHex + (script.length / 2).toString(16).padStart(2, '0') + script;
const LOCK_EXPIRY = '0000000000000000';
const LOCK = 'ff000000';
const V4_EMPTY_TAIL = '0000000000000000' + '000000';

describe('quick and general transaction readers agree', () => {
  it('on every real transaction, every one of them read by the quick path', () => {
    for (const b of real) agree(b);
    // The benches are otherwise the only sign that the quick path stopped being taken.
    expect(real.filter((b) => pathTaken(b) !== 'quick').map((b) => decodeTransaction(b).txidHex)).toEqual([]);
    expect(real.length).toBeGreaterThan(800);
    expect(byFormat('v1').length).toBeGreaterThan(300);
    expect(byFormat('v2').length).toBeGreaterThan(50);
  });

  it('on every truncation of transactions of each format', () => {
    const smallest = (f: string) => [...byFormat(f)].sort((a, b) => a.length - b.length)[0]!;
    for (const f of ['v1', 'v3', 'v4', 'v5']) {
      const sample = [
        ...byFormat(f)
          .filter((b) => b.length < 2_000)
          .slice(0, 4),
        smallest(f),
      ];
      for (const b of sample) everyTruncation(b);
    }
    // v2 transactions carry JoinSplits (1,802 bytes each), so the quick path reads their
    // transparent part and the JoinSplit reader takes over.
    const v2 = smallest('v2');
    expect(decodeTransaction(v2).data.joinSplits.length).toBeGreaterThan(0);
    everyTruncation(v2);
  });

  it('on mutated real transactions (fast-check)', () => {
    const small = real.filter((b) => b.length < 6_000);
    const seen = { ok: 0, error: 0 };
    fc.assert(
      fc.property(mutatedTransaction(small), (b) => {
        seen['ok' in agree(b) ? 'ok' : 'error']++;
      }),
      { seed: 0x91c4, numRuns: 2500 },
    );
    expect(seen.ok).toBeGreaterThan(100);
    expect(seen.error).toBeGreaterThan(100);
  });

  it('on what the quick path leaves to the general one', () => {
    const out = OUT('00e1f50500000000');
    const cases: Record<string, Uint8Array> = {
      plain: tx(V4, '01', IN, '01', out, LOCK_EXPIRY, V4_EMPTY_TAIL),
      threeByteScriptLength: tx(
        V4,
        '01',
        `${'11'.repeat(32)}01000000`,
        'fdfd00',
        '51'.repeat(0xfd),
        'feffffff',
        '01',
        out,
        LOCK_EXPIRY,
        V4_EMPTY_TAIL,
      ),
      nonCanonicalScriptLength: tx(
        V4,
        '01',
        `${'11'.repeat(32)}01000000`,
        'fd0100',
        '51',
        'feffffff',
        '01',
        out,
        LOCK_EXPIRY,
        V4_EMPTY_TAIL,
      ),
      fiveByteInputCount: tx(V4, compactSizeBytes(0x10000n, 5), IN, '01', out, LOCK_EXPIRY, V4_EMPTY_TAIL),
      fiveByteCanonicalScript: tx(
        V4,
        '01',
        `${'11'.repeat(32)}01000000`,
        compactSizeBytes(0x10000n, 5),
        new Uint8Array(0x10000),
        'feffffff',
        '00',
        LOCK_EXPIRY,
        V4_EMPTY_TAIL,
      ),
      countBeyondData: tx(V4, 'fdff00', IN),
      valueAtMaxMoney: tx(V4, '01', IN, '01', OUT('0040075af0750700'), LOCK_EXPIRY, V4_EMPTY_TAIL),
      valueAboveMaxMoney: tx(V4, '01', IN, '01', OUT('0140075af0750700'), LOCK_EXPIRY, V4_EMPTY_TAIL),
      negativeValue: tx(V4, '01', IN, '01', OUT('ffffffffffffffff'), LOCK_EXPIRY, V4_EMPTY_TAIL),
      valueBalanceNonZero: tx(V4, '01', IN, '01', out, LOCK_EXPIRY, '0100000000000000', '000000'),
      saplingCountNonZero: tx(V4, '01', IN, '01', out, LOCK_EXPIRY, '0000000000000000', '010000'),
      joinSplitCountNonZero: tx(V4, '01', IN, '01', out, LOCK_EXPIRY, '0000000000000000', '000001'),
      tailShort: tx(V4, '01', IN, '01', out, LOCK_EXPIRY, '00000000000000'),
      trailingBytes: tx(V4, '01', IN, '01', out, LOCK_EXPIRY, V4_EMPTY_TAIL, 'deadbeef'),
      noInputsNoOutputs: tx(V4, '00', '00', LOCK_EXPIRY, V4_EMPTY_TAIL),
      v3: tx('030000807082c403', '01', IN, '01', out, LOCK_EXPIRY, '00'),
      v3WithJoinSplitCount: tx('030000807082c403', '01', IN, '01', out, LOCK_EXPIRY, '01'),
      v5: tx(V5, NU5_BRANCH, LOCK_EXPIRY, '01', IN, '01', out, '000000'),
      v5UnknownBranch: tx(V5, '01020304', LOCK_EXPIRY, '01', IN, '01', out, '000000'),
      v5OrchardCount: tx(V5, NU5_BRANCH, LOCK_EXPIRY, '01', IN, '01', out, '000001'),
      v5SaplingSpendCount: tx(V5, NU5_BRANCH, LOCK_EXPIRY, '01', IN, '01', out, '010000'),
      v5HeaderOnly: tx(V5, NU5_BRANCH, '00000000'),
      zfuture: tx('ffff0080ffffffff', '01', IN, '01', out, LOCK_EXPIRY, V4_EMPTY_TAIL),
      wrongGroupId: tx('0400008070822c03', '00', '00', LOCK_EXPIRY, V4_EMPTY_TAIL),
      v5UnknownBranchCutInInputs: tx(V5, '01020304', LOCK_EXPIRY, '01', IN),
      v5UnknownBranchOrchardCount: tx(V5, '01020304', LOCK_EXPIRY, '01', IN, '01', out, '000001'),
      v5UnknownBranchTailShort: tx(V5, '01020304', LOCK_EXPIRY, '01', IN, '01', out, '0000'),
      valueJustBelow2To48: tx(V4, '01', IN, '01', OUT('ffffffffffff0000'), LOCK_EXPIRY, V4_EMPTY_TAIL),
      valueAtSevenTimes2To40: tx(V4, '01', IN, '01', OUT('0000000000070000'), LOCK_EXPIRY, V4_EMPTY_TAIL),
      valueNegativeTopByteOnly: tx(V4, '01', IN, '01', OUT('0000000000000080'), LOCK_EXPIRY, V4_EMPTY_TAIL),
      threeByteInputCount: tx(V4, 'fdfd00', IN.repeat(0xfd), '01', out, LOCK_EXPIRY, V4_EMPTY_TAIL),
      nonCanonicalInputCount: tx(V4, 'fdfc00', IN.repeat(0xfc), '01', out, LOCK_EXPIRY, V4_EMPTY_TAIL),
      inputCountCut: tx(V4, 'fdfd'),
      v3TrailingBytes: tx('030000807082c403', '01', IN, '01', out, LOCK_EXPIRY, '00', 'ffff'),
      v5TrailingBytes: tx(V5, NU5_BRANCH, LOCK_EXPIRY, '01', IN, '01', out, '000000', 'ffff'),
      // Lock time and expiry height at and above 2^31 (read as uint32, never negative), and
      // three-byte input and output counts, in v5's own reader as in the one for v1–v4.
      v5HighLockAndExpiry: tx(V5, NU5_BRANCH, 'ffffffff', '00000080', '01', IN, '01', out, '000000'),
      v5ThreeByteCounts: tx(V5, NU5_BRANCH, LOCK_EXPIRY, 'fdfd00', IN.repeat(0xfd), 'fdfd00', out.repeat(0xfd), '000000'),
      v3HighLockAndExpiry: tx('030000807082c403', '01', IN, '01', out, 'ffffffff', '00000080', '00'),
      v3ThreeByteCounts: tx('030000807082c403', 'fdfd00', IN.repeat(0xfd), 'fdfd00', out.repeat(0xfd), LOCK_EXPIRY, '00'),
      v1: tx('01000000', '01', IN, '01', out, LOCK),
      v1Smallest: tx('01000000', '00', '00', LOCK),
      v1LockTimeShort: tx('01000000', '01', IN, '01', out, 'ff0000'),
      v1TrailingBytes: tx('01000000', '01', IN, '01', out, LOCK, 'ffff'),
      // Zero bytes after a transaction, which a wrong count of empty shielded bytes would swallow.
      v1TrailingZero: tx('01000000', '00', '00', LOCK, '00'),
      v2TrailingZeros: tx('02000000', '00', '00', LOCK, '00', '0000'),
      v3TrailingZeros: tx('030000807082c403', '01', IN, '01', out, LOCK_EXPIRY, '00', '0000'),
      v4TrailingZeros: tx(V4, '01', IN, '01', out, LOCK_EXPIRY, V4_EMPTY_TAIL, '0000'),
      v5TrailingZeros: tx(V5, NU5_BRANCH, LOCK_EXPIRY, '01', IN, '01', out, '000000', '0000'),
      v1ThreeByteOutputCount: tx('01000000', '01', IN, 'fdfd00', out.repeat(0xfd), LOCK),
      v1ValueAboveMaxMoney: tx('01000000', '01', IN, '01', OUT('0140075af0750700'), LOCK),
      version0: tx('00000000', '01', IN, '01', out, LOCK),
      v2: tx('02000000', '01', IN, '01', out, LOCK, '00'),
      v2JoinSplitCountMissing: tx('02000000', '01', IN, '01', out, LOCK),
      v2JoinSplitCut: tx('02000000', '01', IN, '01', out, LOCK, '01', '00'.repeat(100)),
      v2JoinSplitVpubOutOfRange: realV2WithVpubOld('ffffffffffffffff'),
      v2JoinSplitVpubAtMaxMoney: realV2WithVpubOld('0040075af0750700'),
      notOverwinteredVersion3: tx('03000000', '01', IN, '01', out, LOCK, '00'),
      notOverwinteredVersion7fffffff: tx('ffffff7f', '01', IN, '01', out, LOCK, '00'),
      overwinteredVersion1: tx('010000807082c403', '01', IN, '01', out, LOCK_EXPIRY, '00'),
    };
    const verdict = (o: Outcome) => ('ok' in o ? 'ok' : o.error[0]);
    const verdicts = Object.fromEntries(Object.entries(cases).map(([name, b]) => [name, verdict(agree(b))]));
    const general = Object.entries(cases)
      .filter(([, b]) => pathTaken(b) === 'general')
      .map(([name]) => name);
    // The cases the quick path leaves to the general readers, by name; every other case it decides.
    expect(general).toEqual([
      'nonCanonicalScriptLength',
      'fiveByteInputCount',
      'fiveByteCanonicalScript',
      'countBeyondData',
      'valueAtMaxMoney',
      'valueAboveMaxMoney',
      'negativeValue',
      'v5HeaderOnly',
      'zfuture',
      'wrongGroupId',
      'v5UnknownBranchCutInInputs',
      'valueNegativeTopByteOnly',
      'nonCanonicalInputCount',
      'inputCountCut',
      'v1LockTimeShort',
      'v1ValueAboveMaxMoney',
      'version0',
      'overwinteredVersion1',
    ]);
    // What each case is, so the table above cannot quietly stop testing what it names.
    expect(verdicts).toEqual({
      plain: 'ok',
      threeByteScriptLength: 'ok',
      nonCanonicalScriptLength: 'non-canonical-compactsize',
      fiveByteInputCount: 'end-of-data',
      fiveByteCanonicalScript: 'ok',
      countBeyondData: 'end-of-data',
      valueAtMaxMoney: 'ok',
      valueAboveMaxMoney: 'invalid-tx-format',
      negativeValue: 'invalid-tx-format',
      valueBalanceNonZero: 'invalid-sapling-v4',
      saplingCountNonZero: 'end-of-data',
      joinSplitCountNonZero: 'end-of-data',
      tailShort: 'end-of-data',
      trailingBytes: 'ok',
      noInputsNoOutputs: 'ok',
      v3: 'ok',
      v3WithJoinSplitCount: 'end-of-data',
      v5: 'ok',
      v5UnknownBranch: 'invalid-tx-format',
      v5OrchardCount: 'end-of-data',
      v5SaplingSpendCount: 'end-of-data',
      v5HeaderOnly: 'end-of-data',
      zfuture: 'invalid-tx-format',
      wrongGroupId: 'unknown-tx-format',
      v5UnknownBranchCutInInputs: 'end-of-data',
      v5UnknownBranchOrchardCount: 'end-of-data',
      v5UnknownBranchTailShort: 'end-of-data',
      valueJustBelow2To48: 'ok',
      valueAtSevenTimes2To40: 'ok',
      valueNegativeTopByteOnly: 'invalid-tx-format',
      threeByteInputCount: 'ok',
      nonCanonicalInputCount: 'non-canonical-compactsize',
      inputCountCut: 'end-of-data',
      v3TrailingBytes: 'ok',
      v5TrailingBytes: 'ok',
      v5HighLockAndExpiry: 'ok',
      v5ThreeByteCounts: 'ok',
      v3HighLockAndExpiry: 'ok',
      v3ThreeByteCounts: 'ok',
      v1: 'ok',
      v1Smallest: 'ok',
      v1LockTimeShort: 'end-of-data',
      v1TrailingBytes: 'ok',
      v1TrailingZero: 'ok',
      v2TrailingZeros: 'ok',
      v3TrailingZeros: 'ok',
      v4TrailingZeros: 'ok',
      v5TrailingZeros: 'ok',
      v1ThreeByteOutputCount: 'ok',
      v1ValueAboveMaxMoney: 'invalid-tx-format',
      version0: 'invalid-tx-format',
      v2: 'ok',
      v2JoinSplitCountMissing: 'end-of-data',
      v2JoinSplitCut: 'end-of-data',
      v2JoinSplitVpubOutOfRange: 'invalid-tx-format',
      v2JoinSplitVpubAtMaxMoney: 'ok',
      notOverwinteredVersion3: 'ok',
      notOverwinteredVersion7fffffff: 'ok',
      overwinteredVersion1: 'unknown-tx-format',
    });
  });
});
