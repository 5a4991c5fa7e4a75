/**
 * Equihash (200, 9) verification cost per header, on every real header in the test vectors.
 *
 *   npx tsx bench/equihash.ts            (ZECRPC_VECTORS overrides the vectors folder)
 *
 * Rows:
 *  - verifyEquihash with the batching WebAssembly backend (the default: two indices a
 *    compression in SIMD lanes, a batch of leaves a call) and with the blake2b-wasm driver (one
 *    index a call, its fallback);
 *  - verifyEquihash with the @noble/hashes backend (the fallback without WebAssembly);
 *  - "hashing only": the 512 BLAKE2b calls of a header through each backend, to show how much
 *    of a verification is hashing;
 *  - a naive baseline in the same process: @noble/hashes hashing input ‖ le32(i) from scratch per
 *    index (two compressions each, no reuse of the header's first block), which is what a
 *    straightforward implementation pays.
 * Mainnet has ≈3.4 M headers: the last column is the single-core time to check them all.
 */
import { blake2b } from '@noble/hashes/blake2.js';
import { decodeBlock } from '../src/codec/block.js';
import { equihashHashers, equihashIndices, verifyEquihash, type EquihashHasher } from '../src/crypto/equihash.js';
import { readHexVector, realBlockFiles } from '../test/support/vectors.js';

const MAINNET_HEADERS = 3.4e6;
const MIN_MS = 1500;

interface Header {
  input: Uint8Array;
  solution: Uint8Array;
  indices: Uint32Array;
}

const headers: Header[] = realBlockFiles().map((f) => {
  const h = decodeBlock(readHexVector(f.file)).header;
  return { input: h.bytes.subarray(0, 140), solution: h.solution, indices: equihashIndices(200, 9, h.solution) };
});

/** Runs `fn` over all headers until MIN_MS elapsed; returns µs per header. */
function measure(fn: (h: Header) => void): number {
  for (const h of headers) fn(h); // warm-up
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MIN_MS) {
    for (const h of headers) fn(h);
    count += headers.length;
    elapsed = performance.now() - start;
  }
  return (elapsed * 1000) / count;
}

function verifyWith(hasher: EquihashHasher) {
  return (h: Header) => {
    const r = verifyEquihash(200, 9, h.input, h.solution, hasher);
    if (!r.ok) throw new Error(`unexpected failure: ${r.reason}`);
  };
}

function hashOnlyWith(hasher: EquihashHasher) {
  const max = hasher.maxBatch;
  if (hasher.digestMany !== undefined && max !== undefined) {
    const counters = new Uint32Array(max);
    return (h: Header) => {
      hasher.begin(200, 9, h.input);
      for (let p = 0; p < h.indices.length; p += max) {
        const count = Math.min(max, h.indices.length - p);
        for (let q = 0; q < count; q++) counters[q] = h.indices[p + q]! >>> 1;
        hasher.digestMany!(counters, count);
      }
    };
  }
  return (h: Header) => {
    hasher.begin(200, 9, h.input);
    for (const i of h.indices) hasher.digest(i >>> 1);
  };
}

const personal = new Uint8Array(16);
personal.set(new TextEncoder().encode('ZcashPoW'));
new DataView(personal.buffer).setUint32(8, 200, true);
new DataView(personal.buffer).setUint32(12, 9, true);
const naiveBuf = new Uint8Array(144);
const naiveView = new DataView(naiveBuf.buffer);
function naiveHashing(h: Header): void {
  naiveBuf.set(h.input);
  for (const i of h.indices) {
    naiveView.setUint32(140, i >>> 1, true);
    blake2b(naiveBuf, { dkLen: 50, personalization: personal });
  }
}

const rows: [string, number][] = [];
if (equihashHashers.batch) rows.push(['verifyEquihash, batching SIMD backend', measure(verifyWith(equihashHashers.batch))]);
if (equihashHashers.wasm) rows.push(['verifyEquihash, blake2b-wasm backend', measure(verifyWith(equihashHashers.wasm))]);
rows.push(['verifyEquihash, @noble/hashes backend', measure(verifyWith(equihashHashers.noble))]);
if (equihashHashers.batch) rows.push(['hashing only, batching SIMD (2 indices/compression)', measure(hashOnlyWith(equihashHashers.batch))]);
if (equihashHashers.wasm) rows.push(['hashing only, blake2b-wasm (1 compression/index)', measure(hashOnlyWith(equihashHashers.wasm))]);
rows.push(['hashing only, @noble/hashes clone (1 compression/index)', measure(hashOnlyWith(equihashHashers.noble))]);
rows.push(['baseline: @noble/hashes one-shot per index (2 compressions)', measure(naiveHashing)]);

console.log(`Equihash (200,9), ${headers.length} real headers, Node ${process.version}`);
for (const [name, us] of rows) {
  const mainnetMin = (us * MAINNET_HEADERS) / 1e6 / 60;
  console.log(`${name.padEnd(62)} ${us.toFixed(1).padStart(8)} µs/header   ${mainnetMin.toFixed(1).padStart(6)} min for 3.4 M headers`);
}
