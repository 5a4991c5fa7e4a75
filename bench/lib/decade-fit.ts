/** Least-squares fit of `value = a + b · log10(keys)`: a cost's intercept at 10^0 keys and its slope b per tenfold growth. */
export interface DecadeFit {
  intercept: number;
  per_decade: number;
}

export function fitPerDecade(points: readonly { keys: number; value: number }[]): DecadeFit {
  const xs = points.map((p) => Math.log10(p.keys));
  const ys = points.map((p) => p.value);
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  const b = sxx === 0 ? 0 : sxy / sxx;
  return { intercept: my - b * mx, per_decade: b };
}
