/**
 * What a view is built from, declared once as a record of named inputs, and the memo that follows
 * from it: every field of the record is compared, by identity, or by content for the fields a
 * source makes anew on each read (a game's derived list, the floor's notices). Nothing is listed
 * beside the projection by hand: a field added to the record is compared from then on, and a
 * projection that takes only the record cannot read anything the memo does not compare.
 */
export function inputsKey<I extends object>(inputs: I, byContent: readonly (keyof I)[]): unknown[] {
  // Loops, not callbacks: a closure made at every call is a new function to V8, optimised again
  // and again over a long run (issue 52).
  const key: unknown[] = [];
  for (const k of Object.keys(inputs) as (keyof I)[]) key.push(byContent.includes(k) ? JSON.stringify(inputs[k] ?? null) : inputs[k]);
  return key;
}

/** Whether two keys hold the same values, by identity, in the same order. */
function sameKey(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let n = 0; n < a.length; n++) if (a[n] !== b[n]) return false;
  return true;
}

/** `project` memoised on its declared inputs (`inputsKey`): while every field is the same, the last result stands. */
export function memoOnInputs<I extends object, V>(project: (inputs: I) => V, byContent: readonly (keyof I)[] = []): (inputs: I) => V {
  let last: { key: unknown[]; value: V } | null = null;
  return (inputs) => {
    const key = inputsKey(inputs, byContent);
    if (last && sameKey(last.key, key)) return last.value;
    const value = project(inputs);
    last = { key, value };
    return value;
  };
}
