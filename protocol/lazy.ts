import { z } from 'zod';

/**
 * Schemas built on first use (issue 52 item 3). Every screen loads the whole protocol, but a table
 * page parses only the table's messages and a station page its own: a schema built at load that a
 * page never parses is heap the page keeps for nothing (zod's schemas were 0.6 MB of each page's,
 * more than half of them another view's or the host's). A schema made with `lazily` is built the
 * first time something parses with it or looks inside it, once (the same schema every time after),
 * and checks exactly what it would have checked built at load: zod's `z.lazy` passes the input, the
 * issues and their paths through unchanged.
 */

const built = new Set<string>();

/** `build()`'s schema, built on first use and kept; `name` is what `schemasBuilt` says of it. */
export function lazily<T extends z.ZodType>(name: string, build: () => T): z.ZodLazy<T> {
  let schema: T | undefined;
  return z.lazy(() => {
    if (schema === undefined) {
      schema = build();
      built.add(name);
    }
    return schema;
  });
}

/** The names of the schemas made with `lazily` built so far in this process (tests: what a page builds). */
export function schemasBuilt(): ReadonlySet<string> {
  return built;
}
