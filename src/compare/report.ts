/** The comparison report for people (aligned text) and for machines (`--json`). */
import type { ClassifiedDifference } from './compare-reply.js';
import type { LatencySummary } from './latency.js';
import type { CompareResult, DifferenceRecord } from './run.js';
import { DRIFT_DESCRIPTIONS } from './zebra-drift.js';

const clip = (s: string | undefined, n = 100): string => (s === undefined ? '(absent)' : s.length > n ? `${s.slice(0, n)}…` : s);
const ms = (v: number): string => (Number.isFinite(v) ? v.toFixed(v < 10 ? 2 : 1) : '-');

function describeDifference(d: ClassifiedDifference, referenceName: string): string {
  const where = d.path === '' ? '(top level)' : d.path;
  switch (d.kind) {
    case 'missing-in-reference':
      return `${where}: only the target has it: ${clip(d.target)}`;
    case 'missing-in-target':
      return `${where}: only the ${referenceName} has it: ${clip(d.reference)}`;
    case 'member-order':
      return `${where}: members in another order: ${referenceName} ${clip(d.reference)} | target ${clip(d.target)}`;
    default:
      return `${where}: ${referenceName} ${clip(d.reference)} | target ${clip(d.target)} (${d.kind})`;
  }
}

function recordLines(r: DifferenceRecord, referenceName: string): string[] {
  const lines = [
    `  ${r.method}  ${r.request}${r.height !== null ? `  (height ${r.height})` : ''}${r.outcome === 'excluded' ? `  [excluded: ${r.deviation}]` : r.deviation ? `  [known deviation ${r.deviation}]` : ''}`,
  ];
  if (r.status.reference !== r.status.target)
    lines.push(`    HTTP status: ${referenceName} ${r.status.reference} | target ${r.status.target}`);
  if (r.first) {
    lines.push(
      `    first differing byte: offset ${r.first.offset} (bodies of ${r.first.referenceLength} and ${r.first.targetLength} bytes)`,
    );
    lines.push(`      ${referenceName.padEnd(9)} ${r.first.referenceExcerpt}`);
    lines.push(`      ${'target'.padEnd(9)} ${r.first.targetExcerpt}`);
  }
  for (const d of r.differences) {
    if (d.path === '(HTTP status)') continue;
    lines.push(`    ${describeDifference(d, referenceName)}${d.drift ? `  [zebrad drift: ${d.drift}]` : ''}`);
  }
  return lines;
}

function latencyRow(name: string, l: LatencySummary): string {
  return (
    `  ${name.padEnd(10)} ${ms(l.p50).padStart(8)} ${ms(l.p90).padStart(8)} ${ms(l.p99).padStart(8)} ${ms(l.max).padStart(8)}` +
    ` ${(Number.isFinite(l.throughput) ? l.throughput.toFixed(0) : '-').padStart(9)} ${(Number.isFinite(l.bytesPerSecond) ? (l.bytesPerSecond / 1e6).toFixed(1) : '-').padStart(7)}`
  );
}

export function formatReport(r: CompareResult): string {
  const refName = r.reference.kind === 'unknown' ? 'reference' : r.reference.kind;
  const out: string[] = [];
  out.push('zecrpc compare');
  out.push(
    `  reference  ${r.reference.location} (${r.reference.kind === 'unknown' ? 'kind unknown: compared strictly' : r.reference.kind})`,
  );
  out.push(`  target     ${r.target.location}`);
  const span = r.heights.first === null ? 'none' : `${r.heights.first}..${r.heights.last}`;
  out.push(
    `  heights    ${r.heights.count} in ${span}; tips: reference ${r.tips.reference}, target ${r.tips.target}; ${r.concurrency} requests in flight`,
  );
  out.push('');
  const w = Math.max(24, ...r.methods.map((m) => m.method.length)) + 2;
  out.push(
    `${'method'.padEnd(w)}${'identical'.padStart(10)}${'different'.padStart(11)}${'zebrad drift'.padStart(14)}${'excluded'.padStart(10)}`,
  );
  for (const m of r.methods) {
    out.push(
      `${m.method.padEnd(w)}${String(m.identical).padStart(10)}${String(m.different).padStart(11)}${String(m.drift).padStart(14)}${String(m.excluded).padStart(10)}`,
    );
  }
  const t = r.totals;
  out.push(
    `${'total'.padEnd(w)}${String(t.identical).padStart(10)}${String(t.different).padStart(11)}${String(t.drift).padStart(14)}${String(t.excluded).padStart(10)}`,
  );

  const shown = r.differences.filter((d) => d.outcome === 'different');
  if (t.different > 0) {
    out.push('', `Differences (${shown.length} of ${t.different} shown):`);
    for (const d of shown) out.push(...recordLines(d, refName));
  }
  if (r.drift.length > 0) {
    out.push(
      '',
      `zebrad drift: ${t.drift} replies differ only in zebrad's known format drifts (not zecrpc errors; what changes for clients moving from zebrad):`,
    );
    for (const d of r.drift) {
      out.push(`  ${d.category}: ${d.count} — ${DRIFT_DESCRIPTIONS[d.category]}`);
      for (const e of d.examples)
        out.push(`      e.g. ${e.method} ${e.path || '(top level)'}: zebrad ${clip(e.reference, 60)} | zcashd-exact ${clip(e.target, 60)}`);
    }
  }
  const devs = r.deviations.filter((d) => d.requests > 0);
  if (devs.length > 0) {
    out.push('', 'Known deviations of zecrpc from zcashd:');
    for (const d of devs) {
      const state = d.excluded
        ? `excluded by --exclude ${d.name}`
        : d.differed > 0
          ? `NOT excluded: counted as differences (pass --exclude ${d.name} to accept)`
          : 'not excluded';
      out.push(`  ${d.name}: ${d.requests} requests, ${d.differed} differed; ${state}`);
      out.push(`      ${d.description} (documented in ${d.documentedIn})`);
    }
    for (const rec of r.differences.filter((x) => x.outcome === 'excluded').slice(0, 1))
      out.push('  first excluded reply:', ...recordLines(rec, refName));
  }
  if (r.notes.length > 0) {
    out.push('', 'Notes:');
    for (const n of r.notes.slice(0, 20)) out.push(`  ${n}`);
    if (r.notes.length > 20) out.push(`  … ${r.notes.length - 20} more`);
  }
  out.push(
    '',
    `Latency (ms)     ${'p50'.padStart(8)} ${'p90'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)} ${'req/s'.padStart(9)} ${'MB/s'.padStart(7)}   (req/s: at ${r.concurrency} in flight)`,
  );
  out.push(latencyRow(refName, r.latency.reference));
  out.push(latencyRow('target', r.latency.target));
  const o = r.overhead;
  out.push(
    '',
    `Overhead of compare itself: ${o.compareMs.toFixed(1)} ms comparing ${t.requests} reply pairs (${o.perReplyUs.toFixed(0)} µs each); ` +
      `process CPU ${o.processCpuMs.toFixed(0)} ms over ${(o.wallMs / 1000).toFixed(2)} s wall` +
      (r.target.location.includes('(in process)') ? ' (includes the in-process target)' : ''),
  );
  out.push(
    '',
    r.ok
      ? `Result: no differences in ${t.requests} requests${t.drift || t.excluded ? ` (${t.drift} zebrad drift, ${t.excluded} excluded)` : ''}`
      : `Result: ${t.different} of ${t.requests} requests differ`,
  );
  return out.join('\n') + '\n';
}

export function formatJson(r: CompareResult): string {
  return JSON.stringify(r, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2) + '\n';
}
