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
 * The floor does every part a server without a reply cache computes, the txid check of what
 * getrawtransaction reads and the addresses' texts (checksums and Base58) included, so no term is
 * added to its CPU here.
 */
import { describePercent, fmt, median, spread } from './measure.js';

/** Requests a second `cores` can answer when each costs `serverMicros` + `clientMicros` of CPU. */
export function throughputBound(cores: number, serverMicros: number, clientMicros: number): number {
  if (!(serverMicros + clientMicros > 0)) throw new Error('a request costs some CPU');
  return (cores * 1e6) / (serverMicros + clientMicros);
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
 * 64.0 % (…) of the ceiling": medians of the rounds' inputs, the share per round.
 */
export function describeBound(rounds: readonly BoundRound[], cores: number): string {
  // A CPU reading is whole clock ticks (10 ms at CLK_TCK 100): a short run can read none.
  if (rounds.some((r) => !(r.floorCpu + r.clientCpu > 0) || !(r.ceilingRate > 0))) return NOT_MEASURABLE;
  const rates = rounds.map((r) => throughputBound(cores, r.floorCpu, r.clientCpu));
  const shares = rounds.map((r, i) => (100 * rates[i]!) / r.ceilingRate);
  return (
    `bound from the uncached render floor (${fmt(median(rounds.map((r) => r.floorCpu)))} µs) + clients ` +
    `(${fmt(median(rounds.map((r) => r.clientCpu)))} µs) on ${cores} cores: ${fmt(median(rates))} req/s = ` +
    `${describePercent(spread(shares))} of the ceiling`
  );
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
 * addresses' texts, the reply's bytes) on its event loop; a server handing part of it to other threads escapes it and
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

/** Said instead of the one-event-loop bound when a round read no event-loop CPU or the ceiling answered nothing. */
export const LOOP_NOT_MEASURABLE = 'one-event-loop bound not measurable (run too short)';

/**
 * "one event loop: the render floor's 150 µs a request, at most 6,667 req/s = 66.7 % (…) of the
 * ceiling": the median rate, the share per round.
 */
export function describeLoopBound(rounds: readonly LoopBoundRound[]): string {
  if (rounds.some((r) => !(r.floorLoopCpu > 0) || !(r.ceilingRate > 0))) return LOOP_NOT_MEASURABLE;
  const rates = rounds.map((r) => oneLoopBound(r.floorLoopCpu));
  const shares = rounds.map((r, i) => (100 * rates[i]!) / r.ceilingRate);
  return (
    `one event loop: the render floor's ${fmt(median(rounds.map((r) => r.floorLoopCpu)))} µs a request, at most ` +
    `${fmt(median(rates))} req/s = ${describePercent(spread(shares))} of the ceiling`
  );
}
