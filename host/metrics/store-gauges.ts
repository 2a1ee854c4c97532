import { Gauge, type Registry } from 'prom-client';
import type { HostMetricSources, SyncFigures } from './metric-sources.js';

/** The ledger's size and, where the kiosk syncs, how far the upstream lags, read at each scrape. */
export function registerStoreGauges(r: Registry, src: HostMetricSources): void {
  const figures = src.sync;
  const sync = (name: string, help: string, pick: (s: SyncFigures) => number) =>
    figures &&
    new Gauge({
      name,
      help,
      registers: [r],
      collect() {
        this.set(pick(figures()));
      },
    });
  sync('etg_sync_lag_entries', 'journal entries not yet acknowledged by the upstream', (s) => s.lagEntries);
  sync('etg_sync_lag_seconds', 'age of the oldest unacknowledged entry (0 in sync)', (s) => s.lagSeconds);
  sync('etg_sync_acked_seq', 'the last entry the upstream acknowledged', (s) => s.ackedSeq);
  sync('etg_sync_consecutive_failures', 'failed sync attempts in a row', (s) => s.consecutiveFailures);
  sync('etg_sync_stop_new_bets', '1 when the offline limit stops new bets', (s) => (s.stopNewBets ? 1 : 0));
  new Gauge({
    name: 'etg_ledger_entries',
    help: 'journal entries in the ledger (its head sequence)',
    registers: [r],
    collect() {
      this.set(src.ledger().entries);
    },
  });
  new Gauge({
    name: 'etg_ledger_bytes',
    help: 'size of the ledger database with its WAL, bytes',
    registers: [r],
    collect() {
      this.set(src.ledger().bytes);
    },
  });
}
