/** Which page an address asks (its part after `#`), with the table and the round it names decoded. */
export type Route =
  | { page: 'floor' | 'alarms' | 'plots' | 'report' | 'audit' }
  | { page: 'table'; table: string }
  | { page: 'round'; table: string; round: string }
  /** A table or round whose escapes are malformed (`%E0`): it names none, and the page says so in its words. */
  | { page: 'unreadable'; what: 'no-table' | 'no-round' };

/** A name's escapes decoded; undefined when they are malformed (decodeURIComponent throws URIError). */
function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

export function routeOf(hash: string): Route {
  const route = hash.replace(/^#?\/?/, '');
  const round = /^table\/([^/]+)\/round\/([^/]+)$/.exec(route);
  if (round) {
    const table = decoded(round[1] ?? '');
    if (table === undefined) return { page: 'unreadable', what: 'no-table' };
    const id = decoded(round[2] ?? '');
    return id === undefined ? { page: 'unreadable', what: 'no-round' } : { page: 'round', table, round: id };
  }
  if (route.startsWith('table/')) {
    const table = decoded(route.slice('table/'.length));
    return table === undefined ? { page: 'unreadable', what: 'no-table' } : { page: 'table', table };
  }
  if (route === 'alarms' || route === 'plots' || route === 'report' || route === 'audit') return { page: route };
  return { page: 'floor' };
}
