/**
 * Bech32/Bech32m decoding (src/codec/address/bech32.ts), as z_validateaddress and
 * z_listunifiedreceivers use it: a Sapling address (zcashd's decoder), a TEX address and the longest
 * unified address ZIP 316 allows (rust-bech32's strict decoder, 4,194,368 characters):
 *
 *   npx tsx bench/bech32.ts [--quick]
 *
 * Reports CPU µs per decode (median of rounds) and the 1-minute load average.
 */
import { convertBits, decodeBech32Strict, decodeBech32Zcashd, encodeBech32 } from '../src/codec/address/bech32.js';
import { cpuMicrosPerUnit, fmt, load, QUICK } from './lib/measure.js';

const ROUNDS = QUICK ? 3 : 7;
const SECONDS = QUICK ? 0.2 : 1;

function groups(bytes: number, seed: number): Uint8Array {
  const raw = Uint8Array.from({ length: bytes }, (_, i) => (i * 31 + seed) & 0xff);
  return convertBits(raw, 8, 5, true)!;
}

const sapling = encodeBech32('zs', groups(43, 1), 'bech32');
const tex = encodeBech32('tex', groups(20, 2), 'bech32m');
// 1 + 1 + 4,194,360 + 6 characters: the ZIP 316 code length.
const longestUnified = encodeBech32('u', groups(2621475, 3), 'bech32m');
if (longestUnified.length !== 4194368) throw new Error(`unified address of ${longestUnified.length} characters`);

const cases: [string, () => void][] = [
  ['Sapling address (zcashd decoder)', () => void decodeBech32Zcashd(sapling)!.data],
  ['TEX address (strict decoder)', () => void decodeBech32Strict(tex, 'bech32m', 1023)!.bytes],
  ['longest unified address (strict decoder)', () => void decodeBech32Strict(longestUnified, 'bech32m', 4194368)!.bytes],
];

for (const [name, op] of cases) {
  const us = cpuMicrosPerUnit(op, 1, ROUNDS, SECONDS);
  console.log(`${name}: ${fmt(us, us < 100 ? 2 : 0)} µs per decode (${load()})`);
}
