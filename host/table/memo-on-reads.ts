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
  return (state) => {
    if (last && last.reads.every(([key, value]) => Reflect.get(state, key) === value)) return last.value;
    const reads = new Map<PropertyKey, unknown>();
    const readAll = (target: T) => {
      for (const key of Reflect.ownKeys(target)) reads.set(key, Reflect.get(target, key));
    };
    const tracked = new Proxy(state, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key);
        reads.set(key, value);
        return value;
      },
      has(target, key) {
        reads.set(key, Reflect.get(target, key));
        return Reflect.has(target, key);
      },
      ownKeys(target) {
        readAll(target);
        return Reflect.ownKeys(target);
      },
      getOwnPropertyDescriptor(target, key) {
        reads.set(key, Reflect.get(target, key));
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
    });
    const value = project(tracked);
    last = { reads: [...reads], value };
    return value;
  };
}
