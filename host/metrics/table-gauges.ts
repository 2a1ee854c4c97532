import { Counter, Gauge, type Registry } from 'prom-client';
import type { HostMetricSources } from './metric-sources.js';
import { TABLE_METER_METRICS } from '../../terms/meter-metrics.js';

/**
 * Table meters exposed as counters: the names the upstream counts per terminal too (terms/meter-metrics.ts),
 * labelled with the table's game here, and the table's misreads. Amounts in minor units.
 */
export const TABLE_METER_COUNTERS = [
  ...TABLE_METER_METRICS,
  { metric: 'etg_misreads_total', meter: 'misreads', help: 'cards the shoe could not read or that broke the round' },
] as const;

/** Which table this host runs and its meters, read from the ledger at each scrape. */
export function registerTableMeters(r: Registry, src: HostMetricSources): void {
  const game = src.game;
  new Gauge({
    name: 'etg_table_info',
    help: 'the table this host runs (always 1)',
    labelNames: ['table', 'game'] as const,
    registers: [r],
    collect() {
      this.set({ table: src.tableId, game }, 1);
    },
  });
  for (const c of TABLE_METER_COUNTERS) {
    new Counter({
      name: c.metric,
      help: `${c.help} (ledger meter ${c.meter}, table scope)`,
      labelNames: ['game'] as const,
      registers: [r],
      collect() {
        this.reset();
        this.inc({ game }, src.tableMeters()[c.meter] ?? 0);
      },
    });
  }
}

/** The table's faults, its hold and its screens as they stand at each scrape. */
export function registerTableStanding(r: Registry, src: HostMetricSources): void {
  new Gauge({
    name: 'etg_faults_active',
    help: 'faults active now, by kind',
    labelNames: ['kind'] as const,
    registers: [r],
    collect() {
      this.reset();
      for (const kind of src.activeFaults()) this.inc({ kind }, 1);
    },
  });
  new Gauge({
    name: 'etg_table_on_hold',
    help: '1 while the table is on hold (a card to enter, a round to void)',
    registers: [r],
    collect() {
      this.set(src.tableOnHold() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'etg_screen_connections',
    help: 'screens connected now, by kind of view (table, station, service, pending: no hello yet)',
    labelNames: ['view'] as const,
    registers: [r],
    collect() {
      this.reset();
      for (const v of ['table', 'station', 'service', 'pending']) this.set({ view: v }, 0);
      for (const view of src.screens()) this.inc({ view: view === null ? 'pending' : (view.split('/')[0] ?? view) }, 1);
    },
  });
}
