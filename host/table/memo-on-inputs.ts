/**
 * What a view is built from, declared once as a record of named inputs, and the memo that follows
 * from it: every field of the record is compared, by identity, or by content for the fields a
 * source makes anew on each read (a game's derived list, the floor's notices). Nothing is listed
 * beside the projection by hand: a field added to the record is compared from then on, and a
 * projection that takes only the record cannot read anything the memo does not compare.
 */
export function inputsKey<I extends object>(inputs: I, byContent: readonly (keyof I)[]): unknown[] {
  return (Object.keys(inputs) as (keyof I)[]).map((k) => (byContent.includes(k) ? JSON.stringify(inputs[k] ?? null) : inputs[k]));
}

/** `project` memoised on its declared inputs (`inputsKey`): while every field is the same, the last result stands. */
export function memoOnInputs<I extends object, V>(project: (inputs: I) => V, byContent: readonly (keyof I)[] = []): (inputs: I) => V {
  let last: { key: unknown[]; value: V } | null = null;
  return (inputs) => {
    const key = inputsKey(inputs, byContent);
    if (last && last.key.length === key.length && last.key.every((x, n) => x === key[n])) return last.value;
    const value = project(inputs);
    last = { key, value };
    return value;
  };
}
