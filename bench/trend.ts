// The long-run bench's arithmetic (issue 52 item 2): the least-squares slope of a figure against
// rounds with its 95% confidence interval, the growth it means over a run, and an ASCII plot of the
// samples for docs/benchmarks.md. Pure: tested in bench/trend.test.ts.

/** Student's t, two-sided 95%, by degrees of freedom (1–30); the normal's 1.96 beyond. */
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069,
  2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

export function t95(df: number): number {
  if (df < 1) return Infinity;
  return df <= T95.length ? T95[df - 1]! : 1.96;
}

export interface Trend {
  /** Change per round (least squares). */
  slope: number;
  /** Half the width of the slope's 95% confidence interval (Infinity with fewer than three points). */
  halfWidth: number;
  intercept: number;
  n: number;
}

/** The least-squares line of `ys` against `xs`, with its slope's 95% confidence interval. */
export function trend(xs: readonly number[], ys: readonly number[]): Trend {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return { slope: 0, halfWidth: Infinity, intercept: ys[0] ?? 0, n };
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i]!;
    my += ys[i]!;
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
  }
  if (sxx === 0) return { slope: 0, halfWidth: Infinity, intercept: my, n };
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  if (n < 3) return { slope, halfWidth: Infinity, intercept, n };
  let sse = 0;
  for (let i = 0; i < n; i++) sse += (ys[i]! - (intercept + slope * xs[i]!)) ** 2;
  const se = Math.sqrt(sse / (n - 2) / sxx);
  return { slope, halfWidth: t95(n - 2) * se, intercept, n };
}

export interface Budgeted {
  name: string;
  unit: string;
  /** Growth allowed over the measured span (the slope times the rounds it covers). */
  budget: number;
}

export interface Verdict {
  growth: number;
  low: number;
  high: number;
  /**
   * The growth is within the budget with 95% confidence: the interval's upper bound is, not only the
   * slope's estimate (a figure whose estimate is within but whose interval reaches past the budget
   * may be growing past it: not shown to be within). No interval (fewer than three samples): not ok.
   */
  ok: boolean;
}

/** The growth over `span` rounds the trend estimates, with its interval, against the budget. */
export function judge(t: Trend, span: number, budget: number): Verdict {
  const growth = t.slope * span;
  // A flat line over no span: no growth, whatever the interval (Infinity × 0 is NaN).
  const half = span === 0 ? 0 : t.halfWidth * span;
  const high = growth + half;
  return { growth, low: growth - half, high, ok: high <= budget };
}

/**
 * An ASCII plot of `ys` against `xs`: `rows` lines high, one column a sample, the y range on the
 * left. Monospace text, so that docs/benchmarks.md holds it as it was printed.
 */
export function asciiPlot(xs: readonly number[], ys: readonly number[], rows = 8, format: (v: number) => string = (v) => v.toFixed(2)): string[] {
  const n = Math.min(xs.length, ys.length);
  if (n === 0) return ['(no samples)'];
  let lo = Math.min(...ys.slice(0, n));
  let hi = Math.max(...ys.slice(0, n));
  if (hi === lo) {
    hi += 1;
    lo -= 1;
  }
  const grid = Array.from({ length: rows }, () => Array<string>(n).fill(' '));
  for (let i = 0; i < n; i++) {
    const r = Math.round(((ys[i]! - lo) / (hi - lo)) * (rows - 1));
    grid[rows - 1 - r]![i] = '*';
  }
  const labels = [format(hi), format(lo)];
  const w = Math.max(...labels.map((l) => l.length));
  const out = grid.map((row, k) => `${(k === 0 ? labels[0]! : k === rows - 1 ? labels[1]! : '').padStart(w)} |${row.join('')}`);
  out.push(`${''.padStart(w)} +${'-'.repeat(n)}`);
  out.push(`${''.padStart(w)}  rounds ${xs[0]} … ${xs[n - 1]}`);
  return out;
}
