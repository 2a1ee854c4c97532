/** A straight line through measured points (least squares): cost = fixed + perUnit × units. */
export interface Line {
  readonly fixed: number;
  readonly perUnit: number;
}

export function fitLine(points: readonly (readonly [x: number, y: number])[]): Line {
  if (points.length < 2) throw new Error('a line needs two points');
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  if (sxx === 0) throw new Error('a line needs two different sizes');
  const perUnit = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / sxx;
  // A fixed cost below zero is the fit's artefact (two noisy points), not a host that gains time.
  return { fixed: Math.max(0, my - perUnit * mx), perUnit: Math.max(0, perUnit) };
}

export const at = (l: Line, units: number): number => l.fixed + l.perUnit * units;
