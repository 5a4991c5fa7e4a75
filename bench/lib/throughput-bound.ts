/**
 * The most requests a second any server can answer on this machine under the bench's load. The
 * server and the load clients share the machine's cores, so each request takes at least the
 * server's CPU for it plus what the clients spend sending it and reading its reply, and
 *
 *   req/s ≤ cores ÷ (server CPU a request + clients' CPU a request).
 *
 * Spreading the work over threads does not lower the sum; other processes on the machine only
 * lower the rate further. With the uncached render floor's CPU a request as the server's term
 * (bench/lib/render-floor-server.ts: the work no server answering without a reply cache can
 * leave out, on the promised stack), the bound holds for every such server.
 *
 * A term the floor leaves out: decoderawtransaction of a transaction whose P2PKH/P2SH outputs pay
 * addresses no server has seen must write each address with its Base58Check checksum, the first
 * four bytes of SHA-256d of the 21-byte payload: two SHA-256 compressions an address, whatever
 * the encoding around them costs. Timed here as the fastest SHA-256 this machine has (OpenSSL
 * through node:crypto, with the CPU's SHA extensions) hashing one long message, per 64-byte
 * block: no call overhead, no padding, the compression function alone.
 */
import { createHash } from 'node:crypto';
import { isPayToPubkeyHash, isPayToScriptHash } from '../../src/codec/script/solver.js';
import type { Transaction } from '../../src/codec/tx/transaction.js';
import { cpuMicros, describePercent, fmt, median, spread } from './measure.js';

/** Requests a second `cores` can answer when each costs `serverMicros` + `clientMicros` of CPU. */
export function throughputBound(cores: number, serverMicros: number, clientMicros: number): number {
  if (!(serverMicros + clientMicros > 0)) throw new Error('a request costs some CPU');
  return (cores * 1e6) / (serverMicros + clientMicros);
}

/** SHA-256 compressions a Base58Check address's checksum takes: one over the 21-byte payload, one over its 32-byte hash. */
export const COMPRESSIONS_PER_CHECKSUM = 2;

/** Outputs of `tx` whose reply shows an address (P2PKH, P2SH): each a checksum. */
export function addressOutputs(tx: Transaction): number {
  return tx.data.vout.filter((o) => isPayToPubkeyHash(o.scriptPubKey) || isPayToScriptHash(o.scriptPubKey)).length;
}

/**
 * CPU µs of one SHA-256 compression at node:crypto's long-message rate: the least over `rounds`
 * hashes of `bytes` (the fastest run, as a lower bound takes it).
 */
export function sha256BlockMicros(bytes = 32 << 20, rounds = 5): number {
  const data = Buffer.alloc(bytes, 0x5a);
  let least = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = cpuMicros();
    createHash('sha256').update(data).digest();
    least = Math.min(least, (cpuMicros() - t0) / (bytes / 64));
  }
  return least;
}

/** One round's measurements the bound is taken from. */
export interface BoundRound {
  ceilingRate: number;
  floorCpu: number;
  /** The load clients' CPU a request (the least of the round's targets: their cost for these replies). */
  clientCpu: number;
}

/**
 * "bound from the uncached render floor (271 µs) + clients (85 µs) + 1,500 address checksums
 * (150.0 µs at 0.0250 µs a SHA-256 block) on 2 cores: 3,953 req/s = 45.1 % (40.2–49.9) of the ceiling; without the checksums
 * 5,618 req/s = 64.0 % (…)": medians of the rounds' inputs, the share per round.
 */
export function describeBound(rounds: readonly BoundRound[], cores: number, checksums: number, blockMicros: number): string {
  const checksumMicros = checksums * COMPRESSIONS_PER_CHECKSUM * blockMicros;
  const of = (extra: number) => {
    const rates = rounds.map((r) => throughputBound(cores, r.floorCpu + extra, r.clientCpu));
    const shares = rounds.map((r, i) => (100 * rates[i]!) / r.ceilingRate);
    return `${fmt(median(rates))} req/s = ${describePercent(spread(shares))} of the ceiling`;
  };
  const inputs =
    `bound from the uncached render floor (${fmt(median(rounds.map((r) => r.floorCpu)))} µs) + clients ` +
    `(${fmt(median(rounds.map((r) => r.clientCpu)))} µs)`;
  if (checksums === 0) return `${inputs} on ${cores} cores: ${of(0)}`;
  return (
    `${inputs} + ${fmt(checksums)} address checksums (${fmt(checksumMicros, 1)} µs at ${blockMicros.toFixed(4)} µs a SHA-256 block) ` +
    `on ${cores} cores: ${of(checksumMicros)}; without the checksums ${of(0)}`
  );
}
