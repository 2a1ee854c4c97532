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

export type ViewListener = (view: ViewName) => void;

export type ApplyResult = { ok: true; version: number } | { ok: false; error: ProtocolError };

/**
 * The table's state as the screens see it, one versioned view per screen. Later issues put the
 * round, the credits and the tilts behind this; the views stay filtered projections of it.
 */
export class TableHost {
  private readonly versions = new Map<ViewName, number>();
  private readonly languages = new Map<ViewName, Language>();
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
    service.onChange(() => this.refresh('service'));
  }

  /** The service screen's connection closed: its session ends (no sign-in outlives its screen). */
  screenClosed(view: ViewName): void {
    if (view === 'service') this.service?.screenGone();
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

  version(view: ViewName): number {
    return this.versions.get(view) ?? 1;
  }

  onChange(listener: ViewListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The filtered state of one view: a station's snapshot carries only that station's data. */
  state(view: ViewName): ViewState {
    const c = this.config;
    const language = this.languages.get(view) ?? c.defaultLanguage;
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
      if (this.service) return this.service.state(language);
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
  apply(view: ViewName, version: number, command: CommandBody): ApplyResult {
    const current = this.version(view);
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
      this.languages.set(view, command.language);
      this.refresh(view);
      return { ok: true, version: this.version(view) };
    }
    if (view === 'service' && this.service && command.name.startsWith('service-')) {
      const r = this.service.apply(command);
      if (!r.ok) {
        return {
          ok: false,
          error: { ...protocolError('rejected', r.detail, { view, currentVersion: this.version(view) }), messageKey: `service.refused.${r.reason}` },
        };
      }
      return { ok: true, version: this.version(view) };
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

  private readonly shown = new Map<ViewName, string>();

  private refresh(view: ViewName): void {
    const json = JSON.stringify(this.state(view));
    if (this.shown.get(view) === json) return;
    this.shown.set(view, json);
    this.bump(view);
  }

  private bump(view: ViewName): number {
    const next = this.version(view) + 1;
    this.versions.set(view, next);
    for (const l of this.listeners) l(view);
    return next;
  }
}
