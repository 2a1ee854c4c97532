/**
 * A projection of the table's state, memoised on what it read. The state is immutable data whose
 * fields are replaced, never changed in place, so a projection that read the same field values
 * (compared by identity) as last time gives the same result. Which fields those are is not kept
 * by hand beside the projection: each run records the fields it reads (through a proxy), and the
 * next call compares exactly those. A field added to the state and read by the projection is
 * in its key the first time it is read; one it does not read cannot make it stale.
 *
 * For pure projections only: the same fields read with the same values must mean the same result
 * (a branch taken on a field's value reads the same fields after it). Spreading or listing the
 * state's keys reads every field.
 */
export function memoOnReads<T extends object, V>(project: (state: T) => V): (state: T) => V {
  let last: { reads: readonly (readonly [PropertyKey, unknown])[]; value: V } | null = null;
  // The fields the run under way has read (null between runs: a read then is of no run's). The
  // proxy's handler is made once per memo, not once per call: a closure made anew at every call is
  // a new function to V8, optimised again and again over a long run (issue 52).
  let reads: Map<PropertyKey, unknown> | null = null;
  const handler: ProxyHandler<T> = {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      reads?.set(key, value);
      return value;
    },
    has(target, key) {
      reads?.set(key, Reflect.get(target, key));
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      for (const key of Reflect.ownKeys(target)) reads?.set(key, Reflect.get(target, key));
      return Reflect.ownKeys(target);
    },
    getOwnPropertyDescriptor(target, key) {
      reads?.set(key, Reflect.get(target, key));
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  };
  return (state) => {
    if (last && readsAlike(last.reads, state)) return last.value;
    // A projection that calls its own memo (another state) has that run's reads apart from its own.
    const outer = reads;
    const mine = new Map<PropertyKey, unknown>();
    reads = mine;
    let value: V;
    try {
      value = project(new Proxy(state, handler));
    } finally {
      reads = outer;
    }
    last = { reads: [...mine], value };
    return value;
  };
}

/** Whether `state` has every field read as it was read (by identity). */
function readsAlike(reads: readonly (readonly [PropertyKey, unknown])[], state: object): boolean {
  for (const [key, value] of reads) if (Reflect.get(state, key) !== value) return false;
  return true;
}
