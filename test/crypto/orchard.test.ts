import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { groupHashP, mapToIsoPallas } from '../../src/crypto/orchard/group-hash.js';
import { FastOrchardHasher, ORCHARD_HASHER } from '../../src/crypto/orchard/hasher.js';
import { merkleCrhAtHeight, ORCHARD_UNCOMMITTED, orchardMerkleHash } from '../../src/crypto/orchard/merkle-crh.js';
import { sinsemillaHash, sinsemillaHashToPoint } from '../../src/crypto/orchard/sinsemilla.js';
import { bigintToLeBytes, encodeAffine, encodePallasPoint, leBytesToBigint, PALLAS_P } from '../../src/crypto/pallas.js';
import type { MerkleHasher } from '../../src/state/trees/hasher.js';
import { readHexVector, readJsonVector } from '../support/vectors.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const bytes = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));
const ascii = (h: string): string => Buffer.from(h, 'hex').toString('latin1');

/** zcash-test-vectors rows: row 0 = provenance, row 1 = column names (json/ = raw little-endian encoding). */
function rows<T>(name: string): T[] {
  return readJsonVector<unknown[]>('zip', 'json', `${name}.json`).slice(2) as T[];
}

/** Root of a depth-`depth` tree whose first leaves are `leaves` and the rest Uncommitted. */
function rootOf(hasher: MerkleHasher, leaves: Uint8Array[], depth: number, emptyRoots: readonly Uint8Array[]): Uint8Array {
  let level = leaves;
  for (let height = 0; height < depth; height++) {
    if (level.length === 0) return emptyRoots[depth]!;
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      next.push(hasher.combine(height, level[i]!, level[i + 1] ?? emptyRoots[height]!));
    }
    level = next;
  }
  return level[0]!;
}

/** E_0..E_4 of the depth-4 testing tree: the same chain as the depth-32 one, cut short. */
function smallEmptyRoots(hasher: MerkleHasher): Uint8Array[] {
  return hasher.emptyRoots.slice(0, 5);
}

const HASHERS: [string, MerkleHasher][] = [
  ['reference', ORCHARD_HASHER],
  ['WebAssembly', new FastOrchardHasher()],
];

describe('Pallas GroupHash and map-to-curve', () => {
  it('map_to_curve_simple_swu onto iso-Pallas matches orchard_map_to_curve.json (13 vectors)', () => {
    const vectors = rows<[string, string]>('orchard_map_to_curve');
    expect(vectors).toHaveLength(13);
    for (const [u, point] of vectors) {
      const { x, y } = mapToIsoPallas(leBytesToBigint(bytes(u)));
      expect(hex(encodeAffine(x, y))).toBe(point);
    }
  });

  it('GroupHash^P matches orchard_group_hash.json (11 vectors)', () => {
    const vectors = rows<[string, string, string]>('orchard_group_hash');
    expect(vectors).toHaveLength(11);
    for (const [domain, msg, point] of vectors) {
      expect(hex(encodePallasPoint(groupHashP(ascii(domain), bytes(msg))))).toBe(point);
    }
  });
});

describe('Sinsemilla', () => {
  it('matches orchard_sinsemilla.json point and hash (11 vectors)', () => {
    const vectors = rows<[string, number[] | string, string, string]>('orchard_sinsemilla');
    expect(vectors).toHaveLength(11);
    for (const [domain, msg, point, hash] of vectors) {
      // The message is a bit list, or hex with one 00/01 byte per bit.
      const bits = typeof msg === 'string' ? [...bytes(msg)] : msg;
      expect(hex(encodePallasPoint(sinsemillaHashToPoint(ascii(domain), bits)!))).toBe(point);
      expect(hex(bigintToLeBytes(sinsemillaHash(ascii(domain), bits)!))).toBe(hash);
    }
  });
});

describe('MerkleCRH^Orchard', () => {
  const emptyRoots = rows<[string[]]>('orchard_empty_roots')[0]![0];

  it('orchardMerkleHash reproduces all 33 empty roots layer by layer', () => {
    expect(emptyRoots).toHaveLength(33);
    expect(hex(ORCHARD_UNCOMMITTED)).toBe(emptyRoots[0]);
    for (let d = 0; d < 32; d++) {
      const e = bytes(emptyRoots[d]!);
      expect(hex(orchardMerkleHash(31 - d, e, e))).toBe(emptyRoots[d + 1]);
    }
  });

  it('rejects layers outside 0..31', () => {
    expect(() => orchardMerkleHash(32, ORCHARD_UNCOMMITTED, ORCHARD_UNCOMMITTED)).toThrow(RangeError);
    expect(() => orchardMerkleHash(-1, ORCHARD_UNCOMMITTED, ORCHARD_UNCOMMITTED)).toThrow(RangeError);
  });

  for (const [name, hasher] of HASHERS) {
    describe(`${name} hasher`, () => {
      it('has depth 32 and the 33 empty roots of orchard_empty_roots.json', () => {
        expect(hasher.depth).toBe(32);
        expect(hasher.emptyRoots.map(hex)).toEqual(emptyRoots);
      });

      it('orchard_merkle_tree.json: 16 depth-4 trees give their roots (combine and combineMany)', () => {
        const trees = rows<[string[], string[][], string]>('orchard_merkle_tree');
        expect(trees).toHaveLength(16);
        for (const [leaves, , root] of trees) {
          expect(hex(rootOf(hasher, leaves.map(bytes), 4, smallEmptyRoots(hasher)))).toBe(root);
          let level = Buffer.concat(leaves.map(bytes));
          for (let height = 0; height < 4; height++) {
            level = Buffer.from(hasher.combineMany(height, level, level.length / 64));
          }
          expect(hex(level)).toBe(root);
        }
      });

      it('orchard_merkle_tree.json: every authentication path leads from its leaf to the root', () => {
        const trees = rows<[string[], string[][], string]>('orchard_merkle_tree');
        const [leaves, paths, root] = trees[15]!;
        for (let position = 0; position < 16; position++) {
          let node = bytes(leaves[position]!);
          for (let height = 0; height < 4; height++) {
            const sibling = bytes(paths[position]![height]!);
            const isRight = ((position >>> height) & 1) === 1;
            node = isRight ? hasher.combine(height, sibling, node) : hasher.combine(height, node, sibling);
          }
          expect(hex(node)).toBe(root);
        }
      });

      it('zcashd merkle_roots_orchard.json: appending the bundles in turn to the empty depth-32 tree gives each anchor (10 rows)', () => {
        const entries = readJsonVector<unknown[]>('zcashd', 'merkle_roots_orchard.json').slice(2) as [string, string[], string][];
        expect(entries).toHaveLength(10);
        // Row i is the tree after bundles 0..i (zcashd's gtest checks row 0, from the empty tree).
        const leaves: Uint8Array[] = [];
        for (const [, commitments, anchor] of entries) {
          leaves.push(...commitments.map(bytes));
          expect(hex(rootOf(hasher, leaves, 32, hasher.emptyRoots))).toBe(anchor);
        }
      });

      it("mainnet 1687107: the block's two Orchard cmx from the empty tree give the final Orchard root", () => {
        const block = decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex'));
        const cmx = block.transactions.flatMap((tx) => tx.data.orchard?.actions.map((a) => a.cmx) ?? []);
        expect(cmx.map(hex)).toHaveLength(2);
        expect(hex(rootOf(hasher, cmx, 32, hasher.emptyRoots))).toBe('7b61fc613cea5c2c84c5e2c64d4fd4afb8c8c9d10dce9bcad49431c9cf32f131');
      });

      it('rejects heights outside 0..31 and short pair buffers', () => {
        expect(() => hasher.combine(32, ORCHARD_UNCOMMITTED, ORCHARD_UNCOMMITTED)).toThrow(RangeError);
        expect(() => hasher.combineMany(0, new Uint8Array(64), 2)).toThrow(RangeError);
      });
    });
  }
});

/** A field element below p as 32 little-endian bytes. */
const fieldElement = fc.bigInt({ min: 0n, max: PALLAS_P - 1n }).map(bigintToLeBytes);

describe('fast hashers agree with the reference', () => {
  for (const [name, hasher] of HASHERS.slice(1)) {
    it(`${name}: combine == reference MerkleCRH at random heights`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 31 }), fieldElement, fieldElement, (height, left, right) => {
          expect(hex(hasher.combine(height, left, right))).toBe(hex(merkleCrhAtHeight(height, left, right)));
        }),
        { numRuns: 40 },
      );
    });

    it(`${name}: combineMany == repeated combine`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 31 }),
          fc.array(fc.tuple(fieldElement, fieldElement), { minLength: 0, maxLength: 64, size: 'max' }),
          (height, pairs) => {
            const flat = new Uint8Array(64 * pairs.length);
            pairs.forEach(([l, r], n) => {
              flat.set(l, 64 * n);
              flat.set(r, 64 * n + 32);
            });
            const many = hasher.combineMany(height, flat, pairs.length);
            expect(many).toHaveLength(32 * pairs.length);
            pairs.forEach(([l, r], n) => {
              expect(hex(many.subarray(32 * n, 32 * n + 32))).toBe(hex(hasher.combine(height, l, r)));
            });
          },
        ),
        { numRuns: 25 },
      );
    });

    it(`${name}: combine with the level's empty root on the right (a root's padding) == reference, and other right operands after it too`, () => {
      const empty = hasher.emptyRoots;
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 31 }), fieldElement, fieldElement, (height, left, other) => {
          expect(hex(hasher.combine(height, left, empty[height]!))).toBe(hex(merkleCrhAtHeight(height, left, empty[height]!)));
          expect(hex(hasher.combine(height, left, other))).toBe(hex(merkleCrhAtHeight(height, left, other)));
          expect(hex(hasher.combine(height, empty[height]!, empty[height]!))).toBe(hex(empty[height + 1]!));
        }),
        { numRuns: 40 },
      );
    });

    // 25 pairs: a batch large enough for the lockstep path.
    it(`${name}: equal operands, zeros and all-ones values (bit 255 set) agree with the reference`, () => {
      const specials = [
        new Uint8Array(32),
        new Uint8Array(32).fill(0xff),
        bigintToLeBytes(PALLAS_P - 1n),
        bigintToLeBytes(1n),
        ORCHARD_UNCOMMITTED,
      ];
      const flat: Uint8Array[] = [];
      for (const l of specials) for (const r of specials) flat.push(l, r);
      const many = hasher.combineMany(5, Buffer.concat(flat), flat.length / 2);
      for (let n = 0; n < flat.length / 2; n++) {
        const expected = merkleCrhAtHeight(5, flat[2 * n]!, flat[2 * n + 1]!);
        expect(hex(many.subarray(32 * n, 32 * n + 32))).toBe(hex(expected));
        expect(hex(hasher.combine(5, flat[2 * n]!, flat[2 * n + 1]!))).toBe(hex(expected));
      }
    });
  }
});

describe('defaultOrchardHasher', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('is the WebAssembly hasher by default', async () => {
    vi.stubEnv('ZECRPC_PURE_TREES', '');
    vi.resetModules();
    const fresh = await import('../../src/crypto/orchard/hasher.js');
    const choice = fresh.defaultOrchardHasher();
    expect(choice.kind).toBe('wasm');
    expect(choice.hasher).toBeInstanceOf(fresh.FastOrchardHasher);
    expect(choice.fallbackReason).toBeUndefined();
  });

  it('is the reference hasher with ZECRPC_PURE_TREES=1', async () => {
    vi.stubEnv('ZECRPC_PURE_TREES', '1');
    vi.resetModules();
    const fresh = await import('../../src/crypto/orchard/hasher.js');
    const choice = fresh.defaultOrchardHasher();
    expect(choice.kind).toBe('pure');
    expect(choice.hasher).toBe(fresh.ORCHARD_HASHER);
  });
});
