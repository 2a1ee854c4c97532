import {
  protocolError,
  stationOf,
  type CommandBody,
  type Language,
  type PayLine,
  type ProtocolError,
  type ViewName,
  type ViewState,
} from '../../protocol/index.js';
import type { TableConfig } from '../config/table-config.js';
import type { FloorGate } from '../stations/station-floor.js';
import type { ServiceHost } from '../service/service-host.js';
import type { RoundController } from '../table/round-controller.js';
import { payTable } from './pay-table.js';
import type { ScreenExtras } from './screen-extras.js';

/** `conn` names the one connection whose view changed (service mode is per connection); absent: every subscriber. */
export type ViewListener = (view: ViewName, conn?: string) => void;

export type ApplyResult = { ok: true; version: number } | { ok: false; error: ProtocolError };

/**
 * The table's state as the screens see it, one versioned view per screen. Later issues put the
 * round, the credits and the tilts behind this; the views stay filtered projections of it.
 */
export class TableHost {
  // Keyed by view, and for the service view by view and connection (`service#s3`): each service
  // connection has its own session, so its own snapshot, version and language.
  private readonly versions = new Map<string, number>();
  private readonly languages = new Map<string, Language>();
  /** The connections subscribed to the service view. */
  private readonly serviceConns = new Set<string>();
  private readonly listeners = new Set<ViewListener>();

  /**
   * `creditOf` reads a station's credit meter from the ledger: the journal is the only place a
   * credit lives, so the screens can never show an amount that was not durably recorded.
   */
  private rounds: RoundController | null = null;
  private floor: FloorGate | null = null;

  constructor(
    private readonly config: TableConfig,
    private readonly softwareVersion: string,
    private readonly creditOf: (station: number) => number,
  ) {}

  private extras: ScreenExtras | null = null;

  /** Roads, recent rounds and recall for the screens (`screen-extras.ts`). */
  attachExtras(extras: ScreenExtras): void {
    this.extras = extras;
  }

  /** Attaches the table's rounds; every change of a round is pushed to every screen. */
  attachRounds(rounds: RoundController): void {
    this.rounds = rounds;
    // Only views whose content changed get a new version: one station's bet must not make
    // another station's pending command stale.
    rounds.onChange(() => {
      for (const view of this.views()) this.refresh(view);
    });
  }

  /** Attaches the faults and handpays: their refusals, notices and cash-out reach every screen. */
  attachFloor(floor: FloorGate): void {
    this.floor = floor;
    floor.onChange(() => {
      for (const view of this.views()) this.refresh(view);
    });
  }

  private service: ServiceHost | null = null;

  /** Attaches service mode (issue 9): the `/service` view's state and commands are its. */
  attachService(service: ServiceHost): void {
    this.service = service;
    service.onChange((conn) => this.refresh('service', conn));
  }

  /** A connection subscribed to a view: a service connection gets a session of its own. */
  screenOpened(view: ViewName, conn: string): void {
    if (view === 'service') this.serviceConns.add(conn);
  }

  /** A service screen's connection closed: its own session ends (no sign-in outlives its screen), no other. */
  screenClosed(view: ViewName, conn: string): void {
    if (view !== 'service') return;
    this.serviceConns.delete(conn);
    const k = this.key(view, conn);
    this.versions.delete(k);
    this.languages.delete(k);
    this.shown.delete(k);
    this.service?.screenGone(conn);
  }

  private key(view: ViewName, conn?: string): string {
    return view === 'service' && conn !== undefined ? `service#${conn}` : view;
  }

  private pays: PayLine[] | null = null;

  /** The help's pay table, from the rule profile (fixed while the host runs: a profile change needs a restart). */
  private payLines(): PayLine[] {
    this.pays ??= payTable(this.config.game, this.config.profile, this.config.profileOptions);
    return this.pays;
  }

  /** Every view this table has: the table display, one per configured station, service. */
  views(): ViewName[] {
    return ['table', ...this.config.stations.map((s) => `station/${s.station}` as const), 'service'];
  }

  hasView(view: ViewName): boolean {
    return this.views().includes(view);
  }

  version(view: ViewName, conn?: string): number {
    return this.versions.get(this.key(view, conn)) ?? 1;
  }

  onChange(listener: ViewListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The filtered state of one view: a station's snapshot carries only that station's data, a
   * service connection's only its own session.
   */
  state(view: ViewName, conn?: string): ViewState {
    const c = this.config;
    const language = this.languages.get(this.key(view, conn)) ?? c.defaultLanguage;
    const station = stationOf(view);
    this.extras?.observe(this.rounds?.view() ?? null);
    if (station !== null) {
      const cfg = c.stations.find((s) => s.station === station);
      if (!cfg) throw new Error(`no station ${station} at this table`);
      const betting = this.rounds?.betting(station) ?? { open: false, spots: [], bets: {} };
      // A fault or a pending handpay closes this station's betting even while the table's is open.
      if (betting.open && this.floor?.refuse(station, 'place-bet')) betting.open = false;
      return {
        kind: 'station',
        station,
        seat: cfg.seat,
        game: c.game,
        currency: c.currency,
        limits: c.limits,
        language,
        credit: this.rounds ? this.rounds.available(station) : this.creditOf(station),
        betting,
        decision: this.rounds?.decisionFor(station) ?? null,
        round: this.rounds?.view() ?? null,
        ...(this.floor ? { tilts: this.floor.notices(station), cashout: this.floor.cashout(station) } : {}),
        ...this.extras?.station(station),
        payTable: this.payLines(),
      };
    }
    if (view === 'service') {
      if (this.service && conn !== undefined) return this.service.state(conn, language);
      return { kind: 'service', tableId: c.tableId, softwareVersion: this.softwareVersion, language, signedIn: false };
    }
    return {
      kind: 'table',
      tableId: c.tableId,
      game: c.game,
      profile: c.profile,
      currency: c.currency,
      limits: c.limits,
      language,
      seats: Array.from({ length: c.seats }, (_, i) => ({
        seat: i + 1,
        station: c.stations.find((s) => s.seat === i + 1)?.station ?? null,
      })),
      round: this.rounds?.view() ?? null,
      ...(this.floor ? { tilts: this.floor.notices(null) } : {}),
      ...(this.rounds ? { bets: this.rounds.betting(c.stations[0]?.station ?? 1).spots.map((s) => s.bet).filter((b) => !b.includes(':')) } : {}),
      ...(this.rounds?.lastRoundOfShoe() ? { lastRound: true } : {}),
      ...this.extras?.table(),
    };
  }

  /** Applies a command made against `version` of `view`; a stale version is refused. */
  apply(view: ViewName, version: number, command: CommandBody, conn?: string): ApplyResult {
    const current = this.version(view, conn);
    if (version !== current) {
      return {
        ok: false,
        error: protocolError('stale-version', `command made against version ${version}, view is at ${current}`, {
          view,
          currentVersion: current,
        }),
      };
    }
    if (command.name === 'set-language') {
      this.languages.set(this.key(view, conn), command.language);
      this.refresh(view, conn);
      return { ok: true, version: this.version(view, conn) };
    }
    if (view === 'service' && this.service && conn !== undefined && command.name.startsWith('service-')) {
      const r = this.service.apply(conn, command);
      if (!r.ok) {
        return {
          ok: false,
          error: { ...protocolError('rejected', r.detail, { view, currentVersion: this.version(view, conn) }), messageKey: `service.refused.${r.reason}` },
        };
      }
      return { ok: true, version: this.version(view, conn) };
    }
    const station = stationOf(view);
    if (station === null || !this.rounds) {
      return { ok: false, error: protocolError('rejected', `${command.name} is a station command`, { view, refusal: 'not-a-station' }) };
    }
    if (command.name !== 'cash-out' && command.name !== 'place-bet' && command.name !== 'clear-bets' && command.name !== 'decide') {
      return { ok: false, error: protocolError('rejected', `${command.name} is a service command`, { view, refusal: 'not-a-station' }) };
    }
    const gated = this.floor?.refuse(station, command.name);
    if (gated) return { ok: false, error: protocolError('rejected', gated.reason, { view, currentVersion: current, refusal: gated.refusal }) };
    const r =
      command.name === 'cash-out'
        ? (this.floor?.cashOut(station) ?? { ok: false as const, reason: 'cash-out is not available at this table', refusal: 'cash-out-empty' as const })
        : command.name === 'place-bet'
          ? this.rounds.placeBet(station, command.bet, command.amount)
          : command.name === 'clear-bets'
            ? this.rounds.clearBets(station)
            : this.rounds.decide(station, command.action, command.amount);
    if (!r.ok) {
      const extra = { view, currentVersion: this.version(view), ...(r.refusal ? { refusal: r.refusal } : {}) };
      return { ok: false, error: protocolError('rejected', r.reason, extra) };
    }
    return { ok: true, version: this.version(view) };
  }

  /** The configuration changed (limits, timers): every screen gets a new snapshot. */
  configChanged(): void {
    for (const view of this.views()) this.refresh(view);
  }

  /** A station's credit changed in the ledger: its screen gets a new snapshot. */
  creditChanged(station: number): void {
    const view = `station/${station}` as const;
    if (this.hasView(view)) this.refresh(view);
  }

  private readonly shown = new Map<string, string>();

  /** Without `conn`, the service view refreshes for every connection subscribed to it. */
  private refresh(view: ViewName, conn?: string): void {
    if (view === 'service') {
      if (conn === undefined) for (const c of this.serviceConns) this.refreshOne(view, c);
      else if (this.serviceConns.has(conn)) this.refreshOne(view, conn);
      return;
    }
    this.refreshOne(view);
  }

  private refreshOne(view: ViewName, conn?: string): void {
    const key = this.key(view, conn);
    const json = JSON.stringify(this.state(view, conn));
    if (this.shown.get(key) === json) return;
    this.shown.set(key, json);
    const next = this.version(view, conn) + 1;
    this.versions.set(key, next);
    for (const l of this.listeners) l(view, conn);
  }
}
