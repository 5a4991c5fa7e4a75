/**
 * zcashd's serialized note-commitment tree frontier, as `z_gettreestate` prints it in
 * `commitments.finalState` (hex, values in internal byte order):
 *
 *   Option(left) ‖ Option(right) ‖ CompactSize(n) ‖ n × Option(parent)
 *   Option(x) = 0x00 | 0x01 ‖ x (32 bytes)
 *
 * `parents[i]` is the completed left subtree of height i + 1 waiting for its right sibling.
 *
 * Two parent-list layouts exist in zcashd v6.12.2 and both are valid input:
 * - 'trimmed': the C++ `IncrementalMerkleTree` (Sprout, Sapling). `append` only ever pushes a
 *   parent, so the list ends at the highest occupied level and its last entry is present.
 * - 'padded': Orchard, whose frontier lives in Rust and is printed through
 *   `CommitmentTree::from_frontier` (incrementalmerkletree 0.8), which always emits depth − 1
 *   parents for a non-empty tree, absent ones included. (Zebra prints Sapling this way too.)
 * Both print an empty tree as `000000`.
 */
import { hexToBytesStrict, toHex } from '../../codec/hex.js';

export type ParentsLayout = 'trimmed' | 'padded';

/** The layout zcashd v6.12.2 prints for each pool's `finalState`. */
export const POOL_TREE_STATE_LAYOUT = {
  sprout: 'trimmed',
  sapling: 'trimmed',
  orchard: 'padded',
} as const satisfies Record<'sprout' | 'sapling' | 'orchard', ParentsLayout>;

/** The frontier in zcashd's (left, right, parents) form. */
export interface FrontierParts {
  left: Uint8Array | null;
  right: Uint8Array | null;
  parents: (Uint8Array | null)[];
}

export type TreeStateErrorReason =
  | 'invalid-hex'
  | 'truncated'
  | 'bad-option'
  | 'non-canonical-compactsize'
  | 'too-many-parents'
  | 'right-without-left'
  | 'parents-without-left'
  | 'trailing-bytes';

/** A tree state that is not a well-formed frontier for the hasher's depth. */
export class TreeStateError extends Error {
  constructor(
    readonly reason: TreeStateErrorReason,
    message: string,
  ) {
    super(`invalid tree state: ${message}`);
    this.name = 'TreeStateError';
  }
}

const NODE = 32;

export function encodeTreeState(parts: FrontierParts): Uint8Array {
  const n = parts.parents.length;
  const countLen = n < 0xfd ? 1 : 3;
  let size = optionSize(parts.left) + optionSize(parts.right) + countLen;
  for (const p of parts.parents) size += optionSize(p);
  const out = new Uint8Array(size);
  let at = writeOption(out, 0, parts.left);
  at = writeOption(out, at, parts.right);
  if (n < 0xfd) {
    out[at++] = n;
  } else {
    // Depths stay far below 0x10000, so the 3-byte CompactSize form is the largest needed.
    out[at++] = 0xfd;
    out[at++] = n & 0xff;
    out[at++] = n >>> 8;
  }
  for (const p of parts.parents) at = writeOption(out, at, p);
  return out;
}

export function encodeTreeStateHex(parts: FrontierParts): string {
  return toHex(encodeTreeState(parts));
}

/**
 * Parses and checks a serialized frontier for a tree of `depth` levels. The checks are
 * zcashd's `wfcheck` except that absent trailing parents are accepted (the 'padded' layout).
 * At most depth − 1 parents fit, so a parsed frontier never holds more than 2^depth leaves.
 */
export function decodeTreeState(input: string | Uint8Array, depth: number): FrontierParts {
  let bytes: Uint8Array;
  if (typeof input === 'string') {
    const decoded = hexToBytesStrict(input);
    if (decoded === null) throw new TreeStateError('invalid-hex', 'not an even-length, non-empty hex string');
    bytes = decoded;
  } else {
    bytes = input;
  }
  const reader = { at: 0 };
  const left = readOption(bytes, reader, 'left');
  const right = readOption(bytes, reader, 'right');
  const count = readCompactSize(bytes, reader);
  if (count >= depth) {
    throw new TreeStateError('too-many-parents', `tree has too many parents (${count}; a depth-${depth} tree has at most ${depth - 1})`);
  }
  const parents: (Uint8Array | null)[] = [];
  for (let i = 0; i < count; i++) parents.push(readOption(bytes, reader, `parent ${i}`));
  if (reader.at !== bytes.length) {
    throw new TreeStateError('trailing-bytes', `${bytes.length - reader.at} bytes after the last parent`);
  }
  if (left === null && right !== null) throw new TreeStateError('right-without-left', 'right is present but left is absent');
  if (left === null && parents.some((p) => p !== null)) {
    throw new TreeStateError('parents-without-left', 'a parent is present but left is absent');
  }
  return { left, right, parents };
}

function optionSize(x: Uint8Array | null): number {
  return x === null ? 1 : 1 + NODE;
}

function writeOption(out: Uint8Array, at: number, x: Uint8Array | null): number {
  if (x === null) {
    out[at] = 0;
    return at + 1;
  }
  if (x.length !== NODE) throw new RangeError(`tree node must be ${NODE} bytes, got ${x.length}`);
  out[at] = 1;
  out.set(x, at + 1);
  return at + 1 + NODE;
}

function readOption(bytes: Uint8Array, reader: { at: number }, what: string): Uint8Array | null {
  if (reader.at >= bytes.length) throw new TreeStateError('truncated', `ends before ${what}`);
  const tag = bytes[reader.at]!;
  if (tag === 0) {
    reader.at += 1;
    return null;
  }
  if (tag !== 1) throw new TreeStateError('bad-option', `${what}: option tag 0x${tag.toString(16).padStart(2, '0')} (must be 00 or 01)`);
  if (bytes.length - reader.at < 1 + NODE) throw new TreeStateError('truncated', `ends inside ${what}`);
  // A copy, so the tree never aliases a caller's buffer.
  const value = bytes.slice(reader.at + 1, reader.at + 1 + NODE);
  reader.at += 1 + NODE;
  return value;
}

/** CompactSize with zcashd's canonical-encoding rule. Values ≥ 2^32 cannot be a parent count. */
function readCompactSize(bytes: Uint8Array, reader: { at: number }): number {
  const at = reader.at;
  if (at >= bytes.length) throw new TreeStateError('truncated', 'ends before the parent count');
  const first = bytes[at]!;
  if (first < 0xfd) {
    reader.at += 1;
    return first;
  }
  const width = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
  if (bytes.length - at < 1 + width) throw new TreeStateError('truncated', 'ends inside the parent count');
  let value = 0;
  for (let i = width; i >= 1; i--) value = value * 256 + bytes[at + i]!;
  const minimum = first === 0xfd ? 0xfd : first === 0xfe ? 0x10000 : 0x100000000;
  if (value < minimum) throw new TreeStateError('non-canonical-compactsize', `parent count ${value} is not minimally encoded`);
  reader.at += 1 + width;
  return value;
}
