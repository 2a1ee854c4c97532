import { statSync } from 'node:fs';
import { HostMetrics } from '../metrics/host-metrics.js';
import type { ScreenSession } from '../screens/screen-session.js';
import type { Opened } from './opened.js';
import type { TableRuntime } from './table-runtime.js';

/** The host's Prometheus metrics, and the screen sessions they count. */
export interface CountedHost {
  metrics: HostMetrics;
  /** The live screen sessions (the metrics' connected screens). */
  sessions: Set<ScreenSession>;
  stopCountingTilts: () => void;
}

/** Prometheus metrics, read from the same sources as /healthz and service mode; faults raised are counted as journalled. */
export function countHost(
  { config, ledger, sync }: Pick<Opened, 'config' | 'ledger' | 'sync'>,
  { tilts, table }: Pick<TableRuntime, 'tilts' | 'table'>,
): CountedHost {
  const sessions = new Set<ScreenSession>();
  const metrics = new HostMetrics({
    tableId: config.tableId,
    game: config.game,
    tableMeters: () => ledger.meters('table'),
    activeFaults: () => tilts.list().map((t) => t.kind),
    screens: () => [...sessions].map((x) => x.view()),
    ...(sync ? { sync: () => sync.status() } : {}),
    ledger: () => ({ entries: ledger.headOf().seq, bytes: fileSize(ledger.file) + fileSize(`${ledger.file}-wal`) }),
    tableOnHold: () => table.reads.view().hold !== null,
  });
  const stopCountingTilts = ledger.onAppended((entries) => {
    for (const e of entries) if (e.type === 'tilt.raise') metrics.tiltRaised(String((JSON.parse(e.body) as { payload: { kind: unknown } }).payload.kind));
  });
  return { metrics, sessions, stopCountingTilts };
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
