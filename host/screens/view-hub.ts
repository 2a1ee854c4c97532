import {
  diffParts,
  MAX_RECALL_ROUNDS,
  protocolError,
  REMOTE_STATION_BASE,
  stationOf,
  stationView,
  type CommandBody,
  type Language,
  type ProtocolError,
  type PublicPanel,
  type ServiceState,
  type StationOwnState,
  type StationRecallRound,
  type StationState,
  type TableState as TableView,
  type JackpotView,
  type PartName,
  type PublicPartName,
  type ViewName,
  type ViewState,
} from '../../protocol/index.js';
import { isRemote } from '../../engine/table/state.js';
import { SharedMessage, type Update } from './outbox.js';
import type { TableConfig } from '../config/table-config.js';
import type { StationGate } from '../floor/station-gates.js';
import type { ServiceHost } from '../service/service-host.js';
import type { LiveTable } from '../table/runtime.js';
import type { Outcome } from '../../engine/table/game.js';
import { recallRound, type RecallSource } from './recall.js';
import { stationKey, stationsKey } from './station-reads.js';

/** `conn` names the one connection whose view changed (service mode is per connection); absent: every subscriber. */
export type ViewListener = (view: ViewName, conn?: string) => void;

/** The parts every station shows, sent apart from each station's own part (protocol `public`). */
export const PUBLIC_PARTS: readonly PublicPartName[] = ['round', 'panel'];
export type { PublicPartName };

/**
 * Where a subscribed screen's messages go: `slot` names what the update replaces (a newer
 * version of the same view or part makes an older one still waiting worthless).
 */
export interface ViewSink {
  deliver(slot: string, update: Update): void;
}

/** A station's views are sent as patches; the table display and service mode come whole. */
function patched(view: ViewName): boolean {
  return stationOf(view) !== null;
}

/**
 * A patch message for a new version, or null when the patch would not be smaller than the whole
 * (`wholeBytes`, the whole message's length) or there is nothing to say (the content is the same
 * JSON in another key order).
 */
function patchMessage(head: string, version: number, before: object, after: object, wholeBytes: number): SharedMessage | null {
  const ops = diffParts(before, after);
  if (ops.length === 0) return null;
  const text = `${head},"version":${version},"ops":${JSON.stringify(ops)}}`;
  return text.length < wholeBytes ? new SharedMessage(text) : null;
}

export type ApplyResult = { ok: true; version: number } | { ok: false; error: ProtocolError };

/** One view as last built: what it was built from, the state, its version and its snapshot as sent. */
interface Built {
  deps: readonly unknown[];
  /** A station's own part, or the whole view (table display, service mode). */
  state: ViewState | StationOwnState;
  json: string;
  version: number;
  /** The snapshot message, encoded once for every screen that shows this view. */
  snapshot: SharedMessage | null;
  /** The patch from the version before, made when the version was built for the screens showing it (null: none). */
  patch: SharedMessage | null;
  /** Something it is built from changed while nobody watched it: built again when next asked for. */
  stale: boolean;
}

/** A public part as last built: its source, its version, its whole message and its patch (each encoded once for every station). */
interface BuiltPart extends Update {
  of: object;
  message: SharedMessage;
}

/** What the hub counts (the table-host benchmark prints them). */
export interface HubCounters {
  /** Changes the hub was told of. */
  changes: number;
  /** View states built (projected); a view whose inputs did not change is not built. */
  built: number;
  /** Snapshots encoded: once per new version of a view, whatever the number of screens. */
  encoded: number;
  /** Public parts (round, panel) encoded: once per change of what they show, for every station. */
  parts: number;
}

/** Two dependency lists are equal when each element is the same value, arrays compared element by element. */
function sameDeps(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length || x.some((v, j) => v !== y[j])) return false;
  }
  return true;
}

/**
 * A view's JSON, the same text as `JSON.stringify(state)`, with each top-level part that is an
 * object encoded once while it lives: the round view is shared by every screen, a recall list
 * and the pay table by every build of a station, and none of them is changed in place (a change
 * makes a new object). The parts are views' plain data: no `toJSON`, no functions.
 */
export function encodeView(state: object, parts: WeakMap<object, string>): string {
  let out = '';
  for (const [k, v] of Object.entries(state)) {
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    let json: string;
    if (typeof v === 'object' && v !== null) {
      const cached = parts.get(v);
      if (cached === undefined) {
        json = JSON.stringify(v);
        parts.set(v, json);
      } else json = cached;
    } else json = JSON.stringify(v);
    out += `${out === '' ? '{' : ','}${JSON.stringify(k)}:${json}`;
  }
  return out === '' ? '{}' : `${out}}`;
}

/**
 * Every screen's view, built once per change. Each view kind (the table display, each station,
 * each service console) is a pure projection of the table's state and the floor's; the hub
 * rebuilds a view only when something it is built from changed, gives it a new version only
 * when its content changed, encodes that version's snapshot once and hands the same text to
 * every screen showing it. Reading a view never changes anything.
 */
export class ViewHub {
  private readonly built = new Map<string, Built>();
  private readonly languages = new Map<string, Language>();
  /** The connections subscribed to the service view. */
  private readonly serviceConns = new Set<string>();
  private readonly listeners = new Set<ViewListener>();
  private floor: StationGate | null = null;
  private service: ServiceHost | null = null;
  /** Each station's recall as last read, with the ledger's recall version it was read at. */
  private readonly recall = new Map<number, { version: number; list: StationRecallRound[] }>();
  /** Recorded rounds split by station, newest last. */
  private readonly rounds = new Map<string, Map<number, StationRecallRound>>();
  /** The JSON of parts views share (the round, a recall list, the pay table), encoded once while they live. */
  private readonly encoded = new WeakMap<object, string>();
  readonly counters: HubCounters = { changes: 0, built: 0, encoded: 0, parts: 0 };
  /** The screens subscribed to each view (by key), and to the public parts (every station screen). */
  private readonly sinks = new Map<string, Set<ViewSink>>();
  private readonly publicSinks = new Set<ViewSink>();
  private readonly parts = new Map<PublicPartName, BuiltPart>();
  /** One copy for every station build: the same array, so encoded once. */
  private readonly payTable: StationState['payTable'];

  constructor(
    private readonly config: TableConfig,
    private readonly softwareVersion: string,
    private readonly table: LiveTable,
    private readonly recallSource: RecallSource,
  ) {
    this.payTable = [...table.payTable];
    table.onChange(() => this.refreshAll(true));
  }

  /** Attaches the faults and handpays: their refusals, notices and cash-out reach every screen. */
  attachFloor(floor: StationGate): void {
    this.floor = floor;
    floor.onChange(() => this.refreshAll());
    this.refreshAll();
  }

  /** Attaches service mode: the `/service` view's state and commands are its. */
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
    this.built.delete(k);
    this.languages.delete(k);
    this.service?.screenGone(conn);
  }

  /** Every view this table has: the table display, one per seated station, service (remote stations: `hasView`). */
  views(): ViewName[] {
    return ['table', ...this.config.stations.map((s) => `station/${s.station}` as const), 'service'];
  }

  /** The remote stations' views (a stadium), by number. */
  remoteViews(): ViewName[] {
    return Array.from({ length: this.table.state.params.remote ?? 0 }, (_, i) => stationView(REMOTE_STATION_BASE + i + 1));
  }

  hasView(view: ViewName): boolean {
    const station = stationOf(view);
    if (station !== null && isRemote(this.table.state.params, station)) return true;
    return this.views().includes(view);
  }

  /**
   * A screen subscribes to a view: from now on `sink` gets every new snapshot of it, and a
   * station's screen every new public part too (sent now, before the station's own part).
   * Returns the unsubscribe.
   */
  subscribe(view: ViewName, conn: string, sink: ViewSink): () => void {
    // Built before the sink is added: a rebuild now must not hand it a version it is about to be sent whole.
    this.current(view, conn);
    const key = this.key(view, conn);
    let set = this.sinks.get(key);
    if (!set) this.sinks.set(key, (set = new Set()));
    set.add(sink);
    const station = stationOf(view) !== null;
    if (station) {
      this.publicSinks.add(sink);
      for (const part of PUBLIC_PARTS) sink.deliver(`public:${part}`, this.publicPart(part));
    }
    sink.deliver(`view:${view}`, this.update(view, conn));
    return () => {
      set.delete(sink);
      if (set.size === 0) this.sinks.delete(key);
      this.publicSinks.delete(sink);
    };
  }

  /**
   * A screen lost track of parts of its view (a patch did not follow what it held): each is
   * handed to its sink again as it stands now. The sink (its outbox, told to forget) sends them
   * whole. A table display's or service mode's view has no public parts.
   */
  resend(view: ViewName, conn: string, sink: ViewSink, parts: readonly PartName[]): void {
    for (const part of new Set(parts)) {
      if (part === 'own') sink.deliver(`view:${view}`, this.update(view, conn));
      else if (stationOf(view) !== null) sink.deliver(`public:${part}`, this.publicPart(part));
    }
  }

  /** The view's current version as its screens are handed it: its patch from the version before, and its whole snapshot. */
  private update(view: ViewName, conn?: string): Update {
    const b = this.current(view, conn);
    return { version: b.version, patch: b.patch, whole: () => this.snapshotMessage(view, conn) };
  }

  /** How many screens are subscribed (the stadium bench prints it). */
  subscribers(): number {
    let n = 0;
    for (const s of this.sinks.values()) n += s.size;
    return n;
  }

  version(view: ViewName, conn?: string): number {
    return this.current(view, conn).version;
  }

  /** Told of each new version of a view already built (asked for once, or shown by a screen). */
  onChange(listener: ViewListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The whole view as a screen shows it (a station's own part with the public parts); built now if it never was. */
  state(view: ViewName, conn?: string): ViewState {
    const s = this.current(view, conn).state;
    if (s.kind !== 'station') return s;
    return { ...s, round: this.table.view(), ...this.panel() };
  }

  /** The view's snapshot message, encoded once per version and shared by every screen showing it. */
  snapshot(view: ViewName, conn?: string): string {
    return this.snapshotMessage(view, conn).text;
  }

  snapshotMessage(view: ViewName, conn?: string): SharedMessage {
    const b = this.current(view, conn);
    if (b.snapshot === null) {
      // The state's JSON was made when the view was built: the message wraps it, encoded once.
      b.snapshot = new SharedMessage(`{"type":"snapshot","view":${JSON.stringify(view)},"version":${b.version},"state":${b.json}}`);
      this.counters.encoded++;
    }
    return b.snapshot;
  }

  /**
   * A public part's message as it stands: projected and encoded once per change of what it
   * shows, the same bytes for every station screen.
   */
  publicPart(part: PublicPartName): BuiltPart {
    const of = part === 'round' ? this.table.view() : this.panel();
    const had = this.parts.get(part);
    if (had && had.of === of) return had;
    const version = (had?.version ?? 0) + 1;
    // The round's JSON is the one the table display's snapshot holds too: encoded once for both.
    let json = this.encoded.get(of);
    if (json === undefined) {
      json = encodeView(of, this.encoded);
      this.encoded.set(of, json);
    }
    const message = new SharedMessage(`{"type":"public","part":"${part}","version":${version},"state":${json}}`);
    const patch = had ? patchMessage(`{"type":"public-patch","part":"${part}"`, version, had.of, of, message.text.length) : null;
    const built: BuiltPart = { of, version, message, patch, whole: () => message };
    this.parts.set(part, built);
    this.counters.parts++;
    return built;
  }

  /** The roads (baccarat) or the last rounds (blackjack, war), as every station shows them. */
  private panel(): PublicPanel {
    const extras = this.table.tableExtras(this.config.seats);
    if (this.panelOf?.extras === extras) return this.panelOf.panel;
    const panel: PublicPanel = { ...(extras.roads ? { roads: extras.roads } : {}), ...(extras.history ? { history: extras.history } : {}) };
    this.panelOf = { extras, panel };
    return panel;
  }

  private panelOf: { extras: unknown; panel: PublicPanel } | null = null;

  /**
   * A screen's command: a station's bet, chips cleared or decision goes to the table's group
   * commit and its result comes once the commit is durable (journalled before acknowledged);
   * every other command is applied at once, as `apply` does.
   */
  submit(view: ViewName, version: number, command: CommandBody, conn?: string): ApplyResult | Promise<ApplyResult> {
    const station = stationOf(view);
    if (station === null || (command.name !== 'place-bet' && command.name !== 'clear-bets' && command.name !== 'decide'))
      return this.apply(view, version, command, conn);
    const current = this.version(view, conn);
    if (version !== current) return this.apply(view, version, command, conn);
    const gated = this.floor?.refuse(station, command.name);
    if (gated) return { ok: false, error: protocolError('rejected', gated.reason, { view, currentVersion: current, refusal: gated.refusal }) };
    const outcome = this.table.submit(
      command.name === 'place-bet'
        ? { kind: 'place-bet', station, spot: command.spot, amount: command.amount }
        : command.name === 'clear-bets'
          ? { kind: 'clear-bets', station }
          : { kind: 'decide', station, action: command.action, ...(command.amount !== undefined ? { amount: command.amount } : {}) },
    );
    return outcome instanceof Promise ? outcome.then((r) => this.result(view, r)) : this.result(view, outcome);
  }

  /** A table command's outcome as the screen is answered: the view's version after it, or the refusal. */
  private result(view: ViewName, r: Outcome): ApplyResult {
    if (!r.ok) {
      const extra = { view, currentVersion: this.version(view), ...(r.refusal ? { refusal: r.refusal } : {}) };
      return { ok: false, error: protocolError('rejected', r.reason, extra) };
    }
    return { ok: true, version: this.version(view) };
  }

  /** Applies a command made against `version` of `view`; a stale version is refused. */
  apply(view: ViewName, version: number, command: CommandBody, conn?: string): ApplyResult {
    const current = this.version(view, conn);
    if (version !== current) {
      return {
        ok: false,
        error: protocolError('stale-version', `command made against version ${version}, view is at ${current}`, { view, currentVersion: current }),
      };
    }
    if (command.name === 'set-language') {
      this.languages.set(this.key(view, conn), command.language);
      this.refresh(view, conn, true);
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
    if (station === null) return { ok: false, error: protocolError('rejected', `${command.name} is a station command`, { view, refusal: 'not-a-station' }) };
    if (command.name !== 'cash-out' && command.name !== 'place-bet' && command.name !== 'clear-bets' && command.name !== 'decide') {
      return { ok: false, error: protocolError('rejected', `${command.name} is a service command`, { view, refusal: 'not-a-station' }) };
    }
    const gated = this.floor?.refuse(station, command.name);
    if (gated) return { ok: false, error: protocolError('rejected', gated.reason, { view, currentVersion: current, refusal: gated.refusal }) };
    const r =
      command.name === 'cash-out'
        ? (this.floor?.cashOut(station) ?? { ok: false as const, reason: 'cash-out is not available at this table', refusal: 'cash-out-empty' as const })
        : command.name === 'place-bet'
          ? this.table.placeBet(station, command.spot, command.amount)
          : command.name === 'clear-bets'
            ? this.table.clearBets(station)
            : this.table.decide(station, command.action, command.amount);
    return this.result(view, r);
  }

  /** The configuration changed (limits, timers, notes): every view is looked at again. */
  configChanged(): void {
    this.refreshAll();
  }

  /* ─────────────── building ─────────────── */

  private key(view: ViewName, conn?: string): string {
    return view === 'service' && conn !== undefined ? `service#${conn}` : view;
  }

  /**
   * `tableOnly`: the table's state changed and nothing else did (the floor and the configuration
   * call without it). Then the stations' views are looked at only if something any of them is
   * built from moved: a card read (the public round) leaves hundreds of stations' own parts
   * untouched, and not even their inputs are compared.
   */
  private refreshAll(tableOnly = false): void {
    this.counters.changes++;
    // The parts every station shares first: each is encoded once, then handed to every station screen.
    for (const part of PUBLIC_PARTS) {
      const had = this.parts.get(part);
      const now = this.publicPart(part);
      if (had !== now) for (const sink of this.publicSinks) sink.deliver(`public:${part}`, now);
    }
    this.refresh('table');
    this.refresh('service');
    // What the stations read of the table's state is declared once (station-reads.ts): this key and each station's deps follow from it.
    const key = stationsKey(this.table.state, this.table.stationInputs());
    const same = tableOnly && this.lastStationsKey !== null && sameDeps(this.lastStationsKey, key);
    this.lastStationsKey = key;
    if (same) return;
    for (const view of this.views()) if (view !== 'table' && view !== 'service') this.refresh(view);
    for (const view of this.remoteViews()) this.refresh(view);
  }

  private lastStationsKey: readonly unknown[] | null = null;

  /**
   * Without `conn`, the service view refreshes for every connection subscribed to it. A station
   * view nobody is subscribed to is only marked stale (a stadium has hundreds of stations, most
   * of them not connected at any moment): it is built when next asked for.
   */
  private refresh(view: ViewName, conn?: string, force = false): void {
    if (view === 'service') {
      if (conn === undefined) for (const c of this.serviceConns) this.rebuild(view, c);
      else if (this.serviceConns.has(conn)) this.rebuild(view, conn);
      return;
    }
    const had = this.built.get(view);
    if (!force && had && !this.sinks.has(view) && this.listeners.size === 0) {
      had.stale = true;
      return;
    }
    if (had || force) this.rebuild(view);
  }

  private current(view: ViewName, conn?: string): Built {
    const had = this.built.get(this.key(view, conn));
    if (had && !had.stale) return had;
    return this.rebuild(view, conn, had === undefined);
  }

  /** Builds the view if what it is built from changed; a new version (and subscribers told) only if its content changed. */
  private rebuild(view: ViewName, conn?: string, first = false): Built {
    const key = this.key(view, conn);
    const had = this.built.get(key);
    const deps = this.depsOf(view, conn);
    // Service consoles are per connection and read the floor's services: always built on a change.
    if (had && view !== 'service' && sameDeps(had.deps, deps)) {
      had.stale = false;
      return had;
    }
    const state = this.build(view, conn);
    this.counters.built++;
    const json = encodeView(state, this.encoded);
    if (had && had.json === json) {
      had.deps = deps;
      had.stale = false;
      return had;
    }
    const version = (had?.version ?? 0) + 1;
    const sinks = first ? undefined : this.sinks.get(key);
    const watched = sinks !== undefined && sinks.size > 0;
    // The patch is made for the screens showing the view now; one that subscribes later gets it whole.
    const patch =
      had && watched && patched(view) ? patchMessage(`{"type":"patch","view":${JSON.stringify(view)}`, version, had.state, state, json.length + 64) : null;
    const b: Built = { deps, state, json, version, snapshot: null, patch, stale: false };
    this.built.set(key, b);
    if (!first) {
      if (watched) {
        const update = this.update(view, conn);
        for (const sink of sinks) sink.deliver(`view:${view}`, update);
      }
      for (const l of [...this.listeners]) l(view, conn);
    }
    return b;
  }

  private languageOf(view: ViewName, conn?: string): Language {
    return this.languages.get(this.key(view, conn)) ?? this.config.defaultLanguage;
  }

  /** What a view is built from: the parts of the table's and the floor's state it shows. */
  private depsOf(view: ViewName, conn?: string): unknown[] {
    const s = this.table.state;
    const round = this.table.view();
    const language = this.languageOf(view, conn);
    const station = stationOf(view);
    if (station !== null) {
      // Grouped by station once per state: each station compares its own share, not the whole lists.
      return [
        language,
        ...stationKey(s, this.table.stationInputs(), station),
        // Faults and handpays come as new objects each time they are asked for: compared by content.
        JSON.stringify(this.floor?.notices(station) ?? null),
        JSON.stringify(this.floor?.cashout(station) ?? null),
        this.floor?.refuse(station, 'place-bet')?.refusal,
        this.recallOf(station),
      ];
    }
    if (view === 'table')
      // The shoe holds the progressive's pools (a reset, a round's chips); its gate is in the faults.
      return [
        round,
        language,
        s.params,
        s.shoe,
        s.shoeNo,
        s.history,
        this.table.stadium(),
        JSON.stringify(this.floor?.notices(null) ?? null),
        s.lastJackpotHit,
        s.faults,
      ];
    return [language];
  }

  private build(view: ViewName, conn?: string): ViewState | StationOwnState {
    const c = this.config;
    const language = this.languageOf(view, conn);
    const station = stationOf(view);
    if (station !== null) return this.buildStation(station, language);
    if (view === 'service') {
      if (this.service && conn !== undefined) return this.service.state(conn, language);
      const signedOut: ServiceState = { kind: 'service', tableId: c.tableId, softwareVersion: this.softwareVersion, language, signedIn: false };
      return signedOut;
    }
    const s = this.table.state;
    const extras = this.table.tableExtras(c.seats);
    const stadium = this.table.stadium();
    const table: TableView = {
      kind: 'table',
      tableId: c.tableId,
      game: c.game,
      profile: c.profile,
      currency: c.currency,
      limits: s.params.limits,
      language,
      seats: extras.seats,
      round: this.table.view(),
      ...(this.floor ? { tilts: this.floor.notices(null) } : {}),
      bets: extras.bets,
      presentation: extras.presentation,
      ...(extras.lastRound ? { lastRound: true } : {}),
      ...(extras.roads ? { roads: extras.roads } : {}),
      ...(extras.history ? { history: extras.history } : {}),
      ...(extras.streaks ? { streaks: extras.streaks.map((x) => ({ seat: x.seat, wins: x.wins, open: x.open.map((o) => ({ ...o })) })) } : {}),
      ...(stadium ? { stadium } : {}),
      ...this.jackpotView(),
    };
    return table;
  }

  private buildStation(station: number, language: Language): StationOwnState {
    const c = this.config;
    const cfg = c.stations.find((s) => s.station === station);
    if (!cfg && !isRemote(this.table.state.params, station)) throw new Error(`no station ${station} at this table`);
    const own = this.table.station(station);
    const jackpot = this.jackpotView().jackpot;
    // A fault or a pending handpay closes this station's betting even while the table's is open.
    const open = own.betting.open && !this.floor?.refuse(station, 'place-bet');
    const state: StationOwnState = {
      kind: 'station',
      station,
      ...(cfg ? { seat: cfg.seat } : {}),
      game: c.game,
      currency: c.currency,
      limits: this.table.state.params.limits,
      language,
      credit: own.credit,
      betting: { ...own.betting, open },
      decision: own.decision,
      ...(this.floor ? { tilts: this.floor.notices(station), cashout: this.floor.cashout(station) } : {}),
      recall: this.recallOf(station),
      payTable: this.payTable,
      presentation: this.table.presentation,
      ...(jackpot ? { jackpot: { stake: jackpot.stake, stopped: jackpot.stopped } } : {}),
    };
    return state;
  }

  /** The progressive's pools, its last award and its gate, for the table display (nothing where the table plays none). */
  private jackpotView(): { jackpot?: JackpotView } {
    const p = this.table.progressive();
    if (!p) return {};
    const s = this.table.state;
    const hit = s.lastJackpotHit;
    return {
      jackpot: {
        reference: p.reference,
        stake: p.stake,
        levels: p.levels.map((l) => ({ level: l.level, pool: l.pool })),
        ...(hit ? { lastHit: { roundId: hit.roundId, seat: hit.seat, combination: hit.combination, level: hit.level, amount: hit.amount } } : {}),
        stopped: (s.faults.jackpotStopped ?? null) !== null,
      },
    };
  }

  /**
   * A station's last rounds from the ledger's recall, read again only when a round it played in
   * was recorded. Each round's record is read and split by station once (a stadium's round holds
   * hundreds of stations' lines), then every station takes its own part of it.
   */
  private recallOf(station: number): StationRecallRound[] {
    const version = this.recallSource.recallVersion(station);
    const had = this.recall.get(station);
    if (had && had.version === version) return had.list;
    const list = this.recallSource.recallIds(station, MAX_RECALL_ROUNDS).flatMap((id) => {
      const own = this.recallRounds(id)?.get(station);
      return own ? [own] : [];
    });
    this.recall.set(station, { version, list });
    return list;
  }

  /** A recorded round, split by station once; the newest rounds are kept (a station recalls ten). */
  private recallRounds(roundId: string): Map<number, StationRecallRound> | null {
    const had = this.rounds.get(roundId);
    if (had) return had;
    const record = this.recallSource.round(roundId);
    if (!record) return null;
    const byStation = new Map<number, StationRecallRound>();
    for (const s of new Set([...record.bets.map((b) => b.station), ...record.lines.map((l) => l.station)])) byStation.set(s, recallRound(record, s));
    this.rounds.set(roundId, byStation);
    // Twice a station's recall: every station's ten are in here.
    for (const oldest of this.rounds.keys()) {
      if (this.rounds.size <= 2 * MAX_RECALL_ROUNDS + 2) break;
      this.rounds.delete(oldest);
    }
    return byStation;
  }
}
