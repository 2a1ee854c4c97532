import {
  protocolError,
  stationOf,
  type CommandBody,
  type Language,
  type ProtocolError,
  type ViewName,
  type ViewState,
} from '../../protocol/index.js';
import type { TableConfig } from '../config/table-config.js';
import type { RoundController } from '../table/round-controller.js';
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
      return {
        kind: 'station',
        station,
        seat: cfg.seat,
        game: c.game,
        currency: c.currency,
        limits: c.limits,
        language,
        credit: this.rounds ? this.rounds.available(station) : this.creditOf(station),
        betting: this.rounds?.betting(station) ?? { open: false, spots: [], bets: {} },
        decision: this.rounds?.decisionFor(station) ?? null,
        round: this.rounds?.view() ?? null,
        ...this.extras?.station(station),
      };
    }
    if (view === 'service') {
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
      ...(this.rounds ? { bets: this.rounds.betting(c.stations[0]?.station ?? 1).spots.map((s) => s.bet).filter((b) => !b.includes(':')) } : {}),
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
    const station = stationOf(view);
    if (station === null || !this.rounds) {
      return { ok: false, error: protocolError('rejected', `${command.name} is a station command`, { view, refusal: 'not-a-station' }) };
    }
    if (command.name === 'cash-out') {
      return { ok: false, error: protocolError('rejected', 'cash-out is not available at this table yet', { view, refusal: 'cash-out-empty' }) };
    }
    const r =
      command.name === 'place-bet'
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
