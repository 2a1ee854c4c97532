/** The 50th and 99th percentiles of `xs` (0 for none): the campaign's timings as printed. */
export function percentiles(xs: number[]): { p50: number; p99: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
  return { p50: at(50), p99: at(99) };
}
