/**
 * The comparison engine: builds the requests for the selected heights and methods, sends each
 * one to both sides at once (a bounded number in flight, on kept-alive connections), compares the
 * replies byte for byte and tallies the outcome per method.
 *
 * Requests of a height depend on each other only through the block hash and the raw block
 * (decoderawtransaction is sent each transaction of the block); everything else of that height,
 * and other heights, proceed in parallel up to the concurrency limit, so neither node waits on
 * the comparison.
 */
import { decodeBlock } from '../codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../codec/tx/acceptance.js';
import { compareReplies, type ClassifiedDifference, type ReferenceKind, type ReplyComparison } from './compare-reply.js';
import { checkExclusions, deviationOf, knownDeviations } from './deviations.js';
import { DEFAULT_COMPAT_PROFILE, type CompatProfile } from '../compat/profiles.js';
import { chainIdentity, identityWarnings } from './identity.js';
import type { Endpoint, Reply } from './endpoint.js';
import { CompareError } from './errors.js';
import { selectHeights, type HeightSelection } from './heights.js';
import { LatencyRecorder, type LatencySummary } from './latency.js';
import { methodKey, type MethodSelection } from './methods.js';
import type { FirstDifference } from './first-difference.js';
import { genericPath, type DriftCategory } from './zebra-drift.js';

export interface CompareProgress {
  start(totalHeights: number): void;
  update(heightsDone: number, requestsDone: number): void;
  stop(): void;
}

export interface CompareOptions {
  reference: Endpoint;
  target: Endpoint;
  /** 'auto' (default) asks the reference's getnetworkinfo. */
  referenceKind?: ReferenceKind | 'auto';
  heights: HeightSelection;
  methods: readonly MethodSelection[];
  /** Requests in flight at once (each goes to both sides). */
  concurrency?: number;
  /** Known deviations (by name) whose differences are accepted. */
  exclude?: readonly string[];
  /** The compatibility profile the target runs (`-compat`): it decides which deviations are known. Default: the default profile. */
  profile?: CompatProfile;
  /** Told each warning (nodes of different networks or profiles) as soon as it is found, before the requests. */
  onWarning?: (warning: string) => void;
  /** JSON differences listed per reply. */
  maxDifferencesPerReply?: number;
  /** Differing replies kept in the result with their details (all are counted). */
  maxReported?: number;
  progress?: CompareProgress;
}

export interface MethodTally {
  method: string;
  identical: number;
  different: number;
  /** Differed only by zebrad's known drifts. */
  drift: number;
  /** Differed, and match a deviation excluded by name. */
  excluded: number;
}

export interface DifferenceRecord {
  method: string;
  /** The request's JSON-RPC `method` and `params` (long hex params shortened). */
  request: string;
  height: number | null;
  outcome: 'different' | 'drift' | 'excluded';
  /** A known deviation this request exercises. */
  deviation?: string;
  status: { reference: number; target: number };
  first: FirstDifference | null;
  differences: ClassifiedDifference[];
}

export interface DriftTally {
  category: DriftCategory;
  count: number;
  /** One example per place (array indices folded to `[*]`), first few places. */
  examples: { method: string; path: string; reference?: string; target?: string }[];
}

export interface DeviationTally {
  name: string;
  description: string;
  documentedIn: string;
  excluded: boolean;
  requests: number;
  /** Replies that differed (beyond zebrad drift) on requests exercising the deviation. */
  differed: number;
}

export interface CompareResult {
  reference: { location: string; kind: ReferenceKind };
  target: { location: string };
  /** Each side's getblockcount at the start. */
  tips: { reference: number; target: number };
  heights: { count: number; first: number | null; last: number | null };
  concurrency: number;
  methods: MethodTally[];
  /** Requests per outcome. */
  totals: { requests: number; identical: number; different: number; drift: number; excluded: number };
  differences: DifferenceRecord[];
  drift: DriftTally[];
  deviations: DeviationTally[];
  latency: { reference: LatencySummary; target: LatencySummary };
  /** The comparison's own cost: comparing and bookkeeping, and this process's CPU time. */
  overhead: { compareMs: number; perReplyUs: number; processCpuMs: number; wallMs: number };
  notes: string[];
  /** What makes the comparison doubtful: nodes of different networks, a zecrpc reference on another profile. */
  warnings: string[];
  /** No request differed except by zebrad drift or an excluded deviation. */
  ok: boolean;
}

interface PlannedRequest {
  method: string;
  params: unknown[];
  key: string;
  height: number | null;
}

/** A counting semaphore: at most `n` holders at once. */
class Limiter {
  private waiting: (() => void)[] = [];
  constructor(private free: number) {}
  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((r) => this.waiting.push(r));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

function shortParams(params: readonly unknown[]): string {
  return JSON.stringify(params.map((p) => (typeof p === 'string' && p.length > 80 ? `${p.slice(0, 40)}…(${p.length / 2} bytes)` : p)));
}

/** The `result` of a JSON-RPC reply when it is a string (block hash, raw block hex). */
function resultString(reply: Reply): string | null {
  try {
    const v = JSON.parse(reply.body.toString('utf8')) as { result?: unknown };
    return typeof v.result === 'string' ? v.result : null;
  } catch {
    return null;
  }
}

function resultOrThrow(reply: Reply, side: string, what: string): unknown {
  let v: { result?: unknown; error?: { code?: number; message?: string } | null };
  try {
    v = JSON.parse(reply.body.toString('utf8'));
  } catch {
    throw new CompareError(`${side}: the reply to ${what} is not JSON (HTTP ${reply.status})`);
  }
  if (v.error) throw new CompareError(`${side}: ${what} failed: code ${v.error.code ?? '?'} ${v.error.message ?? ''}`);
  return v.result;
}

function excerptOf(reply: Reply): string {
  const t = reply.body.toString('utf8');
  return t.length > 120 ? `${t.slice(0, 120)}…` : t.trimEnd();
}

/**
 * zecrpc answers getnetworkinfo with zcashd's own subversion. What tells them apart is
 * getmemoryinfo: zcashd's locked-memory manager always holds an arena (made at startup for its
 * secp256k1 context's seed), zecrpc's holds none.
 */
async function managesNoLockedMemory(reference: Endpoint): Promise<boolean> {
  const reply = await reference.send(Buffer.from('{"jsonrpc":"1.0","id":"compare","method":"getmemoryinfo","params":[]}'), 'getmemoryinfo');
  try {
    const info = JSON.parse(reply.body.toString('utf8')) as { result?: { locked?: { total?: unknown } } };
    return info.result?.locked?.total === 0;
  } catch {
    return false;
  }
}

export async function detectReferenceKind(reference: Endpoint): Promise<ReferenceKind> {
  const reply = await reference.send(
    Buffer.from('{"jsonrpc":"1.0","id":"compare","method":"getnetworkinfo","params":[]}'),
    'getnetworkinfo',
  );
  let subversion: unknown;
  try {
    subversion = (JSON.parse(reply.body.toString('utf8')) as { result?: { subversion?: unknown } }).result?.subversion;
  } catch {
    return 'unknown';
  }
  if (typeof subversion !== 'string') return 'unknown';
  if (/zebra/i.test(subversion)) return 'zebrad';
  if (/MagicBean/i.test(subversion)) return (await managesNoLockedMemory(reference)) ? 'zecrpc' : 'zcashd';
  if (/zecrpc/i.test(subversion)) return 'zecrpc';
  return 'unknown';
}

export async function runCompare(opts: CompareOptions): Promise<CompareResult> {
  const concurrency = Math.max(1, opts.concurrency ?? 8);
  const excluded = new Set(opts.exclude ?? []);
  const known = knownDeviations(opts.profile);
  const exclusionError = checkExclusions([...excluded], known);
  if (exclusionError) throw new CompareError(exclusionError);
  const maxDiffs = opts.maxDifferencesPerReply ?? 20;
  const maxReported = opts.maxReported ?? 50;
  const { reference, target } = opts;

  const startedWall = performance.now();
  const startedCpu = process.cpuUsage();
  const tipOf = async (ep: Endpoint) => {
    const r = resultOrThrow(
      await ep.send(Buffer.from('{"jsonrpc":"1.0","id":"compare","method":"getblockcount","params":[]}'), 'getblockcount'),
      ep.side,
      'getblockcount',
    );
    if (typeof r !== 'number') throw new CompareError(`${ep.side}: getblockcount did not answer a number`);
    return r;
  };
  const [refTip, tgtTip] = await Promise.all([tipOf(reference), tipOf(target)]);
  const kind =
    opts.referenceKind === undefined || opts.referenceKind === 'auto' ? await detectReferenceKind(reference) : opts.referenceKind;
  const heights = selectHeights(opts.heights, Math.min(refTip, tgtTip));
  const [refIdentity, tgtIdentity] = await Promise.all([chainIdentity(reference), chainIdentity(target)]);
  const warnings = identityWarnings(refIdentity, tgtIdentity, kind, opts.profile ?? DEFAULT_COMPAT_PROFILE);
  for (const w of warnings) opts.onWarning?.(w);

  const notes: string[] = [];
  if (refTip !== tgtTip)
    notes.push(
      `the nodes are at different tips (reference ${refTip}, target ${tgtTip}): confirmations and nextblockhash near the tips will differ`,
    );
  const refLatency = new LatencyRecorder();
  const tgtLatency = new LatencyRecorder();
  const tallies = new Map<string, MethodTally>();
  for (const m of opts.methods) {
    const keys = m.variants.length === 0 ? [methodKey(m.method, undefined)] : m.variants.map((v) => methodKey(m.method, v));
    for (const k of keys) tallies.set(k, { method: k, identical: 0, different: 0, drift: 0, excluded: 0 });
  }
  const deviations: DeviationTally[] = known.map((d) => ({
    name: d.name,
    description: d.description,
    documentedIn: d.documentedIn,
    excluded: excluded.has(d.name),
    requests: 0,
    differed: 0,
  }));
  const drift = new Map<DriftCategory, { count: number; places: Map<string, DriftTally['examples'][number]> }>();
  const records: DifferenceRecord[] = [];
  const totals = { requests: 0, identical: 0, different: 0, drift: 0, excluded: 0 };
  let compareMs = 0;
  let nextId = 1;
  const limiter = new Limiter(concurrency);

  const sendBoth = async (req: PlannedRequest): Promise<{ ref: Reply; tgt: Reply }> => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '1.0', id: nextId++, method: req.method, params: req.params }));
    const what = `${req.method} ${shortParams(req.params)}`;
    const timed = async (ep: Endpoint, rec: LatencyRecorder) => {
      const t0 = performance.now();
      const r = await ep.send(body, what);
      rec.record(performance.now() - t0, r.body.length);
      return r;
    };
    await limiter.acquire();
    try {
      const [ref, tgt] = await Promise.all([timed(reference, refLatency), timed(target, tgtLatency)]);
      return { ref, tgt };
    } finally {
      limiter.release();
    }
  };

  /** A request only one side needs answered, to plan the others (not compared, not timed). */
  const sendReference = async (method: string, params: unknown[]): Promise<Reply> => {
    await limiter.acquire();
    try {
      return await reference.send(
        Buffer.from(JSON.stringify({ jsonrpc: '1.0', id: nextId++, method, params })),
        `${method} ${shortParams(params)}`,
      );
    } finally {
      limiter.release();
    }
  };

  const record = (req: PlannedRequest, ref: Reply, tgt: Reply): ReplyComparison => {
    const t0 = performance.now();
    const cmp = compareReplies(ref, tgt, kind, maxDiffs);
    let tally = tallies.get(req.key);
    if (!tally) tallies.set(req.key, (tally = { method: req.key, identical: 0, different: 0, drift: 0, excluded: 0 }));
    const deviation = deviationOf(req.method, req.params, known);
    const devTally = deviation ? deviations.find((d) => d.name === deviation.name)! : undefined;
    if (devTally) devTally.requests++;
    totals.requests++;
    if (cmp.identical) {
      tally.identical++;
      totals.identical++;
    } else {
      const outcome: DifferenceRecord['outcome'] = cmp.onlyDrift ? 'drift' : devTally?.excluded ? 'excluded' : 'different';
      if (devTally && outcome !== 'drift') devTally.differed++;
      tally[outcome]++;
      totals[outcome]++;
      for (const d of cmp.differences) {
        if (!d.drift) continue;
        const entry = drift.get(d.drift) ?? { count: 0, places: new Map() };
        entry.count++;
        const place = genericPath(d.path);
        if (!entry.places.has(place) && entry.places.size < 8) {
          entry.places.set(place, { method: req.key, path: d.path, reference: d.reference, target: d.target });
        }
        drift.set(d.drift, entry);
      }
      if (records.length < maxReported && outcome !== 'drift') {
        records.push({
          method: req.key,
          request: `${req.method} ${shortParams(req.params)}`,
          height: req.height,
          outcome,
          ...(deviation ? { deviation: deviation.name } : {}),
          status: cmp.status,
          first: cmp.first,
          differences: cmp.differences,
        });
      }
    }
    compareMs += performance.now() - t0;
    return cmp;
  };

  const compareOne = async (req: PlannedRequest): Promise<Reply> => {
    const { ref, tgt } = await sendBoth(req);
    record(req, ref, tgt);
    return ref;
  };

  const selected = new Map(opts.methods.map((m) => [m.method, m]));
  const txMethods = opts.methods.filter((m) => m.scope === 'transaction');

  for (const m of opts.methods) {
    if (m.scope !== 'once') continue;
    await compareOne({ method: m.method, params: [], key: methodKey(m.method, undefined), height: null });
  }

  let heightsDone = 0;
  const visitHeight = async (h: number): Promise<void> => {
    const hashReply = selected.has('getblockhash')
      ? await compareOne({ method: 'getblockhash', params: [h], key: 'getblockhash', height: h })
      : await sendReference('getblockhash', [h]);
    const hash = resultString(hashReply);
    if (hash === null) throw new CompareError(`reference: getblockhash ${h} gave no hash: ${excerptOf(hashReply)}`);

    const getblock = selected.get('getblock');
    let rawHex: string | null = null;
    if (getblock?.variants.includes(0)) {
      rawHex = resultString(await compareOne({ method: 'getblock', params: [hash, 0], key: 'getblock:0', height: h }));
    } else if (txMethods.length > 0) {
      rawHex = resultString(await sendReference('getblock', [hash, 0]));
    }

    const tasks: Promise<unknown>[] = [];
    const add = (method: string, params: unknown[], variant: number | boolean | undefined) =>
      tasks.push(compareOne({ method, params, key: methodKey(method, variant), height: h }));
    if (getblock) {
      for (const v of getblock.variants) if (v !== 0) add('getblock', [hash, v], v);
      // The numeric-height form zecrpc accepts and zcashd rejects (a known deviation).
      const probeVariant = getblock.variants.includes(1) ? 1 : getblock.variants[0]!;
      tasks.push(
        compareOne({ method: 'getblock', params: [h, probeVariant], key: `getblock:${probeVariant} by numeric height`, height: h }),
      );
    }
    for (const v of selected.get('getblockheader')?.variants ?? []) add('getblockheader', [hash, v], v);
    if (selected.has('z_gettreestate')) add('z_gettreestate', [hash], undefined);
    if (txMethods.length > 0) {
      if (rawHex === null) {
        notes.push(`height ${h}: the reference gave no raw block, so its transactions were not compared`);
      } else {
        let txs: { hex: string; txid: string }[] = [];
        try {
          txs = decodeBlock(new Uint8Array(Buffer.from(rawHex, 'hex')), CURRENT_CHAIN_ACCEPTANCE).transactions.map((t) => ({
            hex: Buffer.from(t.bytes).toString('hex'),
            txid: t.txidHex,
          }));
        } catch (e) {
          notes.push(`height ${h}: the reference's block does not decode (${(e as Error).message}); its transactions were not compared`);
        }
        for (const tx of txs) {
          if (selected.has('decoderawtransaction')) add('decoderawtransaction', [tx.hex], undefined);
          for (const v of selected.get('getrawtransaction')?.variants ?? []) add('getrawtransaction', [tx.txid, v], v);
        }
      }
    }
    await Promise.all(tasks);
    heightsDone++;
    opts.progress?.update(heightsDone, totals.requests);
  };

  opts.progress?.start(heights.length);
  try {
    let next = 0;
    let failure: unknown = null;
    const worker = async () => {
      while (failure === null && next < heights.length) {
        const h = heights[next++]!;
        try {
          await visitHeight(h);
        } catch (e) {
          failure ??= e;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, heights.length)) }, worker));
    if (failure !== null) throw failure;
  } finally {
    opts.progress?.stop();
  }

  const cpu = process.cpuUsage(startedCpu);
  return {
    reference: { location: reference.location, kind },
    target: { location: target.location },
    tips: { reference: refTip, target: tgtTip },
    warnings,
    heights: { count: heights.length, first: heights[0] ?? null, last: heights.at(-1) ?? null },
    concurrency,
    methods: [...tallies.values()],
    totals,
    differences: records,
    drift: [...drift].map(([category, e]) => ({ category, count: e.count, examples: [...e.places.values()] })),
    deviations,
    latency: { reference: refLatency.summary(concurrency), target: tgtLatency.summary(concurrency) },
    overhead: {
      compareMs,
      perReplyUs: totals.requests > 0 ? (compareMs * 1000) / totals.requests : 0,
      processCpuMs: (cpu.user + cpu.system) / 1000,
      wallMs: performance.now() - startedWall,
    },
    notes,
    ok: totals.different === 0,
  };
}
