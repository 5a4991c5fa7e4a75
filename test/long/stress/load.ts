/**
 * The load side of test/long/stress/run.ts: the blocks the stress server serves (server.ts
 * builds the same ones), keep-alive clients looping requests, and the check of every answer
 * against values computed here from the block bytes (hash, size, transaction count, hex).
 */
import { decodeBlock } from '../../../src/codec/block.js';
import { toHexReversed } from '../../../src/codec/hex.js';
import { largeBlocks } from '../../stress/fixtures.js';
import { mainnetGenesisRun } from '../../support/memory-store.js';
import { KeepAliveClient, type Reply } from './client.js';

export const BLOCKS = 40;
export const large = largeBlocks(BLOCKS);
export const largeInfo = large.map((b) => {
  const d = decodeBlock(b);
  return { hash: toHexReversed(d.hash), size: b.length, txs: d.transactions.length, hex: Buffer.from(b).toString('hex') };
});
const small = mainnetGenesisRun().map((b) => toHexReversed(decodeBlock(b).hash));

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))]! : NaN;
};
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Checks one reply against the data; returns a description of what is wrong, or null. Block
 * objects are parsed in full only when `thorough` (the long run): parsing 8 MB replies would
 * make the load generator, not the server, the bottleneck of the throughput scenarios.
 */
export function wrongAnswer(kind: string, arg: number, r: Reply, thorough = true): string | null {
  if (!thorough && kind === 'getblock2' && r.status === 200) {
    const info = largeInfo[arg]!;
    const head = r.latin1(0, 200);
    const ok =
      head.startsWith(`{"result":{"hash":"${info.hash}",`) &&
      head.includes(`"size":${info.size},`) &&
      r.latin1(r.length - 30).endsWith('"error":null,"id":1}\n');
    return ok ? null : `getblock2 ${arg} differs`;
  }
  const text = r.body.toString('utf8');
  if (r.status === 500 && text === 'Work queue depth exceeded') return null; // load shedding, not a wrong answer
  if (text.startsWith('{"result":null,"error":{"code":-7,')) return null; // the reply budget is in use: shed too
  let j: { result: unknown; error: unknown };
  try {
    j = JSON.parse(text);
  } catch {
    return `${kind}: unparsable reply`;
  }
  if (j.error) return `${kind}: error ${JSON.stringify(j.error)}`;
  if (kind === 'getblockcount') return j.result === 20 ? null : `getblockcount ${j.result}`;
  if (kind === 'getblockhash') return j.result === small[arg] ? null : `getblockhash ${arg}`;
  const info = largeInfo[arg]!;
  if (kind === 'getblock0') return j.result === info.hex ? null : 'getblock 0 hex differs';
  const b = j.result as { hash: string; size: number; tx: unknown[] };
  return b.hash === info.hash && b.size === info.size && b.tx.length === info.txs ? null : `${kind} ${arg} differs`;
}

export function requestFor(i: number): Request {
  const arg = i % BLOCKS;
  switch (i % 5) {
    case 0:
      return { kind: 'getblockcount', arg, json: '{"id":1,"method":"getblockcount"}' };
    case 1:
      return { kind: 'getblockhash', arg: arg % 21, json: `{"id":1,"method":"getblockhash","params":[${arg % 21}]}` };
    case 2:
      return { kind: 'getblock0', arg, json: `{"id":1,"method":"getblock","params":["${largeInfo[arg]!.hash}",0]}` };
    case 3:
      return { kind: 'getblock1', arg, json: `{"id":1,"method":"getblock","params":["${largeInfo[arg]!.hash}",1]}` };
    default:
      return { kind: 'getblock2', arg, json: `{"id":1,"method":"getblock","params":["${largeInfo[arg]!.hash}",2]}` };
  }
}

export interface LoadResult {
  ok: number;
  shed: number;
  /** Answered -7: the process-wide reply budget was in use. */
  budget: number;
  wrong: string[];
  failures: number;
  failureReasons: Map<string, number>;
  /** Each failure with its connection's local port, to find it in the server's log. */
  failed: { port: number; why: string }[];
  latencies: number[];
}

export interface Request {
  kind: string;
  arg: number;
  json: string;
}

/** Uncached-looking getblock verbosity 2 of the large blocks in turn. */
export function getblock2(i: number): Request {
  const arg = i % BLOCKS;
  return { kind: 'getblock2', arg, json: `{"id":1,"method":"getblock","params":["${largeInfo[arg]!.hash}",2]}` };
}

export const getblockcount = (): Request => ({ kind: 'getblockcount', arg: 0, json: '{"id":1,"method":"getblockcount"}' });

/** `connections` keep-alive clients looping `pick(i)` until `ms` pass. */
export async function load(
  port: number,
  connections: number,
  ms: number,
  pick: (i: number) => Request,
  thorough = false,
): Promise<LoadResult> {
  const res: LoadResult = { ok: 0, shed: 0, budget: 0, wrong: [], failures: 0, failureReasons: new Map(), failed: [], latencies: [] };
  const end = performance.now() + ms;
  let n = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      let c = new KeepAliveClient(port);
      while (performance.now() < end) {
        const q = pick(n++);
        const t0 = performance.now();
        try {
          const r = await c.request(q.json);
          res.latencies.push(performance.now() - t0);
          const w = wrongAnswer(q.kind, q.arg, r, thorough);
          if (w) res.wrong.push(w);
          else if (r.status === 500 && r.body.toString() === 'Work queue depth exceeded') res.shed++;
          else if (r.latin1(0, 40).startsWith('{"result":null,"error":{"code":-7,')) res.budget++;
          else res.ok++;
        } catch (e) {
          res.failures++;
          // What failed and after how long: a close at a fixed age points at a timeout.
          const age = (performance.now() - t0) / 1000;
          const why = `${(e as Error).message} (${q.kind}, after ${age < 1 ? '<1' : Math.round(age)} s)`;
          res.failureReasons.set(why, (res.failureReasons.get(why) ?? 0) + 1);
          if (c.localPort !== undefined) res.failed.push({ port: c.localPort, why });
          c = new KeepAliveClient(port);
          await sleep(50);
        }
      }
      c.close();
    }),
  );
  return res;
}
