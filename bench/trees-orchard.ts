/**
 * Orchard note-commitment tree hashing (MerkleCRH^Orchard, Sinsemilla over Pallas): µs per tree
 * node for the reference hasher and the WebAssembly hasher, measured in the same run, plus the
 * WebAssembly table build time.
 *
 *   npx tsx bench/trees-orchard.ts
 *
 * "combineMany n" hashes one tree level of n pairs in one call (the batched path a tree append
 * takes); "combine" hashes one pair per call. Times are this process's CPU time, which is steadier
 * than wall time on a machine shared with other work.
 */
import { FastOrchardHasher, ORCHARD_HASHER } from '../src/crypto/orchard/hasher.js';
import { sinsemillaS } from '../src/crypto/orchard/sinsemilla.js';
import type { MerkleHasher } from '../src/state/trees/hasher.js';

const SECONDS_PER_CASE = 0.5;

function pseudoRandomPairs(count: number): Uint8Array {
  const out = new Uint8Array(64 * count);
  let s = 0x9e3779b9 | 0;
  for (let i = 0; i < out.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s & 0xff;
  }
  // Children are field elements in a real tree: keep them below 2^254 < p.
  for (let i = 31; i < out.length; i += 32) out[i]! &= 0x3f;
  return out;
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** Runs `op` (which hashes `nodesPerOp` nodes) for about SECONDS_PER_CASE of CPU; returns µs per node. */
function usPerNode(op: () => void, nodesPerOp: number): number {
  op(); // warm-up: JIT and lazy tables
  let nodes = 0;
  const started = cpuMicros();
  do {
    op();
    nodes += nodesPerOp;
  } while (cpuMicros() - started < SECONDS_PER_CASE * 1e6);
  return (cpuMicros() - started) / nodes;
}

function combineOne(hasher: MerkleHasher): number {
  const pairs = pseudoRandomPairs(1);
  let height = 0;
  return usPerNode(() => hasher.combine(height++ & 31, pairs.subarray(0, 32), pairs.subarray(32, 64)), 1);
}

function combineMany(hasher: MerkleHasher, levelPairs: number): number {
  const pairs = pseudoRandomPairs(levelPairs);
  let height = 0;
  return usPerNode(() => hasher.combineMany(height++ & 31, pairs, levelPairs), levelPairs);
}

const fmt = (us: number): string => us.toFixed(1).padStart(8);

let started = performance.now();
sinsemillaS(0); // the 1024 S(j) both hashers share
const sMs = performance.now() - started;
const pure = combineOne(ORCHARD_HASHER);
console.log(`S(0..1023) by GroupHash^P: ${sMs.toFixed(0)} ms (shared; paid once per process)`);
console.log(`reference       combine ${fmt(pure)} µs/node`);

started = performance.now();
const fast = new FastOrchardHasher().ready();
console.log(`wasm tables: ${((performance.now() - started)).toFixed(0)} ms to build after S (51 × 1024 points, ${((51 * 1024 * 72) / 2 ** 20).toFixed(1)} MB)`);
const one = combineOne(fast);
console.log(`wasm            combine ${fmt(one)} µs/node   ${(pure / one).toFixed(0)}× reference`);
for (const n of [4, 16, 64, 256, 4096]) {
  const many = combineMany(fast, n);
  console.log(`wasm  combineMany ${String(n).padStart(5)} ${fmt(many)} µs/node   ${(pure / many).toFixed(0)}× reference`);
}
