/**
 * zcashd's log filter (tracing-subscriber 0.3's `EnvFilter`, which zcashd v6.12.2's
 * `setlogfilter` reloads) read into the levels of zecrpc's logs: the node's own log (zcashd's
 * `main` target) and the per-request lines (its `rpc` debug category).
 *
 * `EnvFilter::new` never fails: a directive it cannot read is skipped (zcashd prints
 * "ignoring …" to standard error and carries on), and a target no directive names is off
 * unless a bare level sets the default. Directives scoped to a span (`target[span]=level`)
 * select nothing in zecrpc, which logs no spans, and are read and dropped likewise.
 */

/** tracing's levels, most severe first, with `off` as pino's `silent`. */
export type FilterLevel = 'off' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

const LEVELS_BY_NUMBER: readonly FilterLevel[] = ['off', 'error', 'warn', 'info', 'debug', 'trace'];

export interface LogFilter {
  /** The level of a bare directive (`info`), or null: targets no directive names are off. */
  defaultLevel: FilterLevel | null;
  /** target → level, the last directive for a target winning. */
  targets: Map<string, FilterLevel>;
}

/** tracing-core's `LevelFilter::from_str`: 0–5, or a name in any case (`""` is error). */
export function parseLevel(text: string): FilterLevel | null {
  if (/^\d+$/.test(text)) return LEVELS_BY_NUMBER[Number(text)] ?? null;
  if (text === '') return 'error';
  const lower = text.toLowerCase();
  return (LEVELS_BY_NUMBER as readonly string[]).includes(lower) ? (lower as FilterLevel) : null;
}

/** A target as tracing-subscriber's directive grammar takes it: no spaces, brackets, braces or `=`. */
const TARGET = /^[^\s[\]{}=,]+$/;

/** Reads a comma-separated filter as `EnvFilter::new` does, keeping what zecrpc's logs can use. */
export function parseLogFilter(text: string): LogFilter {
  const filter: LogFilter = { defaultLevel: null, targets: new Map() };
  for (const directive of text.split(',')) {
    if (directive === '') continue;
    const eq = directive.lastIndexOf('=');
    const head = eq < 0 ? directive : directive.slice(0, eq);
    const level = eq < 0 ? null : parseLevel(directive.slice(eq + 1));
    if (eq >= 0 && level === null) continue;
    if (head.includes('[')) continue;
    if (eq < 0) {
      const bare = parseLevel(head);
      if (bare !== null) filter.defaultLevel = bare;
      else if (TARGET.test(head)) filter.targets.set(head, 'trace');
      continue;
    }
    if (head === '') filter.defaultLevel = level;
    else if (TARGET.test(head)) filter.targets.set(head, level!);
  }
  return filter;
}

/**
 * The level events of `target` pass at: the directive with the longest target that the target
 * starts with (tracing's module-path match), else the default, else off.
 */
export function levelFor(filter: LogFilter, target: string): FilterLevel {
  let best: string | null = null;
  for (const name of filter.targets.keys()) {
    const matches = target === name || target.startsWith(`${name}::`);
    if (matches && (best === null || name.length > best.length)) best = name;
  }
  return best !== null ? filter.targets.get(best)! : (filter.defaultLevel ?? 'off');
}

/**
 * zcashd's `LogConfigFilter()` (logging.cpp): the filter the `-debug` flags give, which
 * `setlogfilter`'s help shows and an empty filter restores.
 */
export function zcashdDefaultFilter(debugCategories: readonly string[]): string {
  const categories = [...new Set(debugCategories)].sort();
  if (categories.includes('') || categories.includes('1')) return 'debug';
  return ['error,main=info', ...categories.map((c) => `${c}=debug`)].join(',');
}

/** pino's level names: tracing's `off` is `silent`. */
export type PinoLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

const pinoLevel = (level: FilterLevel): PinoLevel => (level === 'off' ? 'silent' : level);

/**
 * The pino levels a filter gives zecrpc's two loggers: the node's log follows the `main`
 * target; the HTTP layer's follows `rpc`, whose request lines (logged at info by the HTTP
 * layer) zcashd prints only at debug, so below debug that logger keeps only its warnings.
 */
export function pinoLevelsFor(filter: LogFilter): { node: PinoLevel; http: PinoLevel } {
  const rpc = levelFor(filter, 'rpc');
  const http: PinoLevel = rpc === 'off' || rpc === 'error' ? pinoLevel(rpc) : rpc === 'debug' || rpc === 'trace' ? rpc : 'warn';
  return { node: pinoLevel(levelFor(filter, 'main')), http };
}

/** Where `setlogfilter` sends a filter: the process that owns the logs. */
export interface LogFilterTarget {
  /** The filter zcashd would start with (`LogConfigFilter()`), for the help text. */
  readonly defaultFilter: string;
  /** Applies a filter to the node's log and the request lines. */
  apply(filter: LogFilter): void;
  /** Restores the levels the process started with. */
  reset(): void;
}
