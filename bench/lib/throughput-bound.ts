/**
 * The most requests a second a server can answer on this machine under the bench's load. The
 * server and the load clients share the machine's cores, so each request takes the server's CPU
 * for it plus what the clients spend sending it and reading its reply, and
 *
 *   req/s ≤ cores ÷ (server CPU a request + clients' CPU a request).
 *
 * Spreading the work over threads does not lower the sum; other processes on the machine only
 * lower the rate further. The server's term is the uncached render floor's CPU a request
 * (bench/lib/render-floor-server.ts: the work no server answering without a reply cache can leave
 * out, on the promised stack). That floor also does work a server need not (matching the body,
 * copies in and out of WebAssembly memory), which inflates the term: the figure is then below
 * the true bound, by as much as that work's share, and a server leaving it out could exceed it.
 * What the figure leaves out raises it above the true bound instead: the kernel's loopback work
 * in softirq time, charged to no process, and the CPU memory contention adds when both cores are
 * busy, which a floor measured at partial load does not show.
 *
 * A term the floor leaves out: decoderawtransaction must show each P2PKH/P2SH output's address
 * with its Base58Check checksum, the first four bytes of SHA-256d of the 22-byte payload (2-byte
 * prefix, 20-byte hash): two SHA-256 compressions an address, whatever the encoding around them
 * costs. Only a server that does not memoize addresses pays them on every request: the load
 * cycles the same distinctCopies, so a server remembering addresses (not replies) skips them
 * after the first round. The bound without them is the one that holds for every server; the one
 * with them holds for servers that compute each address anew. The compression is timed at
 * node:crypto's rate for one long message (OpenSSL with the CPU's SHA extensions, one stream,
 * bound by the instructions' latency): the fastest SHA-256 on the promised stack, not the
 * hardware's floor, since an address's compressions are independent of other addresses' and a
 * multi-buffer implementation could interleave them. A second term takes each address's checksum
 * and Base58 at this checkout's fastest (addressTextMicros), the render floor's own criterion for
 * the parts it does: Base58 has no rate that bounds every implementation.
 */
import { createHash } from 'node:crypto';
import { isPayToPubkeyHash, isPayToScriptHash } from '../../src/codec/script/solver.js';
import { ADDRESS_PAYLOAD_BYTES, addressTexts } from '../../src/crypto/address-checksums.js';
import type { Transaction } from '../../src/codec/tx/transaction.js';
import { cpuMicros, describePercent, fmt, median, spread } from './measure.js';

/** Requests a second `cores` can answer when each costs `serverMicros` + `clientMicros` of CPU. */
export function throughputBound(cores: number, serverMicros: number, clientMicros: number): number {
  if (!(serverMicros + clientMicros > 0)) throw new Error('a request costs some CPU');
  return (cores * 1e6) / (serverMicros + clientMicros);
}

/** SHA-256 compressions a Base58Check address's checksum takes: one over the 22-byte payload, one over its 32-byte hash. */
export const COMPRESSIONS_PER_CHECKSUM = 2;

/** Outputs of `tx` whose reply shows an address (P2PKH, P2SH): each a checksum. */
export function addressOutputs(tx: Transaction): number {
  return tx.data.vout.filter((o) => isPayToPubkeyHash(o.scriptPubKey) || isPayToScriptHash(o.scriptPubKey)).length;
}

/**
 * CPU µs of one SHA-256 compression at node:crypto's long-message rate: the least over `rounds`
 * hashes of `bytes` (a multiple of 64; the fastest run, as a lower bound takes it), each hash's
 * CPU time divided by its 64-byte blocks. `clock` reads CPU µs (tests give a scripted one).
 */
export function sha256BlockMicros(bytes = 32 << 20, rounds = 5, clock: () => number = cpuMicros): number {
  if (!(bytes >= 64 && bytes % 64 === 0)) throw new Error(`hash a whole number of 64-byte blocks, not ${bytes} bytes`);
  const data = Buffer.alloc(bytes, 0x5a);
  const blocks = bytes / 64;
  let least = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = clock();
    createHash('sha256').update(data).digest();
    least = Math.min(least, (clock() - t0) / blocks);
  }
  return least;
}

/** Payouts per addressTextMicros batch: the address table's batch. */
const TEXT_BATCH = 1024;

/**
 * CPU µs one address's text (checksum and Base58) costs at this checkout's fastest: batches of
 * 1,024 distinct payloads through addressTexts (WebAssembly, four checksums at a time, as the
 * address table encodes a transaction's fresh addresses), the least over `rounds` of `batches`
 * batches; null when the module cannot write texts. Not the hardware's floor, as a compression's
 * rate at OpenSSL's is not: the render floor's criterion (the fastest code this checkout has for
 * each part), for the one part the floor copies where a server not memoizing addresses computes.
 */
export function addressTextMicros(rounds = 5, batches = 100, clock: () => number = cpuMicros): number | null {
  const payloads = new Uint8Array(TEXT_BATCH * ADDRESS_PAYLOAD_BYTES);
  let x = 0x9e3779b9;
  for (let i = 0; i < payloads.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    payloads[i] = x & 0xff;
  }
  if (addressTexts(payloads, TEXT_BATCH) === null) return null;
  let least = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = clock();
    for (let b = 0; b < batches; b++) addressTexts(payloads, TEXT_BATCH);
    least = Math.min(least, (clock() - t0) / (batches * TEXT_BATCH));
  }
  return least;
}

/** The address terms a decoderawtransaction case adds for a server that does not memoize addresses. */
function addressTerms(checksums: number, blockMicros: number, textMicros: number | null): { label: string; micros: number }[] {
  if (checksums === 0) return [];
  const checksumMicros = checksums * COMPRESSIONS_PER_CHECKSUM * blockMicros;
  const terms = [
    {
      label:
        `with ${fmt(checksums)} address checksum${checksums === 1 ? '' : 's'} (${fmt(checksumMicros, 1)} µs at ` +
        `${blockMicros.toFixed(4)} µs a SHA-256 block), for a server that does not memoize addresses`,
      micros: checksumMicros,
    },
  ];
  if (textMicros !== null && textMicros > 0) {
    const micros = checksums * textMicros;
    terms.push({
      label: `with them and their Base58 at this checkout's fastest instead (batched in WebAssembly, ${textMicros.toFixed(4)} µs an address: ${fmt(micros, 1)} µs)`,
      micros,
    });
  }
  return terms;
}

/** One round's measurements the bound is taken from. */
export interface BoundRound {
  ceilingRate: number;
  floorCpu: number;
  /** The load clients' CPU a request: the least over the round's targets (their cost for these replies). */
  clientCpu: number;
}

/**
 * The bound's inputs round by round, from per-target series indexed by round (each target runs
 * once a round, whatever the order): the ceiling's rate, the render floor's CPU a request, and
 * the least CPU a request the load clients spent on any target's replies in that round.
 */
export function boundRounds(
  ceilingRate: readonly number[],
  floorCpu: readonly number[],
  clientCpuByTarget: readonly (readonly number[])[],
): BoundRound[] {
  const rounds = ceilingRate.length;
  if (floorCpu.length !== rounds || clientCpuByTarget.some((c) => c.length !== rounds))
    throw new Error('every target needs one figure a round');
  return floorCpu.map((f, i) => ({
    ceilingRate: ceilingRate[i]!,
    floorCpu: f,
    clientCpu: Math.min(...clientCpuByTarget.map((c) => c[i]!)),
  }));
}

/** Said instead of a bound when a round read no CPU (fewer clock ticks than a request's share) or the ceiling answered nothing. */
export const NOT_MEASURABLE = 'bound from the uncached render floor not measurable (run too short)';

/**
 * "bound from the uncached render floor (271 µs) + clients (85 µs) on 2 cores: 5,618 req/s =
 * 64.0 % (…) of the ceiling; with 1,500 address checksums (150.0 µs at 0.0250 µs a SHA-256
 * block), for a server that does not memoize addresses: 3,953 req/s = 45.1 % (40.2–49.9) of the
 * ceiling; with them and their Base58 at this checkout's fastest instead (…): …": medians of the rounds' inputs,
 * the share per round. The bound that holds for every server comes first; `textMicros`
 * (addressTextMicros) null or absent leaves out the last.
 */
export function describeBound(
  rounds: readonly BoundRound[],
  cores: number,
  checksums: number,
  blockMicros: number,
  textMicros: number | null = null,
): string {
  // A CPU reading is whole clock ticks (10 ms at CLK_TCK 100): a short run can read none.
  if (rounds.some((r) => !(r.floorCpu + r.clientCpu > 0) || !(r.ceilingRate > 0))) return NOT_MEASURABLE;
  const of = (extra: number) => {
    const rates = rounds.map((r) => throughputBound(cores, r.floorCpu + extra, r.clientCpu));
    const shares = rounds.map((r, i) => (100 * rates[i]!) / r.ceilingRate);
    return `${fmt(median(rates))} req/s = ${describePercent(spread(shares))} of the ceiling`;
  };
  const general =
    `bound from the uncached render floor (${fmt(median(rounds.map((r) => r.floorCpu)))} µs) + clients ` +
    `(${fmt(median(rounds.map((r) => r.clientCpu)))} µs) on ${cores} cores: ${of(0)}`;
  return [general, ...addressTerms(checksums, blockMicros, textMicros).map((t) => `${t.label}: ${of(t.micros)}`)].join('; ');
}

/**
 * The most requests a second a server can answer when one thread, its event loop, does a
 * request's work: that thread cannot run more than a second of CPU a second, so
 *
 *   req/s ≤ 1 ÷ (event loop's CPU a request).
 *
 * The term is the uncached render floor's event-loop thread alone (/proc/<pid>/task/<pid>), not
 * its process: the garbage collector's helper threads run beside it and do not count. It binds
 * a server that does the floor's work (the HTTP exchange on Fastify, the hex, the digests, the
 * reply's bytes) on its event loop; a server handing part of it to other threads escapes it and
 * is bound by the cores (throughputBound) instead. Like throughputBound's, the term includes the
 * little the floor does that a server need not (matching the body, copies in and out of
 * WebAssembly memory), so a one-loop server leaving that out could exceed the figure by as much.
 */
export function oneLoopBound(loopMicros: number): number {
  if (!(loopMicros > 0)) throw new Error('a request costs its event loop some CPU');
  return 1e6 / loopMicros;
}

/** One round's figures for the one-event-loop bound. */
export interface LoopBoundRound {
  ceilingRate: number;
  /** The render floor's event-loop thread's CPU a request. */
  floorLoopCpu: number;
}

/** SHA-256 compressions of SHA-256d over `bytes` bytes: the padded message's 64-byte blocks, then one for the 32-byte digest. */
export function sha256dBlocks(bytes: number): number {
  if (!(Number.isInteger(bytes) && bytes >= 0)) throw new Error(`a message of ${bytes} bytes`);
  return Math.floor((bytes + 8) / 64) + 1 + 1;
}

/** Said instead of the one-event-loop bound when a round read no event-loop CPU or the ceiling answered nothing. */
export const LOOP_NOT_MEASURABLE = 'one-event-loop bound not measurable (run too short)';

/**
 * "one event loop: the render floor's 150 µs a request, at most 6,667 req/s = 66.7 % (…) of the
 * ceiling; with the txid check of what is read (SHA-256d of the transaction, 66,017 bytes on
 * average: 51.7 µs at 0.0500 µs a SHA-256 block): 4,937 req/s = 49.4 % (…) of the ceiling".
 * zcashd re-hashes what it reads too (with a block given, every transaction of the block);
 * zecrpc hashes the one transaction it reads, the term used here. `checkBytes` is the
 * mean size of the transactions a getrawtransaction request reads and re-hashes (0: no check,
 * as for decoderawtransaction, whose floor hashes the txid it shows already). `checksums`, the
 * addresses the reply shows, and `textMicros` add describeBound's terms for a server that does
 * not memoize addresses: the floor writes the addresses' text without computing it.
 */
export function describeLoopBound(
  rounds: readonly LoopBoundRound[],
  checkBytes: number,
  blockMicros: number,
  checksums = 0,
  textMicros: number | null = null,
): string {
  if (rounds.some((r) => !(r.floorLoopCpu > 0) || !(r.ceilingRate > 0))) return LOOP_NOT_MEASURABLE;
  const of = (extra: number) => {
    const rates = rounds.map((r) => oneLoopBound(r.floorLoopCpu + extra));
    const shares = rounds.map((r, i) => (100 * rates[i]!) / r.ceilingRate);
    return `${fmt(median(rates))} req/s = ${describePercent(spread(shares))} of the ceiling`;
  };
  const parts = [`one event loop: the render floor's ${fmt(median(rounds.map((r) => r.floorLoopCpu)))} µs a request, at most ${of(0)}`];
  if (checkBytes > 0) {
    const checkMicros = sha256dBlocks(Math.round(checkBytes)) * blockMicros;
    parts.push(
      `with the txid check of what is read (SHA-256d of the transaction, ${fmt(Math.round(checkBytes))} bytes on average: ` +
        `${fmt(checkMicros, 1)} µs at ${blockMicros.toFixed(4)} µs a SHA-256 block): ${of(checkMicros)}`,
    );
  }
  for (const t of addressTerms(checksums, blockMicros, textMicros)) parts.push(`${t.label}: ${of(t.micros)}`);
  return parts.join('; ');
}
