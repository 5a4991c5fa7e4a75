/**
 * One horizontal bar chart as plain SVG text (no chart library), used for each of the benchmark
 * charts: rows grouped under headings, one or more coloured bars per row (a legend names the
 * colours), each bar's value printed beside it, an optional reference line (the 1.0 baseline) and
 * optional min–max whiskers. The sizes come from the content, so every label is drawn whole, and
 * are bounded so that a long results file cannot make an unreadable chart.
 */

export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
export const FONT = 'font-family="system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif"';

/** Colours that stay distinct for readers with the common colour-vision deficiencies (Okabe–Ito). */
export const PALETTE = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00'] as const;

/** A generous width per character of 12 px text: a label measured with it is never clipped. */
export const CHAR_W = 7;
const BAR_H = 12;
const BAR_GAP = 2;
const ROW_PAD = 5;
const HEADING_H = 24;
const PLOT_W = 420;
/** Bounds that keep a chart readable on a page; a spec that would exceed them is refused. */
export const MAX_WIDTH = 1400;
export const MAX_HEIGHT = 1600;

export interface Bar {
  /** The series (legend entry) this bar belongs to. */
  series: string;
  value: number;
  /** What is printed beside the bar, e.g. `0.96× (309 of 313 req/s)` or `< 1 ms`. */
  text: string;
  /** Drawn as a whisker across the bar, e.g. the slowest and fastest round. */
  range?: readonly [number, number];
}

export interface BarRow {
  label: string;
  bars: Bar[];
}

export interface Axis {
  scale: 'linear' | 'log';
  /** Ends of the axis; on a log scale a value at or below `min` is drawn as a stub at `min`. */
  min: number;
  max: number;
  ticks: number[];
  tickLabel: (v: number) => string;
  title: string;
}

export interface BarChartSpec {
  title: string;
  /** Lines under the title: the machine and run, and how to read the chart. */
  subtitle: string[];
  axis: Axis;
  reference?: { value: number; label: string };
  series: string[];
  groups: { heading: string; rows: BarRow[] }[];
}

/** The bar chart as an SVG document; throws when a value is not finite or the chart would be oversized. */
export function barChart(spec: BarChartSpec): string {
  const { axis } = spec;
  const bars = spec.groups.flatMap((g) => g.rows.flatMap((r) => r.bars));
  for (const b of bars) {
    const values = [b.value, ...(b.range ?? [])];
    if (!values.every(Number.isFinite)) throw new Error(`chart "${spec.title}": bar "${b.text}" has a value that is not a number`);
    if (!spec.series.includes(b.series)) throw new Error(`chart "${spec.title}": series "${b.series}" is not in the legend`);
  }
  if (!(axis.max > axis.min) || (axis.scale === 'log' && axis.min <= 0)) throw new Error(`chart "${spec.title}": bad axis`);

  const longest = (texts: string[]): number => Math.max(0, ...texts.map((t) => t.length)) * CHAR_W;
  const labelW = 24 + longest(spec.groups.flatMap((g) => g.rows.map((r) => r.label)));
  const textW = 16 + longest(bars.map((b) => b.text));
  const left = labelW;
  const legendRows = Math.ceil(spec.series.length / 3);
  const top = 36 + spec.subtitle.length * 17 + legendRows * 20 + 22;
  const rowHeight = (r: BarRow): number => r.bars.length * (BAR_H + BAR_GAP) - BAR_GAP + 2 * ROW_PAD;
  const plotH = spec.groups.reduce((h, g) => h + HEADING_H + g.rows.reduce((s, r) => s + rowHeight(r), 0), 0);
  const width = Math.max(left + PLOT_W + textW, 16 + longest([...spec.subtitle, spec.title]));
  const height = top + plotH + 50;

  const x = axisPosition(axis, left, PLOT_W);
  const f = (n: number): string => n.toFixed(1);
  const colour = (series: string): string => PALETTE[spec.series.indexOf(series) % PALETTE.length]!;

  const out = chartHead(spec, width, height);
  const legendTop = 36 + spec.subtitle.length * 17 + 8;
  spec.series.forEach((s, i) => {
    const lx = 12 + (i % 3) * 300;
    const ly = legendTop + Math.floor(i / 3) * 20;
    out.push(`<rect class="legend" x="${lx}" y="${ly}" width="12" height="12" fill="${colour(s)}"/>`);
    out.push(`<text x="${lx + 17}" y="${ly + 10}">${esc(s)}</text>`);
  });

  const bottom = top + plotH;
  out.push(...axisMarks(axis, x, left + PLOT_W / 2, top, bottom));

  let y = top;
  for (const g of spec.groups) {
    out.push(`<text x="12" y="${y + 16}" font-weight="600">${esc(g.heading)}</text>`);
    y += HEADING_H;
    for (const r of g.rows) {
      const h = rowHeight(r);
      out.push(`<text x="${left - 10}" y="${f(y + h / 2 + 4)}" text-anchor="end">${esc(r.label)}</text>`);
      r.bars.forEach((b, i) => {
        const by = y + ROW_PAD + i * (BAR_H + BAR_GAP);
        const x0 = axis.scale === 'log' ? left : x(Math.max(axis.min, 0));
        const x1 = x(b.value);
        out.push(
          `<rect class="bar" x="${f(Math.min(x0, x1))}" y="${by}" width="${f(Math.max(2, Math.abs(x1 - x0)))}" height="${BAR_H}" fill="${colour(b.series)}"><title>${esc(`${r.label}, ${b.series}: ${b.text}`)}</title></rect>`,
        );
        let textX = Math.max(x0, x1) + 6;
        if (b.range) {
          const [lo, hi] = [x(Math.min(...b.range)), x(Math.max(...b.range))];
          const my = by + BAR_H / 2;
          out.push(
            `<path class="whisker" d="M${f(lo)} ${my - 4}v8M${f(lo)} ${my}H${f(hi)}M${f(hi)} ${my - 4}v8" stroke="#222" fill="none"/>`,
          );
          textX = Math.max(textX, hi + 6);
        }
        out.push(`<text x="${f(textX)}" y="${by + BAR_H - 2}">${esc(b.text)}</text>`);
      });
      y += h;
    }
  }
  if (spec.reference) {
    const rx = f(x(spec.reference.value));
    out.push(
      `<line class="reference" x1="${rx}" y1="${top - 8}" x2="${rx}" y2="${bottom}" stroke="#222" stroke-width="1.5" stroke-dasharray="5 3"/>`,
    );
    out.push(`<text x="${rx}" y="${top - 12}" text-anchor="middle" fill="#222">${esc(spec.reference.label)}</text>`);
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}

/** Ticks at `multiples` (1, 2 and 5 by default) of each power of ten within [min, max], for a log axis. */
export function logTicks(min: number, max: number, multiples: readonly number[] = [1, 2, 5]): number[] {
  const ticks: number[] = [];
  for (let p = Math.floor(Math.log10(min)); p <= Math.ceil(Math.log10(max)); p++) {
    for (const m of multiples) {
      const t = m * 10 ** p;
      if (t >= min * 0.999 && t <= max * 1.001) ticks.push(Number(t.toPrecision(6)));
    }
  }
  return ticks;
}

/** The axis' grid lines and tick labels from `top` to `bottom`, and its title centred at `centreX`. */
export function axisMarks(axis: Axis, x: (v: number) => number, centreX: number, top: number, bottom: number): string[] {
  const f = (v: number): string => v.toFixed(1);
  const out: string[] = [];
  for (const t of axis.ticks) {
    out.push(`<line x1="${f(x(t))}" y1="${top - 4}" x2="${f(x(t))}" y2="${bottom}" stroke="#e6e6e6"/>`);
    out.push(`<text x="${f(x(t))}" y="${bottom + 16}" text-anchor="middle" fill="#555">${esc(axis.tickLabel(t))}</text>`);
  }
  out.push(`<text x="${f(centreX)}" y="${bottom + 36}" text-anchor="middle" fill="#333">${esc(axis.title)}</text>`);
  return out;
}

/**
 * A chart's opening: the size check (a chart too large to read is split, not drawn), the
 * document, its white ground, the title and the subtitle lines.
 */
export function chartHead(spec: { title: string; subtitle: readonly string[] }, width: number, height: number): string[] {
  if (width > MAX_WIDTH || height > MAX_HEIGHT) {
    throw new Error(`chart "${spec.title}" would be ${width}×${height} px (at most ${MAX_WIDTH}×${MAX_HEIGHT}): split it`);
  }
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT} font-size="12">`,
    '<rect width="100%" height="100%" fill="#ffffff"/>',
    `<text x="12" y="24" font-size="16" font-weight="600">${esc(spec.title)}</text>`,
  ];
  spec.subtitle.forEach((line, i) => out.push(`<text x="12" y="${44 + i * 17}" fill="#555">${esc(line)}</text>`));
  return out;
}

/** Where a value falls on the axis, in pixels from the left edge (`left` to `left + width`), clamped to its range. */
export function axisPosition(axis: Axis, left: number, width: number): (v: number) => number {
  const [lo, hi] = axis.scale === 'log' ? [Math.log10(axis.min), Math.log10(axis.max)] : [axis.min, axis.max];
  return (v) => {
    const c = Math.min(axis.max, Math.max(axis.min, v));
    return left + (((axis.scale === 'log' ? Math.log10(c) : c) - lo) / (hi - lo)) * width;
  };
}
