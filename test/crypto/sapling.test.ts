// MerkleCRH^Sapling: generators, empty roots, zcashd's depth-4 test vectors and the real chain,
// for the pure BigInt reference and the WebAssembly hasher alike.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import {
  DEFAULT_WINDOW_CHUNKS,
  FastSaplingHasher,
  SAPLING_HASHER,
  chooseSaplingHasher,
  pedersenBase,
  saplingMerkleHash,
  withTreeDepth,
} from '../../src/crypto/sapling/index.js';
import { JUBJUB_Q } from '../../src/crypto/sapling/generators.js';
import type { MerkleHasher } from '../../src/state/trees/hasher.js';
import { IncrementalMerkleTree } from '../../src/state/trees/incremental.js';
import { readHexVector, readJsonVector } from '../support/vectors.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const fromHex = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));
/** uint256S / GetHex strings are the internal bytes reversed. */
const fromReversedHex = (h: string): Uint8Array => fromHex(h).reverse();

interface RootEntry {
  network: string;
  height: number;
  pool: string;
  internal_hex: string;
}
interface RootsFile {
  roots: RootEntry[];
  sapling_treestates: { network: string; height: number; final_state_hex: string }[];
  empty_roots: { sapling_empty_root_depth32: { internal_hex: string } };
}
const roots = readJsonVector<RootsFile>('roots.json');

function saplingRoot(height: number): string {
  const entry = roots.roots.find((r) => r.network === 'mainnet' && r.pool === 'sapling' && r.height === height);
  if (entry === undefined) throw new Error(`roots.json has no mainnet Sapling root at ${height}`);
  return entry.internal_hex;
}

function blockCmus(height: number): Uint8Array[] {
  const block = decodeBlock(readHexVector('blocks', 'mainnet', `${height}.hex`));
  return block.transactions.flatMap((tx) => (tx.data.sapling?.outputs ?? []).map((o) => o.cmu));
}

function headerCommitments(height: number): string {
  return hex(decodeBlock(readHexVector('blocks', 'mainnet', `${height}.hex`)).header.commitments);
}

describe('choosing the hasher', () => {
  it('ZECRPC_PURE_TREES=1 selects the pure hasher, otherwise the WebAssembly one', () => {
    const pure = chooseSaplingHasher({ ZECRPC_PURE_TREES: '1' });
    expect(pure.kind).toBe('pure');
    expect(pure.hasher).toBe(SAPLING_HASHER);
    const wasm = chooseSaplingHasher({});
    expect(wasm.kind).toBe('wasm');
    expect(wasm.hasher).toBeInstanceOf(FastSaplingHasher);
    expect(wasm.fallbackReason).toBeUndefined();
  });
});

describe('Pedersen hash bases', () => {
  it('I_1..I_3 = FindGroupHash^J("Zcash_PH", i − 1) match sapling_generators.json pb0..pb2', () => {
    const rows = readJsonVector<string[][]>('zip', 'json', 'sapling_generators.json');
    const columns = rows[1]![0]!.split(',').map((c) => c.trim());
    const vector = rows[2]!;
    for (let i = 0; i < 3; i++) {
      expect(hex(pedersenBase(i + 1).toBytes())).toBe(vector[columns.indexOf(`pb${i}`)]);
    }
  });
});

// One instance for the whole file: its tables take ≈ 0.5 s to build.
const fast = new FastSaplingHasher();

const hashers: [string, MerkleHasher][] = [
  ['pure', SAPLING_HASHER],
  ['wasm', fast],
];

describe.each(hashers)('%s hasher', (_name, hasher) => {
  it('has depth 32 and E_0 = Uncommitted = 1', () => {
    expect(hasher.depth).toBe(32);
    expect(hasher.emptyRoots).toHaveLength(33);
    expect(hex(hasher.emptyRoots[0]!)).toBe('01' + '00'.repeat(31));
  });

  it('E_1 and E_32 are the known empty roots', () => {
    expect(hex(hasher.emptyRoots[1]!)).toBe('817de36ab2d57feb077634bca77819c8e0bd298c04f6fed0e6a83cc1356ca155');
    expect(hex(hasher.emptyRoots[32]!)).toBe(roots.empty_roots.sapling_empty_root_depth32.internal_hex);
    expect(hex(hasher.emptyRoots[32]!)).toBe(headerCommitments(419200));
  });

  // The commitments are uint256S strings (reversed); the roots are zcashd's serialization of the
  // root, i.e. internal byte order.
  it('zcashd merkle_roots_sapling.json: all 16 roots of the depth-4 testing tree', () => {
    const commitments = readJsonVector<string[]>('zcashd', 'merkle_commitments_sapling.json');
    const expected = readJsonVector<string[]>('zcashd', 'merkle_roots_sapling.json');
    expect(commitments).toHaveLength(16);
    expect(expected).toHaveLength(16);
    const tree = new IncrementalMerkleTree(withTreeDepth(hasher, 4));
    for (let i = 0; i < 16; i++) {
      tree.append(fromReversedHex(commitments[i]!));
      expect(hex(tree.root()), `root after ${i + 1} leaves`).toBe(expected[i]);
    }
  });

  it('depth-4 roots built bottom-up with empty-subtree padding match too', () => {
    const commitments = readJsonVector<string[]>('zcashd', 'merkle_commitments_sapling.json').map(fromReversedHex);
    const expected = readJsonVector<string[]>('zcashd', 'merkle_roots_sapling.json');
    for (let n = 1; n <= 16; n++) {
      let level = commitments.slice(0, n);
      for (let h = 0; h < 4; h++) {
        if (level.length % 2 === 1) level.push(hasher.emptyRoots[h]!);
        const pairs = new Uint8Array(32 * level.length);
        level.forEach((node, i) => pairs.set(node, 32 * i));
        const out = hasher.combineMany(h, pairs, level.length / 2);
        level = Array.from({ length: level.length / 2 }, (_, i) => out.subarray(32 * i, 32 * i + 32));
      }
      expect(hex(level[0]!), `root of ${n} leaves`).toBe(expected[n - 1]);
    }
  });

  it('mainnet 419201: its 5 output cmus in an empty tree give the header root', () => {
    const cmus = blockCmus(419201);
    expect(cmus).toHaveLength(5);
    const tree = new IncrementalMerkleTree(hasher);
    tree.appendMany(cmus);
    expect(hex(tree.root())).toBe(saplingRoot(419201));
    expect(hex(tree.root())).toBe(headerCommitments(419201));
  });

  it("mainnet 419202: zcashd's treestate at 419201 plus 419202's cmus give the header root", () => {
    const state = roots.sapling_treestates.find((s) => s.network === 'mainnet' && s.height === 419201)!;
    const tree = IncrementalMerkleTree.fromTreeState(hasher, state.final_state_hex);
    expect(hex(tree.root())).toBe(saplingRoot(419201));
    const cmus = blockCmus(419202);
    expect(cmus).toHaveLength(2);
    for (const cmu of cmus) tree.append(cmu);
    expect(hex(tree.root())).toBe(saplingRoot(419202));
    expect(hex(tree.root())).toBe(headerCommitments(419202));
  });

  it('rejects heights outside the tree and nodes that are not 32 bytes', () => {
    const node = new Uint8Array(32);
    expect(() => hasher.combine(32, node, node)).toThrow(RangeError);
    expect(() => hasher.combine(-1, node, node)).toThrow(RangeError);
    expect(() => hasher.combine(0, node, new Uint8Array(31))).toThrow(RangeError);
    expect(() => hasher.combineMany(0, new Uint8Array(64), 2)).toThrow(RangeError);
  });
});

describe('SAPLING_HASHER (one table point per chunk) against the literal definition', () => {
  it('combine = MerkleCRH^Sapling(31 − height) computed segment by segment', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 31 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (height, left, right) => {
          expect(hex(SAPLING_HASHER.combine(height, left, right))).toBe(hex(saplingMerkleHash(31 - height, left, right)));
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('WebAssembly hasher against the reference', () => {
  const fieldElement = fc.bigInt({ min: 0n, max: JUBJUB_Q - 1n }).map(le32);
  const anyBytes = fc.uint8Array({ minLength: 32, maxLength: 32 });

  it('combine = MerkleCRH^Sapling(31 − height) on random field elements', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 31 }), fieldElement, fieldElement, (height, left, right) => {
        expect(hex(fast.combine(height, left, right))).toBe(hex(saplingMerkleHash(31 - height, left, right)));
      }),
      { numRuns: 60 },
    );
  });

  it('uses only the low 255 bits of each child, as the reference does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 31 }), anyBytes, anyBytes, (height, left, right) => {
        const got = fast.combine(height, left, right);
        expect(hex(got)).toBe(hex(SAPLING_HASHER.combine(height, left, right)));
        const l = left.slice(),
          r = right.slice();
        l[31]! ^= 0x80;
        r[31]! ^= 0x80;
        expect(hex(fast.combine(height, l, r))).toBe(hex(got));
      }),
      { numRuns: 20 },
    );
  });

  it("combine(h, left, E_h), which skips the right child's windows, agrees with the reference", () => {
    const empty = SAPLING_HASHER.emptyRoots;
    for (let h = 0; h < 32; h++) {
      expect(hex(fast.combine(h, empty[h]!, empty[h]!)), `E_${h + 1}`).toBe(hex(empty[h + 1]!));
    }
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 31 }), fieldElement, (height, left) => {
        const right = empty[height]!;
        expect(hex(fast.combine(height, left, right))).toBe(hex(saplingMerkleHash(31 - height, left, right)));
        // The same right child one height off is not empty there: the full path must run.
        const other = (height + 1) % 32;
        expect(hex(fast.combine(other, left, right))).toBe(hex(saplingMerkleHash(31 - other, left, right)));
      }),
      { numRuns: 30 },
    );
  });

  it('combineMany = repeated combine, across batch-size boundaries', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 31 }), fc.integer({ min: 0, max: 40 }), fc.integer(), (height, count, seed) => {
        const pairs = pseudoRandomPairs(count, seed);
        const many = fast.combineMany(height, pairs, count);
        expect(many).toHaveLength(32 * count);
        for (let i = 0; i < count; i++) {
          const one = fast.combine(height, pairs.subarray(64 * i, 64 * i + 32), pairs.subarray(64 * i + 32, 64 * i + 64));
          expect(hex(many.subarray(32 * i, 32 * i + 32))).toBe(hex(one));
        }
      }),
      { numRuns: 30 },
    );
    // More pairs than one call into the module takes (MAX_BATCH = 1024).
    const count = 2500;
    const pairs = pseudoRandomPairs(count, 7);
    const many = fast.combineMany(9, pairs, count);
    for (const i of [0, 1023, 1024, 2047, 2048, 2499]) {
      const one = fast.combine(9, pairs.subarray(64 * i, 64 * i + 32), pairs.subarray(64 * i + 32, 64 * i + 64));
      expect(hex(many.subarray(32 * i, 32 * i + 32)), `pair ${i}`).toBe(hex(one));
    }
    expect(hex(many.subarray(32 * 2048, 32 * 2049))).toBe(
      hex(SAPLING_HASHER.combine(9, pairs.subarray(64 * 2048, 64 * 2048 + 32), pairs.subarray(64 * 2048 + 32, 64 * 2049))),
    );
  });

  it.each([3, 4].filter((c) => c !== DEFAULT_WINDOW_CHUNKS))('window of %i chunks gives the same hashes', (chunks) => {
    const other = new FastSaplingHasher(chunks);
    const pairs = pseudoRandomPairs(50, chunks);
    for (const height of [0, 17, 31]) {
      expect(hex(other.combineMany(height, pairs, 50))).toBe(hex(fast.combineMany(height, pairs, 50)));
    }
  });
});

function le32(value: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0, v = value; i < 32; i++, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

/** Deterministic bytes (xorshift32), so a failing case can be replayed from its seed. */
function pseudoRandomPairs(count: number, seed: number): Uint8Array {
  const out = new Uint8Array(64 * count);
  let s = seed | 0 || 1;
  for (let i = 0; i < out.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s & 0xff;
  }
  return out;
}
