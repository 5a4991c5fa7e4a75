import { blake2b } from '@noble/hashes/blake2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBlock, encodeBlockHeader, blockHeaderHash } from '../../src/codec/block.js';
import { toHexReversed } from '../../src/codec/hex.js';
import {
  equihashHashers,
  equihashIndices,
  equihashSolutionFromIndices,
  equihashSolutionSize,
  verifyEquihash,
  type EquihashHasher,
} from '../../src/crypto/equihash.js';
import { EQUIHASH_DIGEST_STRIDE } from '../../src/crypto/equihash-wasm.js';
import { readHexVector, realBlockFiles } from '../support/vectors.js';

const blocks = realBlockFiles().map((f) => ({ ...f, header: decodeBlock(readHexVector(f.file)).header }));
const prefix = (h: { bytes: Uint8Array }): Uint8Array => h.bytes.subarray(0, 140);

const mainnet1 = blocks.find((b) => b.network === 'mainnet' && b.height === 1)!.header;

/**
 * Regtest genesis, rebuilt from the mainnet genesis header with chainparams.cpp's regtest
 * values (time 1296688602, bits 0x200f0f0f, nonce 9, the 36-byte (48, 5) solution); its hash
 * must be the regtest genesis hash (spec §7.2), which proves the header is the real one.
 */
function regtestGenesisHeader() {
  const g = blocks.find((b) => b.network === 'mainnet' && b.height === 0)!.header;
  const nonce = new Uint8Array(32);
  nonce[0] = 9;
  const solution = new Uint8Array(Buffer.from('01936b7db1eb4ac39f151b8704642d0a8bda13ec547d54cd5e43ba142fc6d8877cab07b3', 'hex'));
  const bytes = encodeBlockHeader({ ...g, time: 1296688602, bits: 0x200f0f0f, nonce, solution });
  return { bytes, solution };
}

describe('Equihash (200, 9) on every real header in the vectors', () => {
  it('has the expected vectors', () => {
    expect(blocks.length).toBe(72);
  });

  for (const b of blocks) {
    it(`${b.network} ${b.height} verifies with every BLAKE2b backend`, () => {
      expect(b.header.solution.length).toBe(equihashSolutionSize(200, 9));
      expect(verifyEquihash(200, 9, prefix(b.header), b.header.solution)).toEqual({ ok: true });
      expect(verifyEquihash(200, 9, prefix(b.header), b.header.solution, equihashHashers.noble)).toEqual({ ok: true });
      expect(verifyEquihash(200, 9, prefix(b.header), b.header.solution, equihashHashers.wasm!)).toEqual({ ok: true });
    });
  }
});

describe('Equihash (48, 5): regtest genesis', () => {
  it('is the real regtest genesis header and its solution verifies', () => {
    const { bytes, solution } = regtestGenesisHeader();
    expect(toHexReversed(blockHeaderHash(decodeBlock(new Uint8Array([...bytes, 0])).header))).toBe(
      '029f11d80ef9765602235e1bc9727e3eb6ba20839319f761fee920d63401e327',
    );
    expect(solution.length).toBe(equihashSolutionSize(48, 5));
    expect(verifyEquihash(48, 5, bytes.subarray(0, 140), solution)).toEqual({ ok: true });
    expect(verifyEquihash(48, 5, bytes.subarray(0, 140), solution, equihashHashers.noble)).toEqual({ ok: true });
  });

  it('fails under the other parameter set and with a changed nonce', () => {
    const { bytes, solution } = regtestGenesisHeader();
    expect(verifyEquihash(200, 9, bytes.subarray(0, 140), solution)).toMatchObject({ ok: false, reason: 'wrong-solution-size' });
    const input = bytes.slice(0, 140);
    input[108] = input[108]! ^ 1;
    expect(verifyEquihash(48, 5, input, solution).ok).toBe(false);
  });
});

describe('mutated headers are rejected with the precise reason', () => {
  // Offsets of the fields that feed the Equihash input (spec §1.1).
  const fields: [string, number][] = [
    ['nVersion', 0],
    ['hashPrevBlock', 4],
    ['hashMerkleRoot', 36],
    ['hashBlockCommitments', 68],
    ['nTime', 100],
    ['nBits', 104],
    ['nNonce', 108],
  ];
  for (const [name, offset] of fields) {
    it(`a bit flipped in ${name}`, () => {
      const input = prefix(mainnet1).slice();
      input[offset + 1] = input[offset + 1]! ^ 0x10;
      // Every hash changes, so the very first pair of leaves no longer collides on digit 0
      // (they would by chance with probability 2^-20).
      expect(verifyEquihash(200, 9, input, mainnet1.solution)).toEqual({
        ok: false,
        reason: 'invalid-collision',
        detail: 'subtree at solution positions 0..1: digit 0 differs between the halves',
      });
    });
  }

  it('nBits off by one', () => {
    const input = prefix(mainnet1).slice();
    new DataView(input.buffer).setUint32(104, 0x1f07fffe, true);
    expect(verifyEquihash(200, 9, input, mainnet1.solution)).toMatchObject({ ok: false, reason: 'invalid-collision' });
  });

  it('a solution one byte short or long', () => {
    const s = mainnet1.solution;
    expect(verifyEquihash(200, 9, prefix(mainnet1), s.subarray(0, s.length - 1))).toEqual({
      ok: false,
      reason: 'wrong-solution-size',
      detail: '1343 bytes, expected 1344',
    });
    expect(verifyEquihash(200, 9, prefix(mainnet1), new Uint8Array([...s, 0]))).toMatchObject({ reason: 'wrong-solution-size' });
  });

  it('parameters the crate refuses', () => {
    expect(verifyEquihash(200, 2, prefix(mainnet1), mainnet1.solution)).toMatchObject({ reason: 'invalid-parameters' });
    expect(verifyEquihash(201, 9, prefix(mainnet1), mainnet1.solution)).toMatchObject({ reason: 'invalid-parameters' });
    // Digits under 8 bits: the crate's bit expansion asserts against them.
    expect(verifyEquihash(8, 3, prefix(mainnet1), new Uint8Array(equihashSolutionSize(8, 3)))).toMatchObject({
      reason: 'invalid-parameters',
    });
    expect(verifyEquihash(56, 7, prefix(mainnet1), new Uint8Array(equihashSolutionSize(56, 7)))).toMatchObject({
      reason: 'invalid-parameters',
    });
  });

  it('the two leaves of the first pair swapped: out of order', () => {
    const idx = Array.from(equihashIndices(200, 9, mainnet1.solution));
    [idx[0], idx[1]] = [idx[1]!, idx[0]!];
    expect(verifyEquihash(200, 9, prefix(mainnet1), equihashSolutionFromIndices(200, 9, idx))).toEqual({
      ok: false,
      reason: 'out-of-order',
      detail: 'subtree at solution positions 0..1: the right half starts with a smaller index',
    });
  });

  it('the two halves of the root swapped: out of order at the root only', () => {
    const idx = Array.from(equihashIndices(200, 9, mainnet1.solution));
    const swapped = [...idx.slice(256), ...idx.slice(0, 256)];
    expect(verifyEquihash(200, 9, prefix(mainnet1), equihashSolutionFromIndices(200, 9, swapped))).toEqual({
      ok: false,
      reason: 'out-of-order',
      detail: 'subtree at solution positions 0..511: the right half starts with a smaller index',
    });
  });

  it('the right half of the root replaced by a copy of the left: duplicate indices', () => {
    const idx = Array.from(equihashIndices(200, 9, mainnet1.solution));
    const doubled = [...idx.slice(0, 256), ...idx.slice(0, 256)];
    expect(verifyEquihash(200, 9, prefix(mainnet1), equihashSolutionFromIndices(200, 9, doubled))).toEqual({
      ok: false,
      reason: 'duplicate-indices',
      detail: 'subtree at solution positions 0..511: the halves share an index',
    });
  });

  it('every single-bit change of a real solution is rejected', () => {
    const s = mainnet1.solution;
    let accepted = 0;
    for (let bit = 0; bit < s.length * 8; bit++) {
      const m = s.slice();
      m[bit >> 3] = m[bit >> 3]! ^ (1 << (bit & 7));
      if (verifyEquihash(200, 9, prefix(mainnet1), m).ok) accepted++;
    }
    expect(accepted).toBe(0);
  });
});

describe('tree rules on crafted hashes', () => {
  /** A (48, 5) hasher whose digests are all zero except the chosen 6-byte slices. */
  function craftedHasher(slices: Map<number, number[]>): EquihashHasher {
    return {
      name: 'crafted',
      begin() {},
      digest(counter) {
        const out = new Uint8Array(60);
        for (let i = 0; i < 10; i++) {
          const bytes = slices.get(counter * 10 + i);
          if (bytes) out.set(bytes, i * 6);
        }
        return out;
      },
    };
  }
  const ascending = equihashSolutionFromIndices(
    48,
    5,
    Array.from({ length: 32 }, (_, i) => i),
  );
  const input = new Uint8Array(140);

  it('all-zero hashes over distinct ascending indices form a valid tree', () => {
    expect(verifyEquihash(48, 5, input, ascending, craftedHasher(new Map()))).toEqual({ ok: true });
  });

  it('only the last digit of one leaf set: the root XOR is non-zero', () => {
    const h = craftedHasher(new Map([[0, [0, 0, 0, 0, 0, 1]]]));
    expect(verifyEquihash(48, 5, input, ascending, h)).toEqual({
      ok: false,
      reason: 'nonzero-root',
      detail: 'digit 5 of the XOR of all 32 hashes is not zero',
    });
  });

  it('digit 2 of leaf 5 set: the level-3 subtree 0..7 fails its collision', () => {
    // Levels 1 and 2 compare digits 0 and 1 only; the 8-leaf subtree is the first to compare digit 2.
    const h = craftedHasher(new Map([[5, [0, 0, 7, 0, 0, 0]]]));
    expect(verifyEquihash(48, 5, input, ascending, h)).toEqual({
      ok: false,
      reason: 'invalid-collision',
      detail: 'subtree at solution positions 0..7: digit 2 differs between the halves',
    });
  });

  it('reports the first failure in depth-first order', () => {
    // Leaves 2 and 3 break their pair's digit 0; the root pair is also out of order. The pair
    // is visited first, as the crate's recursion does.
    const idx = [...Array.from({ length: 16 }, (_, i) => i + 16), ...Array.from({ length: 16 }, (_, i) => i)];
    const h = craftedHasher(new Map([[18, [1, 0, 0, 0, 0, 0]]]));
    expect(verifyEquihash(48, 5, input, equihashSolutionFromIndices(48, 5, idx), h)).toEqual({
      ok: false,
      reason: 'invalid-collision',
      detail: 'subtree at solution positions 2..3: digit 0 differs between the halves',
    });
  });
});

describe('hash backends', () => {
  const personal = (n: number, k: number) => {
    const p = new Uint8Array(16);
    p.set(new TextEncoder().encode('ZcashPoW'));
    new DataView(p.buffer).setUint32(8, n, true);
    new DataView(p.buffer).setUint32(12, k, true);
    return p;
  };

  it('match a one-shot @noble/hashes BLAKE2b of input ‖ le32(counter), for any input length', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 400, size: 'max' }),
        fc.array(fc.nat({ max: 0xffffffff }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom([200, 9], [48, 5], [96, 5]),
        (input, counters, [n, k]) => {
          const dkLen = Math.floor(512 / n!) * (n! / 8);
          for (const hasher of [equihashHashers.batch, equihashHashers.wasm, equihashHashers.noble]) {
            if (!hasher) continue;
            hasher.begin(n!, k!, input);
            for (const c of counters) {
              const msg = new Uint8Array(input.length + 4);
              msg.set(input);
              new DataView(msg.buffer).setUint32(input.length, c, true);
              const want = blake2b(msg, { dkLen, personalization: personal(n!, k!) });
              const got = hasher.digest(c);
              expect(got.length).toBe(dkLen);
              expect(Buffer.from(got).toString('hex')).toBe(Buffer.from(want).toString('hex'));
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('batches of counters: every lane and odd counts, against a one-shot @noble/hashes BLAKE2b', () => {
    const batch = equihashHashers.batch!;
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 400, size: 'max' }),
        fc.array(fc.nat({ max: 0xffffffff }), { minLength: 1, maxLength: batch.maxBatch!, size: 'max' }),
        fc.constantFrom([200, 9], [48, 5], [96, 5], [144, 5]),
        (input, counters, [n, k]) => {
          const dkLen = Math.floor(512 / n!) * (n! / 8);
          batch.begin(n!, k!, input);
          const out = batch.digestMany!(Uint32Array.from(counters), counters.length);
          counters.forEach((c, j) => {
            const msg = new Uint8Array(input.length + 4);
            msg.set(input);
            new DataView(msg.buffer).setUint32(input.length, c, true);
            const want = blake2b(msg, { dkLen, personalization: personal(n!, k!) });
            const at = j * EQUIHASH_DIGEST_STRIDE;
            expect(Buffer.from(out.subarray(at, at + dkLen)).toString('hex')).toBe(Buffer.from(want).toString('hex'));
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('every input length, those whose counter crosses a block boundary included, hashes as @noble/hashes', () => {
    const counters = Uint32Array.of(0, 0x01020304, 0xffffffff);
    for (let length = 0; length <= 400; length++) {
      const input = new Uint8Array(length).map((_, i) => (i * 37 + 11) & 255);
      const want = [...counters].map((c) => {
        const msg = new Uint8Array(length + 4);
        msg.set(input);
        new DataView(msg.buffer).setUint32(length, c, true);
        return Buffer.from(blake2b(msg, { dkLen: 50, personalization: personal(200, 9) })).toString('hex');
      });
      for (const hasher of [equihashHashers.batch, equihashHashers.wasm]) {
        if (!hasher) continue;
        hasher.begin(200, 9, input);
        expect(
          [...counters].map((c) => Buffer.from(hasher.digest(c)).toString('hex')),
          `${hasher.name}, ${length} bytes`,
        ).toEqual(want);
        if (hasher.digestMany) {
          const out = hasher.digestMany(counters, counters.length);
          const got = [...counters].map((_, j) =>
            Buffer.from(out.subarray(j * EQUIHASH_DIGEST_STRIDE, j * EQUIHASH_DIGEST_STRIDE + 50)).toString('hex'),
          );
          expect(got, `${hasher.name} batch, ${length} bytes`).toEqual(want);
        }
      }
    }
  });

  it('an input longer than the module memory grows it', () => {
    const batch = equihashHashers.batch!;
    const input = new Uint8Array(200_000).map((_, i) => i * 7);
    batch.begin(200, 9, input);
    const msg = new Uint8Array(input.length + 4);
    msg.set(input);
    new DataView(msg.buffer).setUint32(input.length, 77, true);
    expect(Buffer.from(batch.digest(77).subarray(0, 50))).toEqual(
      Buffer.from(blake2b(msg, { dkLen: 50, personalization: personal(200, 9) })),
    );
  });

  it('a batch beyond maxBatch is refused', () => {
    const batch = equihashHashers.batch!;
    batch.begin(200, 9, new Uint8Array(140));
    expect(() => batch.digestMany!(new Uint32Array(batch.maxBatch! + 1), batch.maxBatch! + 1)).toThrow(RangeError);
  });

  it('the WebAssembly backends are available here (the batching one the default)', () => {
    expect(equihashHashers.wasm).not.toBeNull();
    expect(equihashHashers.batch).not.toBeNull();
  });
});

describe('index packing', () => {
  it('reads several indices from one byte when they are narrower than a byte', () => {
    // (8, 3): 3-bit indices, eight of them in three bytes.
    const idx = [7, 0, 5, 2, 6, 1, 3, 4];
    const packed = equihashSolutionFromIndices(8, 3, idx);
    expect(Buffer.from(packed).toString('hex')).toBe('e2ac5c');
    expect(Array.from(equihashIndices(8, 3, packed))).toEqual(idx);
  });

  it('round-trips any indices of the (200, 9) and (48, 5) widths', () => {
    fc.assert(
      fc.property(fc.constantFrom([200, 9], [48, 5]), fc.integer({ min: 0, max: 2 ** 31 - 1 }), ([n, k], seed) => {
        const width = n! / (k! + 1) + 1;
        const idx = Array.from({ length: 1 << k! }, (_, i) => (seed * (i + 7) + i * 977) % 2 ** width);
        expect(Array.from(equihashIndices(n!, k!, equihashSolutionFromIndices(n!, k!, idx)))).toEqual(idx);
      }),
    );
  });
});
