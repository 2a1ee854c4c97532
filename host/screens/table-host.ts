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
  constructor(
    private readonly config: TableConfig,
    private readonly softwareVersion: string,
    private readonly creditOf: (station: number) => number,
  ) {}

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
        credit: this.creditOf(station),
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
    switch (command.name) {
      case 'set-language':
        this.languages.set(view, command.language);
        return { ok: true, version: this.bump(view) };
    }
  }

  /** A station's credit changed in the ledger: its screen gets a new snapshot. */
  creditChanged(station: number): void {
    const view = `station/${station}` as const;
    if (this.hasView(view)) this.bump(view);
  }

  private bump(view: ViewName): number {
    const next = this.version(view) + 1;
    this.versions.set(view, next);
    for (const l of this.listeners) l(view);
    return next;
  }
}
