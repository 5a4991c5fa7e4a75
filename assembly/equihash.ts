// Equihash's BLAKE2b digests, many indices a call, two at a time (blake2b-x2.ts).
//
// Every index of a header hashes the same input followed by its 4-byte counter, so prepare()
// compresses the input's full blocks once, and digests() compresses only each counter's last
// block: the input's tail, the counter, zero padding. Counters go in pairs through the two lanes.

import { H2, M2, compressBoth, initBoth, interleave } from './blake2b/blake2b-x2';

/**
 * Most counters one digests() call takes: the verifier hashes a batch ahead of its walk, and a
 * solution that fails early should not have paid for every leaf's digest.
 */
export const MAX_COUNTERS = 64;

/** The 16-byte personalization prepare() uses, written by the host. */
export const PERSONAL: usize = memory.data(16, 16);
/** Counters (u32) for digests(), written by the host. */
export const COUNTERS: usize = memory.data(4 * MAX_COUNTERS, 16);
/** digests() output: the digest of COUNTERS[j] at OUT + 64·j (its first digestLength bytes). */
export const OUT: usize = memory.data(64 * MAX_COUNTERS, 16);

/** Both lanes' chaining value after the input's full blocks. */
const MID: usize = memory.data(128, 16);
/** The last block with the input's tail and a zero counter. */
const LAST: usize = memory.data(128, 16);
/** The last block interleaved with itself: M2's starting point for every pair. */
const LAST2: usize = memory.data(256, 16);

/** Where the counter lies in the last block, and the message's length with it. */
let counterAt: i32 = 0;
let total: u64 = 0;

/** The first free byte after the static data: where the host writes the input. */
export function inputPointer(): usize {
  return (__heap_base + 15) & ~<usize>15;
}

/**
 * Starts the digests of the `length`-byte input at inputPointer() ‖ le32(counter), BLAKE2b with
 * a `digestLength`-byte digest (1..64) and the personalization at PERSONAL.
 */
export function prepare(length: i32, digestLength: i32): void {
  initBoth(digestLength, load<u64>(PERSONAL), load<u64>(PERSONAL, 8));
  const input = inputPointer();
  // Every full block is followed by at least the counter, so none of them is the last.
  let offset = 0;
  while (length - offset + 4 > 128) {
    interleave(input + <usize>offset, input + <usize>offset);
    offset += 128;
    compressBoth(<u64>offset, false);
  }
  memory.copy(MID, H2, 128);
  const tail = length - offset;
  memory.fill(LAST, 0, 128);
  memory.copy(LAST, input + <usize>offset, <usize>tail);
  interleave(LAST, LAST);
  memory.copy(LAST2, M2, 256);
  counterAt = tail;
  total = <u64>length + 4;
}

/** Writes `counter` as little-endian bytes `counterAt`.. of one lane's last block in M2. */
function setCounter(lane: i32, counter: u32): void {
  const inWord = counterAt & 7;
  const word = M2 + <usize>(16 * (counterAt >> 3) + 8 * lane);
  if (inWord <= 4) {
    store<u32>(word + <usize>inWord, counter);
  } else {
    // The counter straddles two message words, 16 bytes apart in M2.
    for (let i = 0; i < 4; i++) {
      const at = inWord + i;
      store<u8>(word + <usize>(at < 8 ? at : at + 8), <u8>(counter >> (8 * i)));
    }
  }
}

/** Stores one lane of H2 (all 64 bytes) at `out`. */
function storeLane(lane: i32, out: usize): void {
  for (let i = 0; i < 8; i++) store<u64>(out + <usize>(8 * i), load<u64>(H2 + <usize>(16 * i + 8 * lane)));
}

/** The digests of COUNTERS[0..count) (count ≤ MAX_COUNTERS) into OUT. */
export function digests(count: i32): void {
  // compressBoth only reads M2, so between pairs only the counters change; small fixed copies
  // are written as vector moves (memory.copy is a call into the engine).
  for (let i = 0; i < 256; i += 16) v128.store(M2 + <usize>i, v128.load(LAST2 + <usize>i));
  for (let j = 0; j < count; j += 2) {
    for (let i = 0; i < 128; i += 16) v128.store(H2 + <usize>i, v128.load(MID + <usize>i));
    const second = j + 1 < count;
    setCounter(0, load<u32>(COUNTERS + <usize>(4 * j)));
    setCounter(1, second ? load<u32>(COUNTERS + <usize>(4 * j + 4)) : 0);
    compressBoth(total, true);
    storeLane(0, OUT + <usize>(64 * j));
    if (second) storeLane(1, OUT + <usize>(64 * j + 64));
  }
}
