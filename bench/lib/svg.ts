/**
 * Two charts as plain SVG text (no chart library): ratios against in-run baselines as
 * horizontal bars on a log scale with the 1× line marked, and latency percentiles as grouped
 * bars by concurrency.
 */

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const FONT = 'font-family="system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif"';
const PALETTE = ['#2f6fdb', '#e8833a', '#3aa655', '#b04fc8', '#d64545', '#7a7a7a'];

export interface RatioBar {
  label: string;
  ratio: number;
  /** Shown after the ratio, e.g. the absolute value. */
  note?: string;
}

/** Horizontal bars of ratios (log scale), grouped under section headings. */
export function ratioChart(title: string, subtitle: string, sections: { heading: string; bars: RatioBar[] }[]): string {
  const labelW = 380;
  const plotW = 440;
  const rowH = 22;
  const top = 64;
  const all = sections.flatMap((s) => s.bars.map((b) => b.ratio));
  const lo = Math.min(0.1, ...all.map((r) => r / 1.5));
  const hi = Math.max(10, ...all.map((r) => r * 1.5));
  const x = (r: number) => labelW + ((Math.log10(r) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * plotW;
  const rows = sections.reduce((n, s) => n + s.bars.length + 1, 0);
  const height = top + rows * rowH + 40;
  const width = labelW + plotW + 150;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT} font-size="12">`,
  );
  parts.push(`<rect width="100%" height="100%" fill="#ffffff"/>`);
  parts.push(`<text x="12" y="22" font-size="16" font-weight="600">${esc(title)}</text>`);
  parts.push(`<text x="12" y="42" fill="#555">${esc(subtitle)}</text>`);
  const ticks = [0.01, 0.03, 0.1, 0.3, 1, 3, 10, 30, 100, 300, 1000, 3000].filter((t) => t >= lo && t <= hi);
  const bottom = top + rows * rowH;
  for (const t of ticks) {
    parts.push(
      `<line x1="${x(t).toFixed(1)}" y1="${top - 6}" x2="${x(t).toFixed(1)}" y2="${bottom}" stroke="${t === 1 ? '#222' : '#e3e3e3'}" stroke-width="${t === 1 ? 1.5 : 1}"/>`,
    );
    parts.push(`<text x="${x(t).toFixed(1)}" y="${bottom + 16}" text-anchor="middle" fill="#555">${t}×</text>`);
  }
  parts.push(`<text x="${x(1).toFixed(1)}" y="${top - 10}" text-anchor="middle" fill="#222">baseline</text>`);
  let y = top;
  sections.forEach((s, si) => {
    parts.push(`<text x="12" y="${y + 15}" font-weight="600">${esc(s.heading)}</text>`);
    y += rowH;
    for (const b of s.bars) {
      const x0 = x(1);
      const x1 = x(b.ratio);
      const color = PALETTE[si % PALETTE.length]!;
      parts.push(`<text x="${labelW - 8}" y="${y + 15}" text-anchor="end">${esc(b.label)}</text>`);
      parts.push(
        `<rect x="${Math.min(x0, x1).toFixed(1)}" y="${y + 4}" width="${Math.max(1, Math.abs(x1 - x0)).toFixed(1)}" height="${rowH - 8}" fill="${color}" opacity="${b.ratio >= 1 ? 0.9 : 0.45}"/>`,
      );
      parts.push(
        `<text x="${(Math.max(x0, x1) + 6).toFixed(1)}" y="${y + 15}">${b.ratio.toFixed(b.ratio < 10 ? 2 : 0)}×${b.note ? ` ${esc(b.note)}` : ''}</text>`,
      );
      y += rowH;
    }
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

export interface LatencyGroup {
  /** e.g. "10 connections" */
  label: string;
  bars: { series: string; ms: number }[];
}

/** Grouped vertical bars: one group per concurrency, one bar per series. */
export function latencyChart(title: string, subtitle: string, groups: LatencyGroup[]): string {
  const series = [...new Set(groups.flatMap((g) => g.bars.map((b) => b.series)))];
  const barW = 26;
  const gap = 34;
  const left = 60;
  const top = 80;
  const plotH = 260;
  const groupW = series.length * barW + gap;
  const width = Math.max(520, left + groups.length * groupW + 40);
  const height = top + plotH + 60;
  const max = Math.max(1, ...groups.flatMap((g) => g.bars.map((b) => b.ms)));
  const step = niceStep(max / 5);
  const yMax = Math.ceil(max / step) * step;
  const y = (v: number) => top + plotH - (v / yMax) * plotH;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT} font-size="12">`,
  );
  parts.push(`<rect width="100%" height="100%" fill="#ffffff"/>`);
  parts.push(`<text x="12" y="22" font-size="16" font-weight="600">${esc(title)}</text>`);
  parts.push(`<text x="12" y="42" fill="#555">${esc(subtitle)}</text>`);
  series.forEach((s, i) => {
    const lx = left + i * 170;
    parts.push(`<rect x="${lx}" y="52" width="12" height="12" fill="${PALETTE[i % PALETTE.length]}"/>`);
    parts.push(`<text x="${lx + 16}" y="62">${esc(s)}</text>`);
  });
  for (let v = 0; v <= yMax + 1e-9; v += step) {
    parts.push(`<line x1="${left}" y1="${y(v).toFixed(1)}" x2="${width - 20}" y2="${y(v).toFixed(1)}" stroke="#e3e3e3"/>`);
    parts.push(`<text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" fill="#555">${formatTick(v)}</text>`);
  }
  parts.push(
    `<text x="14" y="${top + plotH / 2}" transform="rotate(-90 14 ${top + plotH / 2})" text-anchor="middle" fill="#555">ms</text>`,
  );
  groups.forEach((g, gi) => {
    const gx = left + 20 + gi * groupW;
    g.bars.forEach((b) => {
      const si = series.indexOf(b.series);
      const bx = gx + si * barW;
      parts.push(
        `<rect x="${bx}" y="${y(b.ms).toFixed(1)}" width="${barW - 4}" height="${(top + plotH - y(b.ms)).toFixed(1)}" fill="${PALETTE[si % PALETTE.length]}"/>`,
      );
      parts.push(
        `<text x="${bx + (barW - 4) / 2}" y="${(y(b.ms) - 4).toFixed(1)}" text-anchor="middle" font-size="10">${formatTick(b.ms)}</text>`,
      );
    });
    parts.push(`<text x="${gx + (series.length * barW) / 2}" y="${top + plotH + 18}" text-anchor="middle">${esc(g.label)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

function niceStep(raw: number): number {
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

function formatTick(v: number): string {
  return v >= 10 ? v.toFixed(0) : v >= 1 ? v.toFixed(1) : v.toFixed(2);
}
