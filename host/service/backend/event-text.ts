/**
 * A device event as the trace shows it: its type, then its facts (`escrowed 500 MOP`,
 * `jam where=acceptor`, `connected protocol=id003 firmware=…`), never a JSON dump.
 */
export function eventText(e: { type: string } & Record<string, unknown>): string {
  const parts = [e.type];
  for (const [k, v] of Object.entries(e)) {
    if (k === 'type' || v === undefined) continue;
    if (k === 'note' && typeof v === 'object' && v !== null) {
      const n = v as { denomination?: unknown; currency?: unknown };
      parts.push(`${String(n.denomination)} ${String(n.currency)}`);
    } else if (typeof v !== 'object') parts.push(`${k}=${String(v)}`);
  }
  return parts.join(' ');
}

/** The station of a bill acceptor's name (`BA-3` → 3); null for any other device. */
export function stationOfDevice(device: string): number | null {
  const m = /^BA-(\d+)$/.exec(device);
  return m ? Number(m[1]) : null;
}
