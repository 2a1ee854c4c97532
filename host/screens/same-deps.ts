/** Two dependency lists are equal when each element (from `from` on) is the same value, arrays compared element by element. */
export function sameDeps(a: readonly unknown[], b: readonly unknown[], from = 0): boolean {
  if (a.length !== b.length) return false;
  for (let i = from; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || !sameElements(x, y)) return false;
  }
  return true;
}

/** Two arrays with the same elements by identity, in the same order (a loop: no closure made at every call, issue 52). */
function sameElements(x: readonly unknown[], y: readonly unknown[]): boolean {
  if (x.length !== y.length) return false;
  for (let j = 0; j < x.length; j++) if (x[j] !== y[j]) return false;
  return true;
}
