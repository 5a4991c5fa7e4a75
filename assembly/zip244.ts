// The whole ZIP-244 digest tree of one v5 transaction, or ZIP-229 tree of one v6 transaction
// (txid and/or auth digest), in one call.
//
// The host copies the serialized transaction to inputPointer() and calls digests(). The layout
// of a v5 transaction (ZIP-225) or a v6 one (ZIP 229: v5's, then an Ironwood bundle) fixes where every hashed field lies once the CompactSize counts
// and script lengths are known, so the module walks those itself rather than receiving an offset
// per field: the host would spend more time collecting offsets than this walk takes. The walk
// must end exactly at the last byte, else the call reports a mismatch and the host uses its
// field-by-field path; the host only passes bytes its decoder has already accepted.

import { absorb, begin, finish } from './blake2b/blake2b';

// Personalizations, 16 bytes each, in TAGS at index × 16.
const T_HEADERS = 0;
const T_TRANSPARENT = 1;
const T_PREVOUTS = 2;
const T_SEQUENCE = 3;
const T_OUTPUTS = 4;
const T_SAPLING = 5;
const T_SSPENDS = 6;
const T_SSPEND_C = 7;
const T_SSPEND_N = 8;
const T_SOUTPUTS = 9;
const T_SOUT_C = 10;
const T_SOUT_M = 11;
const T_SOUT_N = 12;
const T_ORCHARD = 13;
const T_ORC_C = 14;
const T_ORC_M = 15;
const T_ORC_N = 16;
const T_AUTH_TRANS = 17;
const T_AUTH_SAPLING = 18;
const T_AUTH_ORCHARD = 19;
// v6 (ZIP 229): the nodes whose input changed when the anchors moved to the auth digest, and the
// Ironwood component's own.
const T_SSPEND_N_V6 = 20;
const T_AUTH_SAPLING_V6 = 21;
const T_ORCHARD_V6 = 22;
const T_AUTH_ORCHARD_V6 = 23;
const T_IRONWOOD = 24;
const T_IRN_C = 25;
const T_IRN_M = 26;
const T_IRN_N = 27;
const T_AUTH_IRONWOOD = 28;
const TAG_COUNT = 29;

const TAGS: usize = memory.data(16 * TAG_COUNT, 16);
/** BLAKE2b-256 of empty input under each tag: ZIP-244's digest of an absent part. */
const EMPTY: usize = memory.data(32 * TAG_COUNT, 16);

function setTag(index: i32, tag: string): void {
  const at = TAGS + <usize>(16 * index);
  for (let i = 0; i < 16; i++) store<u8>(at + <usize>i, <u8>tag.charCodeAt(i));
}

setTag(T_HEADERS, 'ZTxIdHeadersHash');
setTag(T_TRANSPARENT, 'ZTxIdTranspaHash');
setTag(T_PREVOUTS, 'ZTxIdPrevoutHash');
setTag(T_SEQUENCE, 'ZTxIdSequencHash');
setTag(T_OUTPUTS, 'ZTxIdOutputsHash');
setTag(T_SAPLING, 'ZTxIdSaplingHash');
setTag(T_SSPENDS, 'ZTxIdSSpendsHash');
setTag(T_SSPEND_C, 'ZTxIdSSpendCHash');
setTag(T_SSPEND_N, 'ZTxIdSSpendNHash');
setTag(T_SOUTPUTS, 'ZTxIdSOutputHash');
setTag(T_SOUT_C, 'ZTxIdSOutC__Hash');
setTag(T_SOUT_M, 'ZTxIdSOutM__Hash');
setTag(T_SOUT_N, 'ZTxIdSOutN__Hash');
setTag(T_ORCHARD, 'ZTxIdOrchardHash');
setTag(T_ORC_C, 'ZTxIdOrcActCHash');
setTag(T_ORC_M, 'ZTxIdOrcActMHash');
setTag(T_ORC_N, 'ZTxIdOrcActNHash');
setTag(T_AUTH_TRANS, 'ZTxAuthTransHash');
setTag(T_AUTH_SAPLING, 'ZTxAuthSapliHash');
setTag(T_AUTH_ORCHARD, 'ZTxAuthOrchaHash');
setTag(T_SSPEND_N_V6, 'ZTxIdSSpendNH_v6');
setTag(T_AUTH_SAPLING_V6, 'ZTxAuthSapliH_v6');
setTag(T_ORCHARD_V6, 'ZTxIdOrchardH_v6');
setTag(T_AUTH_ORCHARD_V6, 'ZTxAuthOrchaH_v6');
setTag(T_IRONWOOD, 'ZTxIdIronwd_H_v6');
setTag(T_IRN_C, 'ZTxIdIrnActCH_v6');
setTag(T_IRN_M, 'ZTxIdIrnActMH_v6');
setTag(T_IRN_N, 'ZTxIdIrnActNH_v6');
setTag(T_AUTH_IRONWOOD, 'ZTxAuthIrnwdH_v6');

function beginTag(tag: i32): void {
  const at = TAGS + <usize>(16 * tag);
  begin(load<u64>(at), load<u64>(at, 8));
}

for (let t = 0; t < TAG_COUNT; t++) {
  beginTag(t);
  finish(EMPTY + <usize>(32 * t));
}

function copyEmpty(tag: i32, out: usize): void {
  memory.copy(out, EMPTY + <usize>(32 * tag), 32);
}

/** Personalizations of the two roots: 12 ASCII bytes, then the consensus branch id. */
const ROOT_TAGS: usize = memory.data(32, 16);
const ROOT_TXID: usize = ROOT_TAGS;
const ROOT_AUTH: usize = ROOT_TAGS + 16;
for (let i = 0; i < 12; i++) {
  store<u8>(ROOT_TXID + <usize>i, <u8>'ZcashTxHash_'.charCodeAt(i));
  store<u8>(ROOT_AUTH + <usize>i, <u8>'ZTxAuthHash_'.charCodeAt(i));
}

function beginRoot(tag: usize, branchId: u32): void {
  begin(load<u64>(tag), (load<u64>(tag, 8) & 0xffffffff) | (<u64>branchId << 32));
}

/** Wanted roots (the `want` bit set of digests()). */
export const WANT_TXID = 1;
export const WANT_AUTH = 2;

/** Where digests() writes the txid (bytes 0..31) and the auth digest (32..63). */
export const OUTPUT: usize = memory.data(64, 16);

/**
 * Sub-digests, laid out so that each parent's input is one contiguous run:
 * header ‖ transparent ‖ sapling ‖ orchard is the txid's input, prevouts ‖ sequence ‖ outputs
 * the transparent digest's, and so on.
 */
const DIGEST_SLOTS = 19;
const D: usize = memory.data(32 * DIGEST_SLOTS, 16);
const D_HEADER = D;
const D_TRANSPARENT = D + 32;
const D_SAPLING = D + 64;
const D_ORCHARD = D + 96;
const D_PREVOUTS = D + 128;
const D_SEQUENCE = D + 160;
const D_OUTPUTS = D + 192;
const D_SSPENDS = D + 224;
const D_SOUTPUTS = D + 256;
const D_SSPEND_C = D + 288;
const D_SSPEND_N = D + 320;
const D_PART_C = D + 352; // compact, memos, noncompact: Sapling outputs or Orchard actions
const D_PART_M = D + 384;
const D_PART_N = D + 416;
const D_AUTH_T = D + 448;
const D_AUTH_S = D + 480;
const D_AUTH_O = D + 512;
const D_IRONWOOD = D + 544; // v6 only: hashed after the txid's other four children
const D_AUTH_I = D + 576; // v6 only: after the auth digest's other three; slot 18, the last

const SPEND_BYTES = 96; // cv, nullifier, rk
const OUTPUT_BYTES = 756; // cv, cmu, ephemeralKey, encCiphertext (580), outCiphertext (80)
const ACTION_BYTES = 820; // cv, nullifier, rk, cmx, ephemeralKey, encCiphertext, outCiphertext
const PROOF_BYTES = 192;
const SIG_BYTES = 64;
/** flags (1), valueBalanceOrchard (8), anchorOrchard (32): v5's orchard digest tail, as on the wire. */
const ORCHARD_TAIL_BYTES = 41;
/** flags and value balance: v6's digest tail (its anchor is authorizing data). */
const V6_TAIL_BYTES = 9;
const ANCHOR_BYTES = 32;

/** The first free byte after the static data: where the host writes the transaction. */
export function inputPointer(): usize {
  return (__heap_base + 15) & ~<usize>15;
}

// The walk over the input (offsets relative to `base`). `bad` records any overrun.
let base: usize = 0;
let pos: i64 = 0;
let end: i64 = 0;
let bad = false;

function need(n: i64): bool {
  if (n < 0 || end - pos < n) bad = true;
  return !bad;
}

/**
 * A CompactSize at `pos` (count or length). Nothing it counts can exceed the input's size, so a
 * larger value is a mismatch; that also keeps every later product of counts and sizes in i64.
 */
function compactSize(): i64 {
  if (!need(1)) return 0;
  const first = load<u8>(base + <usize>pos);
  let v: u64;
  if (first < 0xfd) {
    pos += 1;
    return <i64>first;
  } else if (first == 0xfd) {
    if (!need(3)) return 0;
    v = <u64>load<u16>(base + <usize>pos, 1);
    pos += 3;
  } else if (first == 0xfe) {
    if (!need(5)) return 0;
    v = <u64>load<u32>(base + <usize>pos, 1);
    pos += 5;
  } else {
    if (!need(9)) return 0;
    v = load<u64>(base + <usize>pos, 1);
    pos += 9;
  }
  if (v > <u64>end) {
    bad = true;
    return 0;
  }
  return <i64>v;
}

function skip(n: i64): void {
  if (need(n)) pos += n;
}

/**
 * A CompactSize the walk has already read: its value, and its own size in `sizeLength`. The
 * walk refused any value beyond the input's size, so it fits in 32 bits whatever the encoding.
 */
let sizeLength: i32 = 0;
function knownCompactSize(at: usize): i32 {
  const first = load<u8>(at);
  if (first < 0xfd) {
    sizeLength = 1;
    return first;
  }
  if (first == 0xfd) {
    sizeLength = 3;
    return load<u16>(at, 1);
  }
  sizeLength = first == 0xfe ? 5 : 9;
  return load<u32>(at, 1);
}

function ptr(offset: i64): usize {
  return base + <usize>offset;
}

/** One Orchard-protocol bundle's place in the input, found by walkBundle(). */
let bundleActions: i64 = 0;
let bundleActionsAt: i64 = 0;
let bundleTailAt: i64 = 0;
let bundleAuthAt: i64 = 0;
let bundleAuthEnd: i64 = 0;

/** Walks an Orchard-protocol bundle (v5's or v6's Orchard component, v6's Ironwood one) at `pos`. */
function walkBundle(): void {
  bundleActions = compactSize();
  bundleActionsAt = pos;
  bundleTailAt = 0;
  bundleAuthAt = 0;
  if (bundleActions > 0) {
    skip(bundleActions * ACTION_BYTES);
    bundleTailAt = pos;
    skip(ORCHARD_TAIL_BYTES);
    const proofLength = compactSize();
    bundleAuthAt = pos;
    skip(proofLength + bundleActions * SIG_BYTES + SIG_BYTES);
  }
  bundleAuthEnd = pos;
}

/**
 * The txid digest of an Orchard-protocol bundle into `out`: its actions' three digests under
 * `tagC`, `tagC + 1`, `tagC + 2`, then `tailBytes` of flags, value balance (and in v5 anchor).
 */
function bundleDigest(nActions: i64, actionsAt: i64, tailAt: i64, tag: i32, tagC: i32, tailBytes: i32, out: usize): void {
  if (nActions == 0) {
    copyEmpty(tag, out);
    return;
  }
  const first = ptr(actionsAt);
  const last = first + <usize>(nActions * ACTION_BYTES);
  beginTag(tagC);
  for (let a = first; a < last; a += ACTION_BYTES) {
    absorb(a + 32, 32); // nullifier
    absorb(a + 96, 116); // cmx, epk, enc[0..52]
  }
  finish(D_PART_C);
  beginTag(tagC + 1);
  for (let a = first; a < last; a += ACTION_BYTES) absorb(a + 212, 512); // enc[52..564]
  finish(D_PART_M);
  beginTag(tagC + 2);
  for (let a = first; a < last; a += ACTION_BYTES) {
    absorb(a, 32); // cv
    absorb(a + 64, 32); // rk
    absorb(a + 724, 96); // enc[564..580], outCiphertext
  }
  finish(D_PART_N);
  beginTag(tag);
  absorb(D_PART_C, 96);
  absorb(ptr(tailAt), tailBytes);
  finish(out);
}

/**
 * The auth digest of an Orchard-protocol bundle into `out`: the proof (without its length), the
 * signatures and the binding signature, which lie in that order, then in v6 the anchor.
 */
function bundleAuthDigest(nActions: i64, tailAt: i64, authAt: i64, authEnd: i64, tag: i32, withAnchor: bool, out: usize): void {
  if (nActions == 0) {
    copyEmpty(tag, out);
    return;
  }
  beginTag(tag);
  absorb(ptr(authAt), <i32>(authEnd - authAt));
  if (withAnchor) absorb(ptr(tailAt + V6_TAIL_BYTES), ANCHOR_BYTES);
  finish(out);
}

/**
 * Hashes the v5 or v6 transaction (by its header's version) of `length` bytes at
 * inputPointer(): the txid into OUTPUT[0..32] if `want` has WANT_TXID, the auth digest into
 * OUTPUT[32..64] if it has WANT_AUTH (both in internal byte order). Returns 0, or -1 when the
 * bytes are not exactly one v5 or v6 layout.
 */
export function digests(length: i32, want: i32): i32 {
  base = inputPointer();
  pos = 20; // header, version group, branch id, lock time, expiry height
  end = length;
  bad = length < 20;
  const v6 = !bad && (load<u32>(base) & 0x7fffffff) == 6;

  const nIn = compactSize();
  const vinAt = pos;
  for (let i: i64 = 0; i < nIn && !bad; i++) {
    skip(36);
    skip(compactSize() + 4);
  }
  const nOut = compactSize();
  const voutAt = pos;
  for (let i: i64 = 0; i < nOut && !bad; i++) {
    skip(8);
    skip(compactSize());
  }
  const voutEnd = pos;

  const nSpends = compactSize();
  const spendsAt = pos;
  skip(nSpends * SPEND_BYTES);
  const nOutputs = compactSize();
  const outputsAt = pos;
  skip(nOutputs * OUTPUT_BYTES);
  const anySapling = nSpends + nOutputs > 0;
  const saplingBalanceAt = pos;
  if (anySapling) skip(8);
  const anchorAt = pos;
  if (nSpends > 0) skip(32);
  const saplingAuthAt = pos;
  skip(nSpends * (PROOF_BYTES + SIG_BYTES) + nOutputs * PROOF_BYTES);
  if (anySapling) skip(SIG_BYTES);
  const saplingAuthEnd = pos;

  walkBundle();
  const nActions = bundleActions;
  const actionsAt = bundleActionsAt;
  const orchardTailAt = bundleTailAt;
  const orchardAuthAt = bundleAuthAt;
  const orchardAuthEnd = bundleAuthEnd;
  let nIronwood: i64 = 0;
  if (v6) {
    walkBundle();
    nIronwood = bundleActions;
  }
  if (bad || pos != end) return -1;

  const branchId = load<u32>(base, 8);
  if (want & WANT_TXID) {
    beginTag(T_HEADERS);
    absorb(base, 20);
    finish(D_HEADER);

    if (nIn == 0 && nOut == 0) {
      copyEmpty(T_TRANSPARENT, D_TRANSPARENT);
    } else {
      beginTag(T_PREVOUTS);
      let at = ptr(vinAt);
      for (let i: i64 = 0; i < nIn; i++) {
        absorb(at, 36);
        const scriptLength = knownCompactSize(at + 36);
        at += 36 + <usize>sizeLength + <usize>scriptLength + 4;
      }
      finish(D_PREVOUTS);
      beginTag(T_SEQUENCE);
      at = ptr(vinAt);
      for (let i: i64 = 0; i < nIn; i++) {
        const scriptLength = knownCompactSize(at + 36);
        at += 36 + <usize>sizeLength + <usize>scriptLength;
        absorb(at, 4);
        at += 4;
      }
      finish(D_SEQUENCE);
      // The outputs' serialization (value ‖ CompactSize ‖ script, each) is exactly the input.
      beginTag(T_OUTPUTS);
      absorb(ptr(voutAt), <i32>(voutEnd - voutAt));
      finish(D_OUTPUTS);
      beginTag(T_TRANSPARENT);
      absorb(D_PREVOUTS, 96);
      finish(D_TRANSPARENT);
    }

    if (!anySapling) {
      copyEmpty(T_SAPLING, D_SAPLING);
    } else {
      if (nSpends == 0) {
        copyEmpty(T_SSPENDS, D_SSPENDS);
      } else {
        beginTag(T_SSPEND_C);
        for (let s = ptr(spendsAt), e = s + <usize>(nSpends * SPEND_BYTES); s < e; s += SPEND_BYTES) absorb(s + 32, 32);
        finish(D_SSPEND_C);
        beginTag(v6 ? T_SSPEND_N_V6 : T_SSPEND_N);
        for (let s = ptr(spendsAt), e = s + <usize>(nSpends * SPEND_BYTES); s < e; s += SPEND_BYTES) {
          absorb(s, 32); // cv
          if (!v6) absorb(ptr(anchorAt), 32); // v5: the shared anchor, per spend
          absorb(s + 64, 32); // rk
        }
        finish(D_SSPEND_N);
        beginTag(T_SSPENDS);
        absorb(D_SSPEND_C, 64);
        finish(D_SSPENDS);
      }
      if (nOutputs == 0) {
        copyEmpty(T_SOUTPUTS, D_SOUTPUTS);
      } else {
        const first = ptr(outputsAt);
        const last = first + <usize>(nOutputs * OUTPUT_BYTES);
        beginTag(T_SOUT_C);
        for (let o = first; o < last; o += OUTPUT_BYTES) absorb(o + 32, 116); // cmu, epk, enc[0..52]
        finish(D_PART_C);
        beginTag(T_SOUT_M);
        for (let o = first; o < last; o += OUTPUT_BYTES) absorb(o + 148, 512); // enc[52..564]
        finish(D_PART_M);
        beginTag(T_SOUT_N);
        for (let o = first; o < last; o += OUTPUT_BYTES) {
          absorb(o, 32); // cv
          absorb(o + 660, 96); // enc[564..580], outCiphertext
        }
        finish(D_PART_N);
        beginTag(T_SOUTPUTS);
        absorb(D_PART_C, 96);
        finish(D_SOUTPUTS);
      }
      beginTag(T_SAPLING);
      absorb(D_SSPENDS, 64); // spends ‖ outputs
      absorb(ptr(saplingBalanceAt), 8);
      finish(D_SAPLING);
    }

    if (v6) {
      bundleDigest(nActions, actionsAt, orchardTailAt, T_ORCHARD_V6, T_ORC_C, V6_TAIL_BYTES, D_ORCHARD);
      bundleDigest(nIronwood, bundleActionsAt, bundleTailAt, T_IRONWOOD, T_IRN_C, V6_TAIL_BYTES, D_IRONWOOD);
    } else {
      bundleDigest(nActions, actionsAt, orchardTailAt, T_ORCHARD, T_ORC_C, ORCHARD_TAIL_BYTES, D_ORCHARD);
    }

    beginRoot(ROOT_TXID, branchId);
    absorb(D_HEADER, 128);
    if (v6) absorb(D_IRONWOOD, 32);
    finish(OUTPUT);
  }

  if (want & WANT_AUTH) {
    beginTag(T_AUTH_TRANS);
    let at = ptr(vinAt);
    for (let i: i64 = 0; i < nIn; i++) {
      const scriptLength = knownCompactSize(at + 36);
      absorb(at + 36, sizeLength + scriptLength); // CompactSize ‖ scriptSig
      at += 36 + <usize>sizeLength + <usize>scriptLength + 4;
    }
    finish(D_AUTH_T);
    // Spend proofs, spend signatures, output proofs and the binding signature lie in that order.
    const saplingAuthTag = v6 ? T_AUTH_SAPLING_V6 : T_AUTH_SAPLING;
    if (!anySapling) {
      copyEmpty(saplingAuthTag, D_AUTH_S);
    } else {
      beginTag(saplingAuthTag);
      absorb(ptr(saplingAuthAt), <i32>(saplingAuthEnd - saplingAuthAt));
      if (v6 && nSpends > 0) absorb(ptr(anchorAt), 32); // v6: the anchor is authorizing data
      finish(D_AUTH_S);
    }
    if (v6) {
      bundleAuthDigest(nActions, orchardTailAt, orchardAuthAt, orchardAuthEnd, T_AUTH_ORCHARD_V6, true, D_AUTH_O);
      bundleAuthDigest(nIronwood, bundleTailAt, bundleAuthAt, bundleAuthEnd, T_AUTH_IRONWOOD, true, D_AUTH_I);
    } else {
      bundleAuthDigest(nActions, orchardTailAt, orchardAuthAt, orchardAuthEnd, T_AUTH_ORCHARD, false, D_AUTH_O);
    }
    beginRoot(ROOT_AUTH, branchId);
    absorb(D_AUTH_T, 96);
    if (v6) absorb(D_AUTH_I, 32);
    finish(OUTPUT + 32);
  }
  return 0;
}

/**
 * BLAKE2b-256 of `length` bytes at `input`, personalised with the 16 bytes at `personal`, into
 * `out`: the hash core on its own, for tests against a reference implementation.
 */
export function personalHash(input: usize, length: i32, personal: usize, out: usize): void {
  begin(load<u64>(personal), load<u64>(personal, 8));
  absorb(input, length);
  finish(out);
}
