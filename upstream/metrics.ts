import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { openAlarms, terminalFigures } from './queries.js';
import type { Sql } from './sql.js';
import { TABLE_METER_METRICS } from '../terms/meter-metrics.js';

/**
 * The table meters every kiosk journals, as Prometheus counters per terminal (the same names the
 * kiosk's own /metrics uses, terms/meter-metrics.ts, with `terminal`, `game`, `currency` and `exponent` labels here). Amounts
 * are in minor units of the currency the table held when it journalled them, one series per currency.
 */
export const METER_COUNTERS = TABLE_METER_METRICS;

type Figures = Awaited<ReturnType<typeof terminalFigures>>;

/** The meters the counters read: a scrape reads these of each table, never every name a table wrote. */
const METER_NAMES = METER_COUNTERS.map((c) => c.meter);

/**
 * The upstream's metrics, read from the database at each scrape (one query set per scrape, shared
 * by every metric), plus counters of what this process answered since it started.
 */
export class UpstreamMetrics {
  readonly registry = new Registry();
  private snapshot: { at: number; figures: Promise<Figures> } | null = null;
  readonly ingested: Counter<'result'>;
  readonly heartbeats: Counter;

  constructor(
    private readonly sql: Sql,
    /** Milliseconds on a clock that never steps: the figures' second, read on a wall clock set back, would last the step. */
    now: () => number = () => performance.now(),
  ) {
    const r = this.registry;
    collectDefaultMetrics({ register: r });
    const figures = () => {
      if (!this.snapshot || now() - this.snapshot.at > 1000) this.snapshot = { at: now(), figures: terminalFigures(this.sql, METER_NAMES) };
      return this.snapshot.figures;
    };
    const gameOf = (f: Figures[number]) => (typeof f.health?.game === 'string' ? f.health.game : 'unknown');
    for (const c of METER_COUNTERS) {
      new Counter({
        name: c.metric,
        help: `${c.help}, per terminal (ledger meter ${c.meter})`,
        labelNames: ['terminal', 'game', 'currency', 'exponent'] as const,
        registers: [r],
        async collect() {
          this.reset();
          for (const f of await figures()) {
            // One series per currency the table journalled in (`none`: it had named none), never one sum of MOP and HKD.
            const groups = f.meters.length ? f.meters : [{ currency: null, values: {}, unreadable: [] }];
            for (const g of groups) {
              const labels = {
                terminal: f.terminalId,
                game: gameOf(f),
                currency: g.currency?.code ?? 'none',
                exponent: String(g.currency?.exponent ?? 'none'),
              };
              // A meter that cannot be a counter's value is left out (etg_upstream_terminal_meters_unreadable), never read as 0.
              if (!g.unreadable.includes(c.meter)) this.inc(labels, g.values[c.meter] ?? 0);
            }
          }
        },
      });
    }
    terminalGauges(r, figures);
    const db = this.sql;
    new Gauge({
      name: 'etg_upstream_alarms_open',
      help: 'alarms raised and not cleared (divergence, bad chain, foreign stream), by kind',
      labelNames: ['kind'] as const,
      registers: [r],
      async collect() {
        this.reset();
        for (const a of await openAlarms(db)) this.set({ kind: a.kind }, a.n);
      },
    });
    this.ingested = new Counter({
      name: 'etg_upstream_ingest_batches_total',
      help: 'signed ingest batches answered by this process, by result (200, gap, divergence, bad-chain, bad-entry, unauthorised, over-budget)',
      labelNames: ['result'] as const,
      registers: [r],
    });
    this.heartbeats = new Counter({ name: 'etg_upstream_heartbeats_total', help: 'kiosk heartbeats accepted by this process', registers: [r] });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}

/**
 * The gauges read from each terminal's figures (`figures`: at most a second old): its last contact
 * and last batch, its head, its key's revocation, and its sync lag and faults as its last heartbeat said.
 */
function terminalGauges(r: Registry, figures: () => Promise<Figures>): void {
  const perTerminal = (name: string, help: string, value: (f: Figures[number]) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['terminal'] as const,
      registers: [r],
      async collect() {
        this.reset();
        for (const f of await figures()) {
          const v = value(f);
          if (v !== null) this.set({ terminal: f.terminalId }, v);
        }
      },
    });
  perTerminal('etg_upstream_terminal_last_seen_timestamp_seconds', "the terminal's last signed request (heartbeat or batch), Unix time", (f) =>
    f.lastSeenAt ? f.lastSeenAt.getTime() / 1000 : null,
  );
  perTerminal('etg_upstream_terminal_last_ingest_timestamp_seconds', 'the last batch that moved the head, Unix time', (f) => f.lastIngestAt.getTime() / 1000);
  perTerminal('etg_upstream_terminal_head_seq', 'highest contiguous journal entry stored', (f) => f.headSeq);
  perTerminal('etg_upstream_terminal_revoked', '1 when the terminal key is revoked', (f) => (f.revoked ? 1 : 0));
  perTerminal(
    'etg_upstream_terminal_meters_unreadable',
    "the terminal's table meters left out of the counters: below zero or past a safe integer, as no ledger's meter is",
    (f) => f.meters.reduce((n, g) => n + g.unreadable.length, 0),
  );
  const lag = (f: Figures[number], k: 'lagEntries' | 'lagSeconds'): number | null => {
    const s = f.health?.sync;
    return s && typeof s === 'object' && typeof (s as Record<string, unknown>)[k] === 'number' ? ((s as Record<string, number>)[k] ?? null) : null;
  };
  perTerminal('etg_upstream_terminal_sync_lag_entries', 'entries the terminal had not had acknowledged, as its last heartbeat said', (f) =>
    lag(f, 'lagEntries'),
  );
  perTerminal('etg_upstream_terminal_sync_lag_seconds', 'age of its oldest unacknowledged entry, as its last heartbeat said', (f) => lag(f, 'lagSeconds'));
  new Gauge({
    name: 'etg_upstream_terminal_faults',
    help: 'faults active at the terminal by kind, as its last heartbeat said',
    labelNames: ['terminal', 'kind'] as const,
    registers: [r],
    async collect() {
      this.reset();
      for (const f of await figures()) {
        const table = f.health?.table as { faults?: unknown } | undefined;
        const kinds = Array.isArray(table?.faults) ? table.faults.filter((k): k is string => typeof k === 'string') : [];
        for (const kind of new Set(kinds)) this.set({ terminal: f.terminalId, kind }, kinds.filter((k) => k === kind).length);
      }
    },
  });
}
