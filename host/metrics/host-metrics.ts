import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { HostMetricSources } from './metric-sources.js';
import { registerStoreGauges } from './store-gauges.js';
import { registerTableMeters, registerTableStanding } from './table-gauges.js';

export type { HostMetricSources, SyncFigures } from './metric-sources.js';
export { TABLE_METER_COUNTERS } from './table-gauges.js';

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
    registerTableMeters(r, src);
    registerTableStanding(r, src);
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
    // Connections that did not earn their keep (host/limits/connection-guard.ts).
    this.guardCloses = new Counter({
      name: 'etg_connections_closed_total',
      help: 'connections the listeners closed since the host started, by listener (local, lan) and reason (refused: over a cap; evicted: idle, closed to make room; no-hello: no hello in time; idle: an HTTP connection kept alive after its answers)',
      labelNames: ['listener', 'reason'] as const,
      registers: [r],
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
    registerStoreGauges(r, src);
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
