/** Two dependency lists are equal when each element (from `from` on) is the same value, arrays compared element by element. */
export function sameDeps(a: readonly unknown[], b: readonly unknown[], from = 0): boolean {
  if (a.length !== b.length) return false;
  for (let i = from; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length || x.some((v, j) => v !== y[j])) return false;
  }
  return true;
}
