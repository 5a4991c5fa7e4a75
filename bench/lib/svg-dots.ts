/**
 * A dot plot as plain SVG text, for percentiles: one row per measured thing, one marker per
 * series on a shared axis (each series its own colour and shape, named in the legend), the
 * values printed in a column of their own, and an optional baseline band behind a row (e.g. the
 * ceiling's p50–p99 behind each server measured against it). Sized from its content like
 * svg.ts's bar chart, within the same bounds.
 */
import { axisMarks, axisPosition, CHAR_W, chartHead, esc, PALETTE, type Axis } from './svg.js';

const ROW_H = 18;
const HEADING_H = 24;
const PLOT_W = 420;
const MARKER_R = 4.5;
const SHAPES = ['circle', 'square', 'diamond', 'triangle'] as const;

export interface DotRow {
  label: string;
  /** One value per series present (a series may be missing from a row). */
  points: { series: string; value: number }[];
  /** Printed right of the plot. */
  text: string;
  /** A baseline row (the ceiling): drawn in grey. */
  baseline?: boolean;
  /** The baseline's range, drawn as a band behind this row. */
  band?: readonly [number, number];
}

export interface DotChartSpec {
  title: string;
  subtitle: string[];
  axis: Axis;
  series: string[];
  /** What a band stands for, in the legend (omit when no row has one). */
  bandLabel?: string;
  groups: { heading: string; rows: DotRow[] }[];
}

function marker(shape: (typeof SHAPES)[number], cx: number, cy: number, fill: string, title: string): string {
  const r = MARKER_R;
  const f = (n: number): string => n.toFixed(1);
  const t = `<title>${esc(title)}</title>`;
  switch (shape) {
    case 'circle':
      return `<circle class="point" cx="${f(cx)}" cy="${f(cy)}" r="${r}" fill="${fill}">${t}</circle>`;
    case 'square':
      return `<rect class="point" x="${f(cx - r)}" y="${f(cy - r)}" width="${2 * r}" height="${2 * r}" fill="${fill}">${t}</rect>`;
    case 'diamond':
      return `<path class="point" d="M${f(cx)} ${f(cy - r - 1)}L${f(cx + r + 1)} ${f(cy)}L${f(cx)} ${f(cy + r + 1)}L${f(cx - r - 1)} ${f(cy)}Z" fill="${fill}">${t}</path>`;
    case 'triangle':
      return `<path class="point" d="M${f(cx)} ${f(cy - r - 1)}L${f(cx + r + 1)} ${f(cy + r)}L${f(cx - r - 1)} ${f(cy + r)}Z" fill="${fill}">${t}</path>`;
  }
}

/** The dot plot as an SVG document; throws when a value is not finite, a series is not in the legend, or the chart would be oversized. */
export function dotChart(spec: DotChartSpec): string {
  const { axis } = spec;
  const rows = spec.groups.flatMap((g) => g.rows);
  for (const r of rows) {
    for (const p of r.points) {
      if (!Number.isFinite(p.value)) throw new Error(`chart "${spec.title}": row "${r.label}" has a value that is not a number`);
      if (!spec.series.includes(p.series)) throw new Error(`chart "${spec.title}": series "${p.series}" is not in the legend`);
    }
    if (r.band && !r.band.every(Number.isFinite))
      throw new Error(`chart "${spec.title}": row "${r.label}" has a band that is not a number`);
  }
  if (spec.series.length > SHAPES.length) throw new Error(`chart "${spec.title}": at most ${SHAPES.length} series`);
  if (!(axis.max > axis.min) || (axis.scale === 'log' && axis.min <= 0)) throw new Error(`chart "${spec.title}": bad axis`);

  const longest = (texts: string[]): number => Math.max(0, ...texts.map((t) => t.length)) * CHAR_W;
  const left = 24 + longest(rows.map((r) => r.label));
  const textX = left + PLOT_W + 14;
  const legend = [...spec.series, ...(spec.bandLabel ? [spec.bandLabel] : [])];
  const legendW = legend.reduce((w, s) => w + 30 + s.length * CHAR_W, 12);
  const top = 36 + spec.subtitle.length * 17 + 20 + 24;
  const plotH = spec.groups.reduce((h, g) => h + HEADING_H + g.rows.length * ROW_H, 0);
  const width = Math.max(
    textX + longest(rows.map((r) => r.text)) + 12,
    16 + longest([...spec.subtitle, spec.title, ...spec.groups.map((g) => g.heading)]),
    legendW,
  );
  const height = top + plotH + 50;

  const x = axisPosition(axis, left, PLOT_W);
  const f = (n: number): string => n.toFixed(1);
  const colour = (s: string): string => PALETTE[spec.series.indexOf(s) % PALETTE.length]!;
  const shape = (s: string): (typeof SHAPES)[number] => SHAPES[spec.series.indexOf(s)]!;

  const out = chartHead(spec, width, height);
  let lx = 12;
  const ly = 36 + spec.subtitle.length * 17 + 14;
  for (const s of spec.series) {
    out.push(`<g class="legend">${marker(shape(s), lx + 6, ly, colour(s), s)}</g>`);
    out.push(`<text x="${lx + 17}" y="${ly + 4}">${esc(s)}</text>`);
    lx += 30 + s.length * CHAR_W;
  }
  if (spec.bandLabel) {
    out.push(`<rect class="legend-band" x="${lx}" y="${ly - 6}" width="12" height="12" fill="#e4e4e4" stroke="#bbb"/>`);
    out.push(`<text x="${lx + 17}" y="${ly + 4}">${esc(spec.bandLabel)}</text>`);
  }

  const bottom = top + plotH;
  out.push(...axisMarks(axis, x, left + PLOT_W / 2, top, bottom));

  let y = top;
  for (const g of spec.groups) {
    out.push(`<text x="12" y="${y + 16}" font-weight="600">${esc(g.heading)}</text>`);
    y += HEADING_H;
    for (const r of g.rows) {
      const cy = y + ROW_H / 2;
      const ink = r.baseline ? '#777' : '#222';
      if (r.band) {
        const [a, b] = [x(Math.min(...r.band)), x(Math.max(...r.band))];
        out.push(`<rect class="band" x="${f(a)}" y="${y + 2}" width="${f(Math.max(2, b - a))}" height="${ROW_H - 4}" fill="#e4e4e4"/>`);
      }
      out.push(`<text x="${left - 10}" y="${f(cy + 4)}" text-anchor="end" fill="${ink}">${esc(r.label)}</text>`);
      const xs = r.points.map((p) => x(p.value));
      if (xs.length > 1) out.push(`<line x1="${f(Math.min(...xs))}" y1="${cy}" x2="${f(Math.max(...xs))}" y2="${cy}" stroke="${ink}"/>`);
      for (const p of r.points)
        out.push(marker(shape(p.series), x(p.value), cy, colour(p.series), `${g.heading}, ${r.label}, ${p.series}`));
      out.push(`<text x="${textX}" y="${f(cy + 4)}" fill="${ink}">${esc(r.text)}</text>`);
      y += ROW_H;
    }
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}
