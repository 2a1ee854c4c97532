import {
  coupsFollow,
  shoeCoups,
  REMOTE_STATION_BASE,
  stationOf,
  stationView,
  type Language,
  type PublicPanel,
  type ServiceState,
  type StationOwnState,
  type StationState,
  type PartName,
  type PublicPartName,
  type ViewName,
  type ViewState,
} from '../../protocol/index.js';
import { isDemonstration } from '../config/authorisation.js';
import { isRemote } from '../../engine/table/state.js';
import { SharedMessage, type Update } from './outbox.js';
import type { TableConfig } from '../config/table-config.js';
import type { StationGate } from '../floor/station-gates.js';
import type { ServiceHost } from '../service/service-host.js';
import type { LiveTable } from '../table/runtime.js';
import { ruleRecordAt, type Ledger } from '../../ledger/index.js';
import { ScreenCommands, type StationCreditMoves } from './screen-commands.js';
import { idleByKey, SharedReads, sameButIdleReads, stationsKey, stationsMoved, type StationsLook } from './station-reads.js';
import { encodeView, patchMessage } from './encode-view.js';
import { OwnPatches } from './own-patches.js';
import { sameDeps } from './same-deps.js';
import { StationRecall } from './station-recall.js';
import { StationParts, type IdleMade } from './station-parts.js';
import { TABLE_VIEW_BY_CONTENT, tableView, tableViewInputs, type ViewSources } from './table-view.js';
import { inputsKey } from '../table/memo-on-inputs.js';

/** `conn` names the one connection whose view changed (service mode is per connection); absent: every subscriber. */
export type ViewListener = (view: ViewName, conn?: string) => void;

/** The parts every station shows, sent apart from each station's own part (protocol `public`). */
export const PUBLIC_PARTS: readonly PublicPartName[] = ['round', 'panel'];
export type { PublicPartName };
export type { ApplyResult, StationCreditMoves } from './screen-commands.js';

/**
 * Where a subscribed screen's messages go: `slot` names what the update replaces (a newer
 * version of the same view or part makes an older one still waiting worthless).
 */
export interface ViewSink {
  deliver(slot: string, update: Update): void;
  /**
   * A public sink (`subscribeParts`): every update of one change has been handed over, the public
   * parts and then every view it changed. What the sink held for the change may go now, together
   * (the edges' publisher writes them to NATS then, host/edges/edge-bridge.ts).
   */
  changeDone?(): void;
}

/** A station's views are sent as patches; the table display and service mode come whole. */
function patched(view: ViewName): boolean {
  return stationOf(view) !== null;
}

/** One view as last built: what it was built from, the state, its version and its snapshot as sent. */
interface Built {
  deps: readonly unknown[];
  /** A station's own part, or the whole view (table display, service mode). */
  state: ViewState | StationOwnState;
  /** Its JSON, made when the version was built whole, or when first needed for one made from its last (`idle`). */
  json: string | null;
  /** The length of its JSON (the patch is sent only when smaller than the whole). */
  length: number;
  version: number;
  /** The snapshot message, encoded once for every screen that shows this view. */
  snapshot: SharedMessage | null;
  /** The patch from the version before, made when the version was built for the screens showing it (null: none). */
  patch: SharedMessage | null;
  /** Something it is built from changed while nobody watched it: built again when next asked for. */
  stale: boolean;
  /** A station's own part made while it was idle: what its next one may be made from (station-parts.ts). Null: any other view. */
  idle: IdleMade | null;
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
  /** Station views looked at: their deps worked out against the last (a station no change can have moved is not looked at). */
  looked: number;
  /** View states built (projected); a view whose inputs did not change is not built. */
  built: number;
  /** Snapshots encoded: once per new version of a view, whatever the number of screens. */
  encoded: number;
  /** Public parts (round, panel) encoded: once per change of what they show, for every station. */
  parts: number;
  /** Station own-part patches worked out and encoded (their operations: what changed between two versions). */
  patched: number;
  /** Idle stations' own parts made from their last one and the shared fields now, not built (`built` does not count them). */
  reused: number;
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
  private transfers: StationCreditMoves | null = null;
  /** Each station's last rounds, read from the ledger's recall. */
  private readonly recall: StationRecall;
  /** The JSON of parts views share (the round, a recall list, the pay table), encoded once while they live. */
  private readonly encoded = new WeakMap<object, string>();
  readonly counters: HubCounters = { changes: 0, looked: 0, built: 0, encoded: 0, parts: 0, patched: 0, reused: 0 };
  /** The stations' own-part patches, each change of one part worked out once for every station it moved alike (own-patches.ts). */
  private readonly ownPatches = new OwnPatches(() => this.counters.patched++);
  /** The stations' own parts: their deps, built whole, or an idle station's made from its last one (station-parts.ts). */
  private readonly own: StationParts;
  /** Where the screens' commands go (the table, the floor, the peer tables, service mode, a language). */
  readonly commands: ScreenCommands;
  /** The screens subscribed to each view (by key), and to the public parts (every station screen). */
  private readonly sinks = new Map<string, Set<ViewSink>>();
  private readonly publicSinks = new Set<ViewSink>();
  private readonly parts = new Map<PublicPartName, BuiltPart>();

  constructor(
    private readonly config: TableConfig,
    private readonly softwareVersion: string,
    private readonly table: LiveTable,
    ledger: Ledger,
    /** `reuseIdleParts` false: every station's part built whole, never made from its last (the tests' reference). */
    private readonly options: { reuseIdleParts?: boolean } = {},
  ) {
    // Each recalled round with the authorisation on record when it was played (issue 51); a ticket entry: the screens look again.
    this.recall = new StationRecall(ledger, (seq) => ruleRecordAt(ledger, seq)?.payload ?? null);
    this.own = new StationParts({
      sources: () => this.sources(),
      recall: this.recall,
      changes: () => this.counters.changes,
      encoded: this.encoded,
      patches: this.ownPatches,
    });
    this.recall.onTicketsChanged(() => this.refreshAll());
    table.onChange(() => this.refreshAll(true));
    this.commands = new ScreenCommands({
      table,
      version: (view, conn) => this.version(view, conn),
      setLanguage: (view, conn, language) => {
        this.languages.set(this.key(view, conn), language);
        this.refresh(view, conn, true);
      },
      floor: () => this.floor,
      transfers: () => this.transfers,
      service: () => this.service,
    });
  }

  /** Attaches the faults and handpays: their refusals, notices and cash-out reach every screen. */
  attachFloor(floor: StationGate): void {
    this.floor = floor;
    // Before the floor's change listener below: a held ticket's list is stale before the screens look again.
    this.recall.ticketsHeldBy(floor.heldIn ?? null);
    floor.onChange(() => this.refreshAll());
    this.refreshAll();
  }

  /** Attaches the transfers with peer tables: a station's `move-credit` and `leave-table` are theirs (issue 34). */
  attachTransfers(transfers: StationCreditMoves): void {
    this.transfers = transfers;
    transfers.watch(() => this.refreshAll());
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
   * station's screen every new public part too (sent now, before its own part; not to the edges'
   * publisher, `withPublicParts` false). Returns the unsubscribe.
   */
  subscribe(view: ViewName, conn: string, sink: ViewSink, withPublicParts = true): () => void {
    // Built before the sink is added: a rebuild now must not hand it a version it is about to be sent whole.
    this.current(view, conn);
    const key = this.key(view, conn);
    let set = this.sinks.get(key);
    if (!set) this.sinks.set(key, (set = new Set()));
    set.add(sink);
    const station = stationOf(view) !== null;
    if (station && withPublicParts) {
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

  /** The public parts alone, for the edges' publisher (host/edges/): each part once for every station of every edge. */
  subscribeParts(sink: ViewSink): () => void {
    this.publicSinks.add(sink);
    PUBLIC_PARTS.forEach((part) => sink.deliver(`public:${part}`, this.publicPart(part)));
    return () => this.publicSinks.delete(sink);
  }
  /**
   * A screen lost track of parts of its view (a patch did not follow what it held): each is
   * handed to its sink again as it stands now. The sink (its outbox, told to forget) sends them
   * whole. A table display's or service mode's view has no public parts.
   */
  resend(view: ViewName, conn: string, sink: ViewSink, parts: readonly PartName[]): void {
    const station = stationOf(view);
    for (const part of new Set(parts)) {
      if (part === 'own') sink.deliver(`view:${view}`, this.update(view, conn));
      else if (station === null) continue;
      else if (part === 'recall') sink.deliver(`recall:${view}`, this.recallPart(view, station));
      else sink.deliver(`public:${part}`, this.publicPart(part));
    }
  }

  /** A station's recall as its screen asks for it: encoded once per version of its list (only its own: the view was granted). */
  private recallPart(view: ViewName, station: number): Update {
    const rounds = this.recall.of(station);
    const version = this.recall.versionOf(station);
    let json = this.encoded.get(rounds);
    if (json === undefined) {
      json = JSON.stringify(rounds);
      this.encoded.set(rounds, json);
    }
    const message = new SharedMessage(`{"type":"recall","view":${JSON.stringify(view)},"version":${version},"rounds":${json}}`);
    return { version, patch: null, whole: () => message };
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
    return { ...s, round: this.table.reads.view(), ...this.shownPanel(), recall: this.recall.of(s.station) };
  }

  /** The view's snapshot message, encoded once per version and shared by every screen showing it. */
  private snapshotMessage(view: ViewName, conn?: string): SharedMessage {
    const b = this.current(view, conn);
    if (b.snapshot === null) {
      // The state's JSON was made when the view was built (or is made now, for a part made from its last): the message wraps it, encoded once.
      b.snapshot = new SharedMessage(`{"type":"snapshot","view":${JSON.stringify(view)},"version":${b.version},"state":${this.jsonOf(b)}}`);
      this.counters.encoded++;
    }
    return b.snapshot;
  }

  /**
   * A public part's message as it stands: projected and encoded once per change of what it
   * shows, the same bytes for every station screen.
   */
  publicPart(part: PublicPartName): BuiltPart {
    const of = part === 'round' ? this.table.reads.view() : this.panel();
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
    // A shoe's coups only grow: a list that does not extend the one sent (never made by a table) goes whole, as a screen would ask for it.
    const follows = part !== 'panel' || coupsFollow((had?.of as PublicPanel | undefined)?.shoe, (of as PublicPanel).shoe);
    const patch = had && follows ? patchMessage(part, version, had.of, of, message.text.length) : null;
    const built: BuiltPart = { of, version, message, patch, whole: () => message };
    this.parts.set(part, built);
    this.counters.parts++;
    return built;
  }

  /**
   * The roads (baccarat) or the last rounds (blackjack, war), as every station is sent them: the
   * roads as the shoe's coups, which each screen lays out itself (protocol 6), so that a coup is
   * one mark more and not the cells of five roads.
   */
  private panel(): PublicPanel {
    const extras = this.table.reads.tableExtras(this.config.seats);
    if (this.panelOf?.extras === extras) return this.panelOf.panel;
    const coups = extras.roads ? this.table.reads.coups() : undefined;
    const panel: PublicPanel = {
      ...(extras.roads && coups ? { shoe: shoeCoups(extras.roads.shoe, coups) } : {}),
      ...(extras.history ? { history: extras.history } : {}),
    };
    this.panelOf = { extras, panel };
    return panel;
  }

  /** The panel as a station shows it (its whole view, for the host's own readers): the roads laid out, as the table display's. */
  private shownPanel(): Pick<StationState, 'roads' | 'history'> {
    const extras = this.table.reads.tableExtras(this.config.seats);
    return { ...(extras.roads ? { roads: extras.roads } : {}), ...(extras.history ? { history: extras.history } : {}) };
  }

  private panelOf: { extras: unknown; panel: PublicPanel } | null = null;

  /** The configuration changed (limits, timers, notes): every view is looked at again. */
  configChanged(): void {
    this.own.configRevision++;
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
    // Anything but the table's state moved (the floor, a ticket, a transfer, the configuration): every station's word from the floor is asked again.
    if (!tableOnly) this.own.floorRevision++;
    try {
      this.deliverChange(tableOnly);
    } finally {
      for (const sink of this.publicSinks) sink.changeDone?.();
    }
  }

  private deliverChange(tableOnly: boolean): void {
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
    const state = this.table.state;
    const inputs = this.table.reads.stationInputs();
    const key = stationsKey(state, inputs);
    const same = tableOnly && this.lastStationsKey !== null && sameDeps(this.lastStationsKey, key);
    this.lastStationsKey = key;
    const look = { state, inputs, shared: this.sharedReads.at(state), recall: this.recall.tick() };
    const before = this.lastLook;
    this.lastLook = look;
    if (same) return;
    // A change of the table alone that moved no field every station reads: only the stations whose own share or recall moved are looked at.
    const moved = tableOnly && before !== null ? stationsMoved(before, look) : null;
    if (before !== null && before.recall !== look.recall) {
      const recalled = this.recall.movedSince(before.recall);
      this.recall.readAgain(recalled);
      if (moved !== null) for (const s of recalled) moved.add(s);
    }
    const views = moved === null ? this.stationViews() : [...[...moved].map((s) => stationView(s)), ...this.builtOffPass];
    this.builtOffPass.clear();
    this.passing = true;
    try {
      for (const view of views) this.refresh(view);
    } finally {
      this.passing = false;
    }
  }

  /** The stations' last look at the table's state (`deliverChange`), and whether a change is looking at them now. */
  private lastLook: (StationsLook & { recall: number }) | null = null;
  private passing = false;
  /**
   * Station views whose deps were worked out outside a change's look (asked for, or a language
   * set): read at a state the last look may not have seen, so the next change looks at them again.
   */
  private readonly builtOffPass = new Set<ViewName>();

  /**
   * Every station's view, seated then remote: the same strings from one change to the next while
   * the count of remote stations stands (a stadium's thousand names are not made again a change,
   * and each keeps its hash for the maps they key).
   */
  private stationViews(): readonly ViewName[] {
    const remote = this.table.state.params.remote ?? 0;
    if (this.stationViewsOf?.remote !== remote || this.stationViewsOf.seated !== this.config.stations) {
      const views = [...this.views().filter((v) => stationOf(v) !== null), ...this.remoteViews()];
      this.stationViewsOf = { remote, seated: this.config.stations, views };
    }
    return this.stationViewsOf.views;
  }

  private stationViewsOf: { remote: number; seated: TableConfig['stations']; views: readonly ViewName[] } | null = null;

  private lastStationsKey: readonly unknown[] | null = null;
  /** What every station reads alike of the table's state, compared once per state (station-reads.ts). */
  private readonly sharedReads = new SharedReads();

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
    if (view !== 'table' && view !== 'service') {
      this.counters.looked++;
      if (!this.passing) this.builtOffPass.add(view);
    }
    // Service consoles are per connection and read the floor's services: always built on a change.
    if (had && view !== 'service' && sameDeps(had.deps, deps)) {
      had.stale = false;
      return had;
    }
    const station = stationOf(view);
    // An idle station whose own reads did not move, only the shared fields it reads: its part made from its last one.
    const sinks = first ? undefined : this.sinks.get(key);
    const watched = sinks !== undefined && sinks.size > 0;
    const idle = this.options.reuseIdleParts !== false && station !== null ? had?.idle : null;
    const reuse = had && idle && this.own.current(idle) && idleByKey(deps) && sameButIdleReads(had.deps, deps);
    const next = reuse && station !== null ? this.own.fromLast(view, station, had, idle, watched) : null;
    if (next === 'same' && had) {
      had.deps = deps;
      had.stale = false;
      return had;
    }
    if (next !== null && next !== 'same' && had) {
      this.counters.reused++;
      return this.put(view, conn, key, { deps, ...next, json: null, version: had.version + 1, snapshot: null, stale: false }, false);
    }
    const { state, idle: made } =
      station !== null ? this.own.build(station, this.languageOf(view), idleByKey(deps)) : { state: this.build(view, conn), idle: null };
    this.counters.built++;
    const json = encodeView(state, this.encoded);
    if (had && this.jsonOf(had) === json) {
      had.deps = deps;
      had.stale = false;
      // Its own and shared fields now are those it shows, as JSON: its next part may be made from these.
      had.idle = made;
      return had;
    }
    const version = (had?.version ?? 0) + 1;
    // The patch is made for the screens showing the view now; one that subscribes later gets it whole.
    const patch = had && watched && patched(view) ? this.ownPatches.patch(view, version, had.state, state, json.length + 64) : null;
    return this.put(view, conn, key, { deps, state, json, length: json.length, version, snapshot: null, patch, stale: false, idle: made }, first);
  }

  /** A new version of a view stored and handed to its screens and listeners (none for its first). */
  private put(view: ViewName, conn: string | undefined, key: string, b: Built, first: boolean): Built {
    this.built.set(key, b);
    if (!first) {
      const sinks = this.sinks.get(key);
      if (sinks !== undefined && sinks.size > 0) {
        const update = this.update(view, conn);
        for (const sink of sinks) sink.deliver(`view:${view}`, update);
      }
      for (const l of [...this.listeners]) l(view, conn);
    }
    return b;
  }

  /** A view's JSON, made now if its version was made from the last one (the same text as `encodeView` of it). */
  private jsonOf(b: Built): string {
    b.json ??= encodeView(b.state, this.encoded);
    return b.json;
  }

  private languageOf(view: ViewName, conn?: string): Language {
    return this.languages.get(this.key(view, conn)) ?? this.config.defaultLanguage;
  }

  /** What the table display's and the stations' views are projected from. */
  private sources(): ViewSources {
    return { config: this.config, table: this.table, floor: this.floor, transfers: this.transfers };
  }

  /** What a view is built from: the parts of the table's and the floor's state it shows. */
  private depsOf(view: ViewName, conn?: string): unknown[] {
    const language = this.languageOf(view, conn);
    const station = stationOf(view);
    if (station !== null) {
      return this.own.deps(station, language, this.sharedReads.at(this.table.state));
    }
    if (view === 'table') return inputsKey(tableViewInputs(this.sources(), language), TABLE_VIEW_BY_CONTENT);
    return [language];
  }

  /** The table display's or service mode's view (a station's own part: `buildStation`). */
  private build(view: ViewName, conn?: string): ViewState {
    const language = this.languageOf(view, conn);
    if (view !== 'service') return tableView(this.config, tableViewInputs(this.sources(), language));
    if (this.service && conn !== undefined) return this.service.state(conn, language);
    const signedOut: ServiceState = {
      kind: 'service',
      tableId: this.config.tableId,
      softwareVersion: this.softwareVersion,
      language,
      signedIn: false,
      ...(isDemonstration(this.config) ? { demonstration: true as const } : {}),
    };
    return signedOut;
  }
}
