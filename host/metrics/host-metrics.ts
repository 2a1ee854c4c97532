import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What the host's metrics are read from: plain functions and figures handed in by the composition
 * root (host/start-host.ts), so this folder depends on nothing else of the host.
 */
export interface HostMetricSources {
  tableId: string;
  game: string;
  /** The table's meters (ledger scope `table`): cumulative, restored with the ledger. */
  tableMeters(): Record<string, number>;
  /** Faults active now, one kind per fault (a kind may repeat, one per station). */
  activeFaults(): string[];
  /** Live screen connections, by the view each was granted (null: not yet said hello). */
  screens(): (string | null)[];
  /** The sync client's figures; absent when the kiosk does not sync (then no sync metrics at all). */
  sync?: () => SyncFigures;
  ledger(): { entries: number; bytes: number };
  tableOnHold(): boolean;
}

export interface SyncFigures {
  lagEntries: number;
  lagSeconds: number;
  ackedSeq: number;
  consecutiveFailures: number;
  stopNewBets: boolean;
}

/**
 * Table meters exposed as counters: the same names as the upstream's per-terminal ones
 * (upstream/metrics.ts), labelled with the table's game here. Amounts in minor units.
 */
export const TABLE_METER_COUNTERS = [
  { metric: 'etg_rounds_total', meter: 'gamesPlayed', help: 'rounds settled' },
  { metric: 'etg_rounds_voided_total', meter: 'voidedRounds', help: 'rounds voided, every bet returned' },
  { metric: 'etg_bets_minor_total', meter: 'creditsWagered', help: 'credits wagered, minor units' },
  { metric: 'etg_wins_minor_total', meter: 'creditsWon', help: 'credits paid back to players by settlements (stake and win), minor units' },
  { metric: 'etg_credits_in_minor_total', meter: 'totalIn', help: 'credits in (banknotes), minor units' },
  { metric: 'etg_credits_out_minor_total', meter: 'totalOut', help: 'credits out (handpays paid), minor units' },
  { metric: 'etg_misreads_total', meter: 'misreads', help: 'cards the shoe could not read or that broke the round' },
] as const;

/** Card handling is journalled before the shoe is acknowledged: milliseconds, rarely a second. */
const CARD_BUCKETS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** The dealer's draw after the cue: seconds. */
const DRAW_BUCKETS = [0.5, 1, 2, 3, 5, 8, 13, 21, 34, 60];

/** The table host's Prometheus metrics (GET /metrics behind its own token; docs/operations.md). */
export class HostMetrics {
  readonly registry = new Registry();
  private readonly cardHandle: Histogram<'outcome'>;
  private readonly cardWait: Histogram;
  private readonly tiltsRaised: Counter<'kind'>;
  private readonly pinChecks: Counter<'outcome'>;
  private readonly signInRefusals: Counter<'reason'>;
  private readonly guardCloses: Counter<'listener' | 'reason'>;

  constructor(src: HostMetricSources) {
    const r = this.registry;
    collectDefaultMetrics({ register: r });
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
    this.tiltsRaised = new Counter({
      name: 'etg_tilts_raised_total',
      help: 'faults raised since the host started, by kind',
      labelNames: ['kind'] as const,
      registers: [r],
    });
    // Service mode under attack: how many PINs were hashed against accounts, and why attempts were refused.
    this.pinChecks = new Counter({
      name: 'etg_service_pin_checks_total',
      help: "PINs compared with a service account's hash since the host started, by outcome (unknown: a staff number with no account, given the same time)",
      labelNames: ['outcome'] as const,
      registers: [r],
    });
    this.signInRefusals = new Counter({
      name: 'etg_service_sign_in_refused_total',
      help: 'service sign-ins and second-person confirmations refused since the host started, by reason (rate-limited-*: over the limits, no PIN checked)',
      labelNames: ['reason'] as const,
      registers: [r],
    });
    // Connections that did not earn their keep (host/server/connection-guard.ts).
    this.guardCloses = new Counter({
      name: 'etg_connections_closed_total',
      help: 'connections the listeners closed since the host started, by listener (local, lan) and reason (refused: over a cap; evicted: idle, closed to make room; no-hello: no hello in time; idle: an HTTP connection kept alive after its answers)',
      labelNames: ['listener', 'reason'] as const,
      registers: [r],
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
    this.cardHandle = new Histogram({
      name: 'etg_card_read_seconds',
      help: 'a card read from the shoe to its placing journalled, before the shoe is acknowledged, by outcome',
      labelNames: ['outcome'] as const,
      buckets: CARD_BUCKETS,
      registers: [r],
    });
    this.cardWait = new Histogram({
      name: 'etg_card_draw_wait_seconds',
      help: "from the shoe's gate opening for a card to that card's read (the dealer's draw)",
      buckets: DRAW_BUCKETS,
      registers: [r],
    });
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

  /** A fault was raised (the `tilt.raise` journal entry). */
  tiltRaised(kind: string): void {
    this.tiltsRaised.inc({ kind });
  }

  /** A PIN was hashed against a service account (or a decoy, for a staff number with no account). */
  pinChecked(outcome: 'right' | 'wrong' | 'unknown'): void {
    this.pinChecks.inc({ outcome });
  }

  /** A service sign-in or confirmation was refused. */
  signInRefused(reason: string): void {
    this.signInRefusals.inc({ reason });
  }

  /** A listener's guard closed a connection. */
  connectionClosed(listener: 'local' | 'lan', reason: string): void {
    this.guardCloses.inc({ listener, reason });
  }

  /** A card read was handled (placed and journalled, or held) in `seconds`. */
  cardHandled(seconds: number, outcome: 'card' | 'unreadable' | 'anomaly' | 'test'): void {
    this.cardHandle.observe({ outcome }, seconds);
  }

  /** The dealer drew `seconds` after the gate opened. */
  cardDrawn(seconds: number): void {
    this.cardWait.observe(seconds);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
