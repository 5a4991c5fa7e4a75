/** Sprout JoinSplit descriptions (JSDescription), read by zcashd's C++ code. */
import type { ByteReader, ByteWriter } from '../bytes.js';
import { DecodeError, IOS_SUFFIX } from '../errors.js';
import { requirePart, type JoinSplit, type SproutProofKind } from './types.js';

export const PHGR_PROOF_SIZE = 296;
export const GROTH16_PROOF_SIZE = 192;
export const NOTE_CIPHERTEXT_SIZE = 601;

/** Reads the 296-byte PHGR (BCTV14) proof: eight compressed points, lead bytes checked. */
function readPhgrProof(r: ByteReader): Uint8Array {
  const start = r.pos;
  // g_A, g_A', g_B (G2), g_B', g_C, g_C', g_K, g_H
  for (let i = 0; i < 8; i++) {
    const leadAt = r.pos;
    const lead = r.u8();
    if (i === 2) {
      if (lead !== 0x0a && lead !== 0x0b) {
        throw new DecodeError('bad-g2-lead-byte', leadAt, `lead byte of G2 point not recognized${IOS_SUFFIX}`);
      }
      r.skip(64);
    } else {
      if (lead !== 0x02 && lead !== 0x03) {
        throw new DecodeError('bad-g1-lead-byte', leadAt, `lead byte of G1 point not recognized${IOS_SUFFIX}`);
      }
      r.skip(32);
    }
  }
  return r.view(start, r.pos);
}

function readJoinSplit(r: ByteReader, proofKind: SproutProofKind): JoinSplit {
  const vpubOldRaw = r.i64();
  const vpubNewRaw = r.i64();
  const anchor = r.bytes(32);
  const nullifiers: [Uint8Array, Uint8Array] = [r.bytes(32), r.bytes(32)];
  const commitments: [Uint8Array, Uint8Array] = [r.bytes(32), r.bytes(32)];
  const ephemeralKey = r.bytes(32);
  const randomSeed = r.bytes(32);
  const macs: [Uint8Array, Uint8Array] = [r.bytes(32), r.bytes(32)];
  const proof = proofKind === 'phgr' ? readPhgrProof(r) : r.bytes(GROTH16_PROOF_SIZE);
  const ciphertexts: [Uint8Array, Uint8Array] = [r.bytes(NOTE_CIPHERTEXT_SIZE), r.bytes(NOTE_CIPHERTEXT_SIZE)];
  return {
    // Values outside ±2^53 can never pass the later range check; NaN keeps that failing.
    vpubOld: typeof vpubOldRaw === 'bigint' ? Number.NaN : vpubOldRaw,
    vpubNew: typeof vpubNewRaw === 'bigint' ? Number.NaN : vpubNewRaw,
    anchor,
    nullifiers,
    commitments,
    ephemeralKey,
    randomSeed,
    macs,
    proofKind,
    proof,
    ciphertexts,
  };
}

export interface JoinSplitSection {
  joinSplits: JoinSplit[];
  joinSplitPubKey: Uint8Array | null;
  joinSplitSig: Uint8Array | null;
}

/**
 * A new, empty JoinSplit list. Every decoded list comes from this one allocation site (the
 * formats and ./transaction.ts call it too), so all of them get the same array map as the ones
 * filled here.
 */
export function newJoinSplitList(): JoinSplit[] {
  return [];
}

/** nJoinSplit, vJoinSplit, and joinSplitPubKey/joinSplitSig when there is at least one. */
export function readJoinSplitSection(r: ByteReader, proofKind: SproutProofKind): JoinSplitSection {
  const n = r.compactSize();
  const joinSplits = newJoinSplitList();
  for (let i = 0; i < n; i++) joinSplits.push(readJoinSplit(r, proofKind));
  if (n === 0) return { joinSplits, joinSplitPubKey: null, joinSplitSig: null };
  const joinSplitPubKey = r.bytes(32);
  const joinSplitSig = r.bytes(64);
  return { joinSplits, joinSplitPubKey, joinSplitSig };
}

export function writeJoinSplitSection(w: ByteWriter, s: JoinSplitSection): void {
  w.compactSize(s.joinSplits.length);
  for (const js of s.joinSplits) {
    w.i64(js.vpubOld).i64(js.vpubNew).bytes(js.anchor);
    w.bytes(js.nullifiers[0]).bytes(js.nullifiers[1]);
    w.bytes(js.commitments[0]).bytes(js.commitments[1]);
    w.bytes(js.ephemeralKey).bytes(js.randomSeed);
    w.bytes(js.macs[0]).bytes(js.macs[1]);
    w.bytes(js.proof);
    w.bytes(js.ciphertexts[0]).bytes(js.ciphertexts[1]);
  }
  if (s.joinSplits.length > 0) {
    w.bytes(requirePart(s.joinSplitPubKey, 'a transaction with JoinSplits', 'joinSplitPubKey'));
    w.bytes(requirePart(s.joinSplitSig, 'a transaction with JoinSplits', 'joinSplitSig'));
  }
}
