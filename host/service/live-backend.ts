import type { i18n } from 'i18next';
import type { Logger } from 'pino';
import { minorDigits } from '../../locales/money.js';
import {
  canonicalJson,
  eventLog,
  evidenceBundle,
  jackpotHits,
  jackpotMovements,
  jackpotPools,
  newestEntriesOfType,
  openServiceSessions,
  type Ledger,
  type SyncClient,
} from '../../ledger/index.js';
import { parseCard } from '../../engine/cards/card.js';
import { resetJackpotLevel } from '../floor/jackpot-reset.js';
import {
  compareMeters,
  MAX_STATIONS,
  meterGliName,
  metersOf,
  meterUnit,
  type Currency,
  type DeviceRow,
  type Language,
  type EventFilter,
  type EventRow,
  type RecallRound,
  type ServicePage,
  JackpotCombination,
  type ServiceRole,
} from '../../protocol/index.js';
import { NOTE_FACE_VALUES } from '../../hardware/billacceptor/notes.js';
import { CHANGEABLE_KEYS } from '../config/config-changes.js';
import { tableOptions, type TableConfig } from '../config/table-config.js';
import type { ChangeRefusal } from '../config/config-changes.js';
import type { BillAcceptors } from '../devices/bill-acceptors.js';
import type { TableShoe } from '../devices/shoe.js';
import type { FloorServices } from '../floor/floor-services.js';
import type { LiveTable } from '../table/runtime.js';
import { bettingOpen } from '../../engine/table/queries.js';
import { isCorrection, isUncorrectable, type Correction, type Uncorrectable } from '../../engine/table/vocabulary.js';
import { severityOf, tiltKindsOfSeverity, typesOfSeverity } from './event-severity.js';
import { profileItems } from './profile-items.js';
import type { WireFrame } from '../../hardware/wire-frame.js';
import { EnrolmentDownloads, type DiscardedFile, type EnrolmentDiscard, type EnrolmentRefusal, type EnrollingSession } from '../stadium/enrolment-downloads.js';
import { FrameTrace } from './frame-trace.js';
import { journalDrop } from '../floor/cashbox-drop.js';
import { metersReport } from './meters-report.js';
import { manifestDiff, programManifest, type ProgramLayout, type ProgramManifest } from './program-hash.js';
import {
  notAvailable,
  type AuthorisedBy,
  type BackendResult,
  type ConfigItem,
  type ConfigPage,
  type ConfigRefusal,
  type MeterScope,
  type PendingHandpay,
  type ServiceBackend,
  type SyncSummary,
  type TableSummary,
  type TiltSummary,
} from './service-backend.js';

export interface LiveBackendDeps {
  config: TableConfig;
  ledger: Ledger;
  table: LiveTable;
  billAcceptors: BillAcceptors;
  shoe: TableShoe;
  sync: SyncClient | null;
  /** Faults, handpays and configuration changes (host/stations/floor.ts). */
  floor: FloorServices;
  log: Logger;
  /** The host's words (the printable report): one i18next instance over the screens' catalogues. */
  i18n: i18n;
  softwareVersion: string;
  /** The files of the running program and their manifest at start (journalled in power.reset). */
  program: { layout: ProgramLayout; atStart: ProgramManifest };
  /** How long a note or card test waits for the technician (ms). */
  testTimeoutMs?: number;
  now?: () => number;
  /** The remote stations: their credentials, links and enrolment (host/stadium); absent: none. */
  stadium?: StadiumService;
}

/** What service mode does with the remote stations (start-host.ts wires it). */
export interface StadiumService {
  /** `https://host:port`, null without remote stations. */
  lan(): string | null;
  fingerprint(): string | null;
  /** The remote station numbers the table takes. */
  stations(): number[];
  enrolledAt(station: number): string | null;
  screenConnected(station: number): boolean;
  acceptorConnected(station: number): boolean;
  /** Enrols (journalled by the caller's two people) and returns the enrolment file's text. */
  enrol(station: number, by: [string, string]): string;
  revoke(station: number, by: [string, string]): boolean;
}

const TRACE_KEEP = 200;

/** The journal's words for a refused enrolment download and a discarded file. */
const ENROLMENT_REFUSED: Record<EnrolmentRefusal, string> = {
  'no-file': 'no enrolment file waits (downloaded, discarded, or never made): enrol the station again',
  'other-session': 'the file belongs to the session that enrolled the station',
  expired: 'not downloaded within its deadline: enrol the station again',
};
const ENROLMENT_DISCARDED: Record<EnrolmentDiscard, string> = {
  expired: 'not downloaded within its deadline',
  'session-ended': 'the enrolling session ended before the download',
  revoked: 'the credential was revoked before the download',
  're-enrolled': 'the station was enrolled again before the download',
};

/** The service backend over what the host has on this branch; see `service-backend.ts`. */
export class LiveServiceBackend implements ServiceBackend {
  readonly tableId: string;
  readonly currency: Currency;
  readonly softwareVersion: string;
  private readonly traceRows: { ts: string; device: string; event: string }[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly unlisten: (() => void)[] = [];
  private latestHash: { hash: string; at: string; changed: string[] } | null = null;
  private readonly lastTraced = new Map<string, string>();
  private readonly frameTrace = new FrameTrace(80);
  /** Frames come several times a second: the pages hear of them at most once a second. */
  private frameTimer: ReturnType<typeof setTimeout> | null = null;
  /** What the shoe said of itself when it connected (the host's shoe status keeps neither). */
  private shoeIdentity: { serial?: string; firmware?: string } = {};
  private readonly now: () => number;
  /** Note and card tests waiting for the technician; ended when the host stops. */
  private readonly running = new Set<() => void>();

  constructor(private readonly d: LiveBackendDeps) {
    this.tableId = d.config.tableId;
    this.currency = d.config.currency;
    this.softwareVersion = d.softwareVersion;
    this.now = d.now ?? Date.now;
    this.enrolments = new EnrolmentDownloads(this.now);
    this.unlisten.push(
      d.billAcceptors.onEvent((station, e) => this.traced(`BA-${station}`, e)),
      d.shoe.onEvent((e) => this.traced('shoe', e)),
      d.billAcceptors.onFrame((station, f) => this.framed(`BA-${station}`, f)),
      d.shoe.onFrame((f) => this.framed('shoe', f)),
      d.table.onChange(() => this.changed()),
      d.floor.tilts.onChange(() => this.changed()),
    );
  }

  /** Whether service mode closed the table (its own fault, so it survives a restart). */
  private get closed(): boolean {
    return this.d.floor.tilts.list().some((t) => t.kind === 'table-closed');
  }

  /** Handpays above this (minor units) need two people: the table configuration's, which may change. */
  get twoPersonHandpayAbove(): number {
    return this.d.config.handpayTwoPersonAbove;
  }

  dispose(): void {
    if (this.frameTimer) clearTimeout(this.frameTimer);
    if (this.enrolmentTimer) clearTimeout(this.enrolmentTimer);
    for (const u of this.unlisten) u();
    for (const end of [...this.running]) end();
  }

  /** A device test that waits for a note or a card, ended by its result, its time-out or the host stopping. */
  private waitForTest<T>(
    arm: (done: (value: T) => void) => () => void,
    onValue: (value: T) => BackendResult,
    onTimeout: () => BackendResult,
  ): Promise<BackendResult> {
    return new Promise((resolve) => {
      let finished = false;
      const finish = (r: () => BackendResult) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        disarm();
        this.running.delete(stopNow);
        resolve(r());
      };
      const disarm = arm((v) => finish(() => onValue(v)));
      const timer = setTimeout(() => finish(onTimeout), this.d.testTimeoutMs ?? 60_000);
      const stopNow = () => finish(() => ({ ok: false, code: 'refused', detail: 'the host is stopping' }));
      this.running.add(stopNow);
    });
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ── reading ──

  table(): TableSummary {
    const v = this.d.table.view();
    return {
      game: this.d.config.game,
      profile: this.d.config.profile,
      phase: v.phase,
      roundId: v.roundId,
      hold: v.hold,
      ...holdReads(this.d.table.holdState()),
      ...holdCorrections(this.d.table.holdState(), this.d.table.state.held ?? []),
      newBets: v.phase === 'betting' ? bettingOpen(this.d.table.state) : !this.d.floor.tilts.effects().newBetsStopped,
      closed: this.closed,
    };
  }

  devices(): DeviceRow[] {
    const shoe = this.d.shoe.state();
    return [
      ...this.d.billAcceptors.statuses().map((s) => {
        const inhibitedBy = this.d.billAcceptors.inhibitedBy(s.station);
        return {
          device: s.device,
          kind: 'bill-acceptor' as const,
          station: s.station,
          spec: s.spec,
          state: s.state,
          protocol: s.protocol,
          ...(s.firmware ? { firmware: s.firmware.slice(0, 128) } : {}),
          ...(s.serial ? { serial: s.serial.slice(0, 128) } : {}),
          lastEvent: s.lastEvent,
          // `enabled` is the technician's switch; a fault may inhibit the acceptor with it on.
          enabled: !inhibitedBy.includes('service-disable'),
          ...(inhibitedBy.length > 0 ? { inhibitedBy: inhibitedBy.slice(0, 16) } : {}),
        };
      }),
      {
        device: 'shoe',
        kind: 'shoe' as const,
        spec: shoe.spec,
        state: shoe.lidOpen ? `${shoe.state} (lid open)` : shoe.state,
        ...(this.shoeIdentity.firmware ? { firmware: this.shoeIdentity.firmware.slice(0, 128) } : {}),
        ...(this.shoeIdentity.serial ? { serial: this.shoeIdentity.serial.slice(0, 128) } : {}),
        lastEvent: shoe.lastEvent,
        protocol: 'framed',
        // The shoe is the table's only card source and the round locks it between coups: service
        // mode does not switch it off; closing the table (Holds and voids) stops new rounds instead.
        enabled: true,
        switchable: false,
      },
    ];
  }

  trace(device: string | null, limit: number): { ts: string; device: string; event: string }[] {
    const rows = device === null ? this.traceRows : this.traceRows.filter((r) => r.device === device);
    return rows.slice(-limit).reverse();
  }

  frames(device: string, limit: number): { ts: string; dir: 'tx' | 'rx'; hex: string; meaning: string; count: number }[] {
    return this.frameTrace.of(device, limit).map((f) => ({ ts: f.ts, dir: f.dir, hex: f.hex.slice(0, 400), meaning: f.meaning.slice(0, 400), count: f.count }));
  }

  private framed(device: string, f: WireFrame): void {
    this.frameTrace.add(device, f, new Date(this.now()).toISOString());
    this.frameTimer ??= setTimeout(() => {
      this.frameTimer = null;
      this.changed();
    }, 1000);
    this.frameTimer.unref?.();
  }

  sync(): SyncSummary | null {
    if (!this.d.sync) return null;
    const s = this.d.sync.status();
    return {
      state: s.state,
      upstream: s.upstream,
      ackedSeq: s.ackedSeq,
      headSeq: s.headSeq,
      lagEntries: s.lagEntries,
      lagSeconds: s.lagSeconds,
      lastError: s.lastError ? s.lastError.slice(0, 400) : null,
      lastErrorAt: s.lastErrorAt,
      lastSuccessAt: s.lastSuccessAt,
    };
  }

  tilts(): TiltSummary[] | null {
    return this.d.floor.tilts.list().map((t) => ({
      kind: t.kind,
      severity: t.severity,
      clearedBy: t.clears,
      ...(t.station !== undefined ? { station: t.station } : {}),
      clearable: t.clearable,
    }));
  }

  meters(): MeterScope[] {
    const all = this.d.ledger.meters();
    const scopes = new Map<string, Map<string, number>>();
    // Every configured station and every meter of the catalogue is listed, zero until counted.
    const notes = (this.d.config.denominations ?? NOTE_FACE_VALUES[this.d.config.currency]).map((n) => n * 100);
    for (const scope of ['table', ...this.d.config.stations.map((s) => `station:${s.station}`)])
      scopes.set(scope, new Map(metersOf(scope, notes).map((n) => [n, 0])));
    for (const [key, value] of Object.entries(all)) {
      const cut = key.indexOf('/');
      const scope = key.slice(0, cut);
      const list = scopes.get(scope) ?? new Map<string, number>();
      list.set(key.slice(cut + 1), value);
      scopes.set(scope, list);
    }
    // Each progressive level's pool, from its liability account (a balance, not a meter: it goes down on a hit).
    for (const { level, pool } of jackpotPools(this.d.ledger)) scopes.get('table')?.set(`progressivePool.${level}`, pool);
    const order = (s: string) => (s === 'table' ? 0 : Number(s.split(':')[1] ?? 99));
    return [...scopes.entries()]
      .sort((a, b) => order(a[0]) - order(b[0]))
      .map(([scope, meters]) => ({
        scope,
        meters: [...meters].sort((a, b) => compareMeters(a[0], b[0])).map(([name, value]) => ({ name, unit: meterUnit(name), value })),
      }));
  }

  recall(q: { station: number | null; offset: number; limit: number }): { rounds: RecallRound[]; more: boolean } {
    // The ledger answers at most 500 rounds per query: older ones are in the export tools.
    const want = Math.min(500, q.offset + q.limit + 1);
    const records =
      q.station !== null ? this.d.ledger.recall({ station: q.station, limit: want }) : this.d.ledger.recall({ tableId: this.tableId, limit: want });
    const page = records.slice(q.offset, q.offset + q.limit);
    return {
      more: records.length > q.offset + q.limit,
      rounds: page.map((r) => ({
        roundId: r.roundId,
        status: r.status,
        seq: r.seq,
        ts: r.ts,
        game: r.game,
        profile: r.profile,
        cards: r.cards,
        decisions: r.decisions.map((x) => ({
          seat: x.seat,
          ...(x.hand !== undefined ? { hand: x.hand } : {}),
          action: x.action,
          ...(x.auto ? { auto: true } : {}),
        })),
        ...(r.game === this.d.table.gameKind && this.d.table.presentation.actionWords ? { actionWords: { ...this.d.table.presentation.actionWords } } : {}),
        // One station's recall shows its own; a stadium round's whole record (hundreds of stations)
        // is cut to the page's limits here, the seated stations first: the export has all of it.
        bets: byStation(r.bets, q.station)
          .slice(0, 224)
          .map((b) => ({ station: b.station, seat: b.seat, bet: b.bet, amount: b.amount })),
        lines: byStation(r.lines, q.station).slice(0, 512),
        ...(r.reason !== undefined ? { reason: r.reason.slice(0, 400) } : {}),
        ...(r.authorisedBy ? { authorisedBy: r.authorisedBy } : {}),
        ...(r.uncorrectable !== undefined && isUncorrectable(r.uncorrectable) ? { uncorrectable: r.uncorrectable } : {}),
        ...(r.voidRule ? { voidRule: r.voidRule.slice(0, 128) } : {}),
        ...(r.corrections?.length
          ? {
              corrections: r.corrections
                .filter((c) => isCorrection(c.correction))
                .slice(0, 16)
                .map((c) => ({
                  correction: c.correction as Correction,
                  article: c.article.slice(0, 128),
                  ...(c.card ? { card: c.card } : {}),
                  confirmedBy: c.confirmedBy.slice(0, 4),
                })),
            }
          : {}),
      })),
    };
  }

  events(q: { filter: EventFilter; offset: number; limit: number }): { entries: EventRow[]; more: boolean } {
    const { types, severity, from, to } = q.filter;
    // A fault's entries rank by its kind, which only the host knows: the ledger is given the types
    // and the kinds of the severity, and for warnings every known kind as well, since a kind none
    // of them names (a later version's) counts as a warning.
    const known = tiltKindsOfSeverity('info').concat(tiltKindsOfSeverity('warning'), tiltKindsOfSeverity('critical'));
    const ranked = severity && {
      types: typesOfSeverity(severity),
      tiltKinds: tiltKindsOfSeverity(severity),
      ...(severity === 'warning' ? { knownTiltKinds: known } : {}),
    };
    const page = eventLog(this.d.ledger, { types, severity: ranked, from, to }, { offset: q.offset, limit: q.limit });
    return { more: page.more, entries: page.entries.map(toEventRow) };
  }

  cancelledCredits(limit: number): EventRow[] {
    return newestEntriesOfType(this.d.ledger, 'credit.cancel', limit).map(toEventRow);
  }

  config(): ConfigItem[] {
    const c = this.d.config;
    // The keys the floor's configuration changes accept are editable (as JSON, two people and the
    // regulator's reference); the rest needs a new configuration file and a restart.
    const changeable = new Set<string>(CHANGEABLE_KEYS);
    const item = (key: string, value: unknown, article?: string): ConfigItem => ({
      key,
      value: (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, 400),
      ...(article ? { article } : {}),
      editable: changeable.has(key),
    });
    return [
      item('tableId', c.tableId),
      item('game', c.game),
      item('profile', c.profile),
      item('currency', c.currency),
      item('limits', c.limits),
      item('betLimits', c.betLimits ?? {}),
      item('denominations', c.denominations ?? []),
      item('seats', c.seats),
      item('timings', c.timings),
      item('defaultLanguage', c.defaultLanguage),
      item('shoe', c.shoe),
      ...c.stations.map((s) => item(`station.${s.station}`, { seat: s.seat, billAcceptor: s.billAcceptor, protocol: s.billProtocol })),
      item('upstream', this.d.sync ? this.d.sync.status().upstream : 'off'),
      item('handpayTwoPersonAbove', c.handpayTwoPersonAbove),
      item('roundMax', c.roundMax ?? null, this.d.table.limitRules.roundMaxRule ?? undefined),
      item('profileOptions', c.profileOptions),
      item('profileAuthorisation', c.profileAuthorisation ?? ''),
      ...profileItems(c.game, c.profile, tableOptions(c), changeable.has('profileOptions')),
    ];
  }

  configExtras(): ConfigPage {
    const short = (v: unknown) => (v === undefined ? 'null' : JSON.stringify(v)).slice(0, 400);
    const bets = [...this.d.table.bets];
    const rows = newestEntriesOfType(this.d.ledger, 'config.change', 8);
    return {
      notes: [...NOTE_FACE_VALUES[this.d.config.currency]],
      bets: bets.slice(0, 32),
      queued: this.d.floor.configChanges
        .queued()
        .slice(0, 16)
        .map((q) => ({ seq: q.seq, key: q.key, after: short(q.after) })),
      atRestart: this.d.floor.configChanges
        .forRestart()
        .slice(0, 16)
        .map((q) => ({ seq: q.seq, key: q.key, after: short(q.after) })),
      changes: rows.map((r) => {
        const p = (JSON.parse(r.body) as { payload: { key: string; before: unknown; after: unknown; who: string; witness?: string; authorisation: string } })
          .payload;
        return {
          seq: r.seq,
          ts: r.ts,
          key: p.key.slice(0, 128),
          before: short(p.before),
          after: short(p.after),
          who: p.who.slice(0, 128),
          ...(p.witness ? { witness: p.witness.slice(0, 128) } : {}),
          authorisation: p.authorisation.slice(0, 128),
        };
      }),
    };
  }

  checkConfigChange(key: string, value: string, authorisation: string): ConfigRefusal | null {
    let after: unknown;
    try {
      after = JSON.parse(value);
    } catch {
      return { detail: `the new value of ${key} is not JSON: ${value.slice(0, 80)}` };
    }
    const r = this.d.floor.configChanges.check(key, after, authorisation);
    return r.ok ? null : configRefusal(r);
  }

  pendingHandpays(): PendingHandpay[] | null {
    // Every pending one (the page shows the first 16; a confirm looks its request up here).
    return this.d.floor.handpays.pending().map((p) => ({ station: p.station, amount: p.amount, requestTxId: p.requestTxId }));
  }

  programHashAtStart(): string {
    return this.d.program.atStart.hash;
  }

  programHashLatest(): { hash: string; at: string; changed: string[] } | null {
    return this.latestHash;
  }

  // ── exports ──

  /**
   * Machine values: money in integer minor units, named in the `unit` column (`MOP minor units
   * (1/100)`), counts as counts; the GLI/Macau name beside the ledger's.
   */
  metersCsv(): string {
    const money = moneyUnit(this.currency);
    const lines = ['terminal,table,scope,meter,gli_name,unit,value'];
    for (const s of this.meters()) {
      for (const m of s.meters)
        lines.push(
          [
            this.d.ledger.terminalId,
            this.tableId,
            s.scope,
            m.name,
            csvCell(meterGliName(m.name, minorDigits(this.currency))),
            m.unit === 'money' ? money : 'count',
            m.value,
          ].join(','),
        );
    }
    return lines.join('\r\n') + '\r\n';
  }

  metersJson(): string {
    return JSON.stringify(
      {
        terminal: this.d.ledger.terminalId,
        tableId: this.tableId,
        currency: this.currency,
        units: { money: moneyUnit(this.currency), count: 'count' },
        at: new Date(this.now()).toISOString(),
        head: this.d.ledger.headOf(),
        scopes: this.meters().map((s) => ({
          scope: s.scope,
          meters: s.meters.map((m) => ({ meter: m.name, gliName: meterGliName(m.name, minorDigits(this.currency)), unit: m.unit, value: m.value })),
        })),
      },
      null,
      1,
    );
  }

  metersHtml(language: Language): string {
    return metersReport(
      {
        language,
        currency: this.d.config.currency,
        tableId: this.tableId,
        terminal: this.d.ledger.terminalId,
        at: new Date(this.now()).toISOString(),
        headSeq: this.d.ledger.headOf().seq,
        scopes: this.meters(),
      },
      this.d.i18n,
    );
  }

  evidenceJson(roundId: string): string | null {
    const b = evidenceBundle(this.d.ledger, roundId, new Date(this.now()));
    return b ? JSON.stringify(b, null, 1) : null;
  }

  // ── two-person actions ──

  voidRound(roundId: string, reason: string, authorisedBy: AuthorisedBy, uncorrectable?: Uncorrectable): BackendResult {
    const current = this.d.table.view();
    if (current.roundId !== roundId) return { ok: false, code: 'stale-round', detail: `round ${roundId} is not the current round (${current.roundId})` };
    const r = this.d.table.voidRound(reason, authorisedBy, uncorrectable);
    if (!r.ok) return { ok: false, code: 'no-round', detail: r.reason };
    this.action(authorisedBy, 'void-round', `round ${roundId}: ${reason}${uncorrectable ? ` (${uncorrectable})` : ''}`);
    return { ok: true, key: 'service.done.voidRound', values: { round: roundId } };
  }

  correct(roundId: string, correction: Correction, authorisedBy: AuthorisedBy): BackendResult {
    const current = this.d.table.view();
    if (current.roundId !== roundId) return { ok: false, code: 'stale-round', detail: `round ${roundId} is not the current round (${current.roundId})` };
    const rule = this.d.table.holdState()?.corrections.find((c) => c.correction === correction && 'rule' in c);
    const r = this.d.table.correct(correction, authorisedBy[0], authorisedBy[1]);
    if (!r.ok) return { ok: false, code: 'refused', detail: r.reason };
    const article = rule && 'rule' in rule ? rule.rule : '';
    this.action(authorisedBy, 'correct', `round ${roundId}: ${correction} (${article})`);
    return { ok: true, key: 'service.done.correct', values: { correction, article } };
  }

  reportDealingError(roundId: string, who: string): BackendResult {
    const current = this.d.table.view();
    if (current.roundId !== roundId) return { ok: false, code: 'stale-round', detail: `round ${roundId} is not the current round (${current.roundId})` };
    const r = this.d.table.reportDealingError(who);
    if (!r.ok) return { ok: false, code: 'refused', detail: r.reason };
    this.action([who], 'dealing-error', `round ${roundId}`);
    return { ok: true, key: 'service.done.dealingError', values: { round: roundId } };
  }

  jackpot(): Omit<Extract<ServicePage, { page: 'jackpot' }>, 'page' | 'currency'> {
    const view = this.d.table.progressive();
    const journalled = new Map(jackpotPools(this.d.ledger).map((p) => [p.level, p.pool]));
    return {
      reference: view?.reference ?? null,
      stake: view?.stake ?? null,
      pools: view ? view.levels.map((l) => ({ level: l.level, pool: journalled.get(l.level) ?? 0, held: l.held })) : null,
      stopped: (this.d.table.state.faults.jackpotStopped ?? null) !== null,
      history: jackpotMovements(this.d.ledger, 40).map((m) => ({ ...m })),
      hits: jackpotHits(this.d.ledger, 25).flatMap((h) => {
        const combination = JackpotCombination.safeParse(h.combination);
        return combination.success
          ? [{ seq: h.seq, ts: h.ts, roundId: h.roundId, station: h.station, seat: h.seat, combination: combination.data, level: h.level, amount: h.amount }]
          : [];
      }),
    };
  }

  dropCount(station: number, notes: readonly { note: number; count: number }[], authorisedBy: AuthorisedBy): BackendResult {
    const stations = [...this.d.config.stations.map((s) => s.station), ...(this.d.stadium?.stations() ?? [])];
    if (!stations.includes(station)) return { ok: false, code: 'refused', detail: `the table has no station ${station}` };
    const faces = NOTE_FACE_VALUES[this.d.config.currency];
    const wrong = notes.find((n) => !faces.includes(n.note));
    if (wrong) return { ok: false, code: 'refused', detail: `${this.d.config.currency} has no ${wrong.note} note` };
    if (new Set(notes.map((n) => n.note)).size !== notes.length) return { ok: false, code: 'refused', detail: 'a face value is counted twice' };
    const counted = new Map(notes.map((n) => [n.note, n.count]));
    const { seq, payload: p } = journalDrop(this.d.ledger, { station, currency: this.d.config.currency, counted, authorisedBy });
    this.d.log.info({ station, seq, counted: p.counted, credited: p.credited, difference: p.difference }, 'cashbox drop counted');
    this.changed();
    return {
      ok: true,
      key: 'service.done.cashboxDrop',
      values: { station, counted: p.counted, credited: p.credited, difference: p.difference, currency: this.d.config.currency },
    };
  }

  resetJackpot(level: string, to: number, authorisation: string, authorisedBy: AuthorisedBy): BackendResult {
    const r = resetJackpotLevel(this.d, { level, to, supervisor: authorisedBy[0], witness: authorisedBy[1], authorisation });
    if (!r.ok) return { ok: false, code: 'refused', detail: r.reason };
    this.action(authorisedBy, 'jackpot-reset', `${level} → ${to} (${authorisation})`);
    this.changed();
    return { ok: true, key: 'service.done.jackpotReset', values: { level } };
  }

  enterCard(roundId: string, card: string, authorisedBy: AuthorisedBy): BackendResult {
    const current = this.d.table.view();
    if (current.roundId !== roundId) return { ok: false, code: 'stale-round', detail: `round ${roundId} is not the current round (${current.roundId})` };
    const r = this.d.table.enterCard(parseCard(card), authorisedBy[0], authorisedBy[1]);
    if (!r.ok) return { ok: false, code: 'refused', detail: r.reason };
    this.action(authorisedBy, 'enter-card', `round ${roundId}: ${card}`);
    return { ok: true, key: 'service.done.enterCard', values: { card } };
  }

  clearMeters(scope: string, authorisation: string, reason: string, authorisedBy: AuthorisedBy): BackendResult {
    this.d.ledger.append({ type: 'meter.clear', payload: { who: authorisedBy.join(' / '), authorisation, scope, reason } });
    this.action(authorisedBy, 'meter-clear', `${scope} (${authorisation}): ${reason}`);
    this.changed();
    return { ok: true, key: 'service.done.meterClear', values: { scope } };
  }

  changeConfig(key: string, value: string, authorisation: string, authorisedBy: AuthorisedBy): BackendResult {
    let after: unknown;
    try {
      after = JSON.parse(value);
    } catch {
      return { ok: false, code: 'refused', detail: `the new value of ${key} is not JSON: ${value.slice(0, 80)}` };
    }
    // Validated, journalled with before and after (config.change) and applied between rounds by the floor.
    const r = this.d.floor.configChanges.change(key, after, { who: authorisedBy[0], witness: authorisedBy[1], authorisation });
    if (!r.ok) {
      const refused = configRefusal(r);
      return { ok: false, code: 'refused', detail: refused.detail, ...(refused.notice ? { notice: refused.notice } : {}) };
    }
    this.changed();
    const done = r.status === 'applied' ? 'service.done.configChange' : r.status === 'queued' ? 'service.done.configQueued' : 'service.done.configRestart';
    return { ok: true, key: done, values: { key } };
  }

  /** Enrolment files waiting for their one download, each by the session that enrolled its station. */
  private readonly enrolments: EnrolmentDownloads;
  private enrolmentTimer: ReturnType<typeof setTimeout> | null = null;

  remoteStations(viewer: number): Omit<Extract<ServicePage, { page: 'stations' }>, 'page'> {
    const st = this.d.stadium;
    if (!st) return { lan: null, fingerprint: null, stations: [] };
    return {
      lan: st.lan(),
      fingerprint: st.fingerprint(),
      stations: st.stations().map((station) => {
        const at = st.enrolledAt(station);
        return {
          station,
          enrolled: at !== null,
          ...(at !== null ? { enrolledAt: at } : {}),
          screen: st.screenConnected(station),
          acceptor: st.acceptorConnected(station),
          // Offered to the enrolling session only: any other would be refused.
          ...(this.enrolments.waitsFor(station, viewer) ? { download: true } : {}),
        };
      }),
    };
  }

  enrolStation(station: number, authorisedBy: AuthorisedBy, session: EnrollingSession): BackendResult {
    const st = this.d.stadium;
    if (!st || !st.stations().includes(station)) return { ok: false, code: 'refused', detail: `station ${station} is not one of this table's remote stations` };
    let file: string;
    try {
      // The enrolment journals itself (service.action, both names); its file leaves the host once.
      file = st.enrol(station, authorisedBy);
    } catch (e) {
      return { ok: false, code: 'refused', detail: e instanceof Error ? e.message : String(e) };
    }
    this.journalDiscarded(this.enrolments.hold(station, file, session));
    this.armEnrolmentTimer();
    this.changed();
    return { ok: true, key: 'service.done.stationEnrol', values: { station } };
  }

  revokeStation(station: number, authorisedBy: AuthorisedBy): BackendResult {
    const st = this.d.stadium;
    if (!st || !st.revoke(station, authorisedBy)) return { ok: false, code: 'refused', detail: `station ${station} has no credential in force` };
    this.journalDiscarded(this.enrolments.discard(station, 'revoked'));
    this.action(authorisedBy, 'station-revoke', `station ${station}`);
    this.changed();
    return { ok: true, key: 'service.done.stationRevoke', values: { station } };
  }

  takeEnrolment(station: number, by: EnrollingSession): string | null {
    const r = this.enrolments.take(station, by);
    this.journalDiscarded(r.discarded);
    if (r.file === null) {
      this.action([by.who], 'enrolment-refused', `station ${station}: ${ENROLMENT_REFUSED[r.refused ?? 'no-file']}; session ${by.enterSeq}`);
      this.d.log.warn({ station, who: by.who, reason: r.refused }, 'enrolment file refused');
    } else {
      this.action([by.who], 'enrolment-download', `station ${station}; session ${by.enterSeq}`);
      this.d.log.info({ station, who: by.who }, 'enrolment file downloaded');
    }
    this.changed();
    return r.file;
  }

  sessionEnded(enterSeq: number): void {
    const gone = this.enrolments.sessionEnded(enterSeq);
    this.journalDiscarded(gone);
    if (gone.length > 0) this.changed();
  }

  /** Files past their deadline are discarded, journalled; the timer is set for the next deadline. */
  private enrolmentsExpired(): void {
    const gone = this.enrolments.expire();
    this.journalDiscarded(gone);
    if (gone.length > 0) this.changed();
  }

  private armEnrolmentTimer(): void {
    if (this.enrolmentTimer) clearTimeout(this.enrolmentTimer);
    this.enrolmentTimer = null;
    const next = this.enrolments.nextDeadline();
    if (next === null) return;
    // The secret does not stay in memory past its deadline, whether or not anyone looks.
    this.enrolmentTimer = setTimeout(
      () => {
        this.enrolmentTimer = null;
        this.enrolmentsExpired();
        this.armEnrolmentTimer();
      },
      Math.max(0, next - this.now()) + 10,
    );
    this.enrolmentTimer.unref();
  }

  private journalDiscarded(files: readonly DiscardedFile[]): void {
    for (const f of files)
      this.action([f.owner.who], 'enrolment-discarded', `station ${f.station}: ${ENROLMENT_DISCARDED[f.why]}; session ${f.owner.enterSeq}`);
  }

  confirmHandpay(station: number, requestTxId: string, authorisedBy: string[]): BackendResult {
    const pending = this.d.floor.handpays.pending().find((p) => p.requestTxId === requestTxId);
    if (!pending || pending.station !== station) return { ok: false, code: 'refused', detail: `no pending handpay ${requestTxId} at station ${station}` };
    const [attendant = '', witness] = authorisedBy;
    const r = this.d.floor.handpays.confirm(requestTxId, attendant, witness);
    if (!r.ok) return { ok: false, code: 'refused', detail: r.reason };
    this.action(authorisedBy, 'handpay-confirm', `station ${station}: ${r.amount} (${requestTxId})`);
    this.changed();
    return { ok: true, key: 'service.done.handpay', values: { station } };
  }

  // ── single-person actions ──

  newShoe(who: string): BackendResult {
    if (this.d.table.view().phase === 'dealing') return { ok: false, code: 'busy', detail: 'a round is being dealt' };
    const sim = this.d.shoe.simulator();
    // A simulated shoe is reloaded (its shoeLoaded event starts the new shoe); a real shoe reports
    // its own loading, and this is the supervisor's declaration that a new shoe is in.
    if (sim) sim.loadShoe();
    else this.d.table.onNewShoe();
    this.action([who], 'new-shoe', sim ? 'simulated shoe reloaded' : 'declared by the supervisor');
    return { ok: true, key: 'service.done.newShoe' };
  }

  setTableOpen(open: boolean, who: string): BackendResult {
    // A closed table is a fault of its own (table-closed: new bets stop, a supervisor reopens), so
    // no other fault's clearing, such as the upstream coming back, reopens it.
    const tilts = this.d.floor.tilts;
    if (!open) tilts.raise('table-closed', { detail: `closed in service mode by ${who}` });
    else if (this.closed) {
      const r = tilts.clear('table-closed', undefined, { user: who, role: 'supervisor' });
      if (!r.ok) return { ok: false, code: 'refused', detail: r.reason };
    }
    this.action([who], open ? 'table-open' : 'table-close', '');
    return { ok: true, key: open ? 'service.done.tableOpen' : 'service.done.tableClose' };
  }

  clearTilt(kind: string, station: number | undefined, who: string, role: ServiceRole): BackendResult {
    const r = this.d.floor.tilts.clear(kind, station, { user: who, role });
    if (!r.ok) return { ok: false, code: 'refused', detail: r.reason };
    this.action([who], 'clear-tilt', `${kind}${station !== undefined ? ` at station ${station}` : ''}`);
    return { ok: true, key: 'service.done.clearTilt', values: { kind } };
  }

  testNote(station: number, who: string): Promise<BackendResult> {
    const device = `BA-${station}`;
    if (!this.d.billAcceptors.statuses().some((s) => s.station === station))
      return Promise.resolve({ ok: false, code: 'no-device', detail: `no acceptor at station ${station}` });
    // An inhibited acceptor would hold the note at its mouth until the test timed out: say why now.
    const inhibitedBy = this.d.billAcceptors.inhibitedBy(station);
    if (inhibitedBy.length > 0) return Promise.resolve({ ok: false, code: 'inhibited', detail: inhibitedBy.join(', ') });
    const result = this.waitForTest<{ denomination: number; currency: string }>(
      (done) => this.d.billAcceptors.testNextNote(station, done),
      (note) => {
        this.test(who, device, 'note', `note ${note.denomination} ${note.currency} validated and returned`);
        return { ok: true, key: 'service.done.testNote', values: { device, value: note.denomination, currency: note.currency } };
      },
      () => {
        this.test(who, device, 'note', 'no note inserted before the time-out');
        return { ok: false, code: 'timeout', detail: 'no note was inserted' };
      },
    );
    // The simulated acceptor gets a note at once; a real one waits for the technician's note.
    this.d.billAcceptors.simulator(station)?.insertNote(100);
    return result;
  }

  testCard(who: string): Promise<BackendResult> {
    const v = this.d.table.view();
    if (v.phase === 'dealing' || v.phase === 'hold' || v.cue)
      return Promise.resolve({ ok: false, code: 'busy', detail: 'the shoe is in use: test a card between rounds with no cue' });
    const result = this.waitForTest<string>(
      (done) => this.d.shoe.testNextCard(done),
      (card) => {
        this.test(who, 'shoe', 'card', `read ${card}`);
        return { ok: true, key: 'service.done.testCard', values: { card } };
      },
      () => {
        this.test(who, 'shoe', 'card', 'no card drawn before the time-out');
        return { ok: false, code: 'timeout', detail: 'no card was drawn' };
      },
    );
    // The gate opens for the test a moment later (a command to the shoe): the simulated card waits for it.
    this.d.shoe.whenGateOpen(() => this.d.shoe.simulator()?.drawCard());
    return result;
  }

  setDeviceEnabled(device: string, enabled: boolean, who: string): BackendResult {
    const station = stationOfDevice(device);
    if (station === null || !this.d.billAcceptors.hasStation(station))
      return { ok: false, code: 'no-device', detail: `${device} cannot be enabled or disabled` };
    // Journalled before it takes effect: the journal is what a restart rebuilds the disable from.
    this.test(who, device, enabled ? 'enable' : 'disable', 'done');
    this.d.billAcceptors.setInhibited(station, 'service-disable', !enabled);
    this.changed();
    // Enabled by the technician, but a fault still inhibits it: say so rather than "enabled".
    if (enabled && this.d.billAcceptors.inhibitedBy(station).length > 0) return { ok: true, key: 'service.done.enabledInhibited', values: { device } };
    return { ok: true, key: enabled ? 'service.done.enabled' : 'service.done.disabled', values: { device } };
  }

  reconnectDevice(device: string, who: string): BackendResult {
    const station = stationOfDevice(device);
    const sim = station !== null ? this.d.billAcceptors.simulator(station) : device === 'shoe' ? this.d.shoe.simulator() : null;
    if (!sim) {
      // WIRE: reconnect of real hardware — the drivers reconnect on their own; a forced
      // re-open needs `billAcceptors.reopen(station)` / `shoe.reopen()`.
      return notAvailable('forced reconnect of real hardware');
    }
    sim.unplug();
    sim.replug();
    this.test(who, device, 'reconnect', 'cable unplugged and replugged');
    return { ok: true, key: 'service.done.reconnect', values: { device } };
  }

  retrySync(who: string): BackendResult {
    if (!this.d.sync) return { ok: false, code: 'refused', detail: 'no upstream is configured' };
    this.d.sync.kick();
    this.action([who], 'sync-retry', '');
    return { ok: true, key: 'service.done.syncRetry' };
  }

  async computeProgramHash(who: string): Promise<BackendResult> {
    const now = await programManifest(this.d.program.layout);
    const start = this.d.program.atStart;
    // A different hash is traced to its files: changed, added or removed since the start.
    const diff = manifestDiff(start, now);
    const changed = [...diff.changed, ...diff.added.map((p) => `+${p}`), ...diff.removed.map((p) => `-${p}`)];
    this.latestHash = { hash: now.hash, at: new Date(this.now()).toISOString(), changed: changed.slice(0, 16) };
    const detail = `${now.hash} over ${now.files.length} files (${now.mode})${changed.length ? `; differs from the start in ${changed.length}: ${changed.join(', ')}` : ''}`;
    this.action([who], 'program-hash', detail);
    this.changed();
    return {
      ok: true,
      key: now.hash === start.hash ? 'service.done.hashSame' : 'service.done.hashDiffers',
      values: { hash: now.hash.slice(0, 16), count: changed.length },
    };
  }

  // ── access journal ──

  journalEnter(who: string, staff: string, role: 'technician' | 'supervisor' | 'auditor'): number {
    return this.d.ledger.append({ type: 'service.enter', payload: { who, staff, role } }).entry.seq;
  }

  journalExit(who: string, staff: string, reason: 'sign-out' | 'idle' | 'disconnect' | 'host-stop' | 'confirmed', enterSeq: number): void {
    this.d.ledger.append({ type: 'service.exit', payload: { who, staff, reason, enterSeq } });
  }

  closeOpenSessions(): number {
    const open = openServiceSessions(this.d.ledger);
    for (const s of open) this.d.ledger.append({ type: 'service.exit', payload: { who: s.who, staff: s.staff, reason: 'power-loss', enterSeq: s.seq } });
    if (open.length > 0)
      this.d.log.warn({ sessions: open.map((s) => s.staff) }, 'service sessions left open by the previous run journalled as exited (power-loss)');
    return open.length;
  }

  journalDenied(staff: string, reason: 'bad-pin' | 'locked' | 'unknown' | 'disabled' | 'same-person' | 'role' | 'integrity', lockedUntil?: string): void {
    this.d.ledger.append({ type: 'service.denied', payload: { staff, reason, ...(lockedUntil ? { lockedUntil } : {}) } });
  }

  raiseFault(kind: 'service-sign-in-burst' | 'accounts-integrity', detail: string): void {
    this.d.floor.tilts.raise(kind, { detail });
  }

  private action(by: string[], action: string, detail: string): void {
    const [who, second] = by;
    this.d.ledger.append({
      type: 'service.action',
      payload: { who: who ?? 'unknown', action, ...(second ? { confirmedBy: second } : {}), detail: detail.slice(0, 2000) },
    });
  }

  private test(who: string, device: string, test: 'note' | 'card' | 'enable' | 'disable' | 'reconnect', result: string): void {
    this.d.ledger.append({ type: 'service.test', payload: { who, device, test, result } });
    this.changed();
  }

  private traced(device: string, e: { type: string; serial?: string; firmware?: string }): void {
    if (device === 'shoe' && e.type === 'connected') {
      this.shoeIdentity = { ...(e.serial ? { serial: e.serial } : {}), ...(e.firmware ? { firmware: e.firmware } : {}) };
    }
    const event = eventText(e as { type: string } & Record<string, unknown>).slice(0, 400);
    // ID-003 reports idle at every status poll: a repeat says nothing new and would redraw the page
    // several times a second per acceptor.
    if (this.lastTraced.get(device) === event && e.type === 'idle') return;
    this.lastTraced.set(device, event);
    this.traceRows.push({ ts: new Date(this.now()).toISOString(), device, event });
    if (this.traceRows.length > TRACE_KEEP) this.traceRows.splice(0, this.traceRows.length - TRACE_KEEP);
    this.changed();
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}

/** The unit of a money meter in the exports: minor units of the currency, named. */
function moneyUnit(currency: Currency): string {
  return `${currency} minor units (1/${10 ** minorDigits(currency)})`;
}

/** A CSV cell quoted when it holds a comma or a quote (RFC 4180). */
function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A device event as the trace shows it: its type, then its facts (`escrowed 500 MOP`,
 * `jam where=acceptor`, `connected protocol=id003 firmware=…`), never a JSON dump.
 */
export function eventText(e: { type: string } & Record<string, unknown>): string {
  const parts = [e.type];
  for (const [k, v] of Object.entries(e)) {
    if (k === 'type' || v === undefined) continue;
    if (k === 'note' && typeof v === 'object' && v !== null) {
      const n = v as { denomination?: unknown; currency?: unknown };
      parts.push(`${String(n.denomination)} ${String(n.currency)}`);
    } else if (typeof v !== 'object') parts.push(`${k}=${String(v)}`);
  }
  return parts.join(' ');
}

function stationOfDevice(device: string): number | null {
  const m = /^BA-(\d+)$/.exec(device);
  return m ? Number(m[1]) : null;
}

function toEventRow(r: { seq: number; ts: string; type: string; body: string }): EventRow {
  const payload = (JSON.parse(r.body) as { payload: Record<string, unknown> }).payload;
  const kind = typeof payload.kind === 'string' ? payload.kind : undefined;
  return { seq: r.seq, ts: r.ts, type: r.type, severity: severityOf(r.type, kind), summary: canonicalJson(payload as never).slice(0, 400) };
}

/** The hold's sequence and the reads during it, for the Holds page (the newest 64 reads). */
function holdReads(h: ReturnType<LiveTable['holdState']>): Pick<TableSummary, 'holdReads'> {
  return h ? { holdReads: { shoeSequence: h.shoeSequence, reads: h.readsDuringHold.slice(-64) } } : {};
}

/**
 * A refused configuration change as service mode says it: a rule option refused by the engine's
 * guard in the screen's language (`service.ruleRefusal.<reason>`, the article as a parameter),
 * anything else with the host's own words.
 */
function configRefusal(r: ChangeRefusal): ConfigRefusal {
  const first = r.rules?.[0];
  if (!first) return { detail: r.reason };
  const values = {
    option: first.option.slice(0, 64),
    value: first.value.slice(0, 64),
    ...(first.article ? { article: first.article.slice(0, 128) } : {}),
    ...(first.allowed ? { allowed: first.allowed.slice(0, 128) } : {}),
  };
  return { detail: r.reason, notice: { key: `service.ruleRefusal.${first.reason}${first.article ? '' : '-no-article'}`, values } };
}

/** The hold's card and the corrections its game's text has for it, for the Holds page. */
function holdCorrections(h: ReturnType<LiveTable['holdState']>, held: readonly { card: string }[]): Pick<TableSummary, 'holdCard' | 'corrections' | 'held'> {
  return {
    ...(h?.card ? { holdCard: h.card } : {}),
    ...(h && h.corrections.length > 0
      ? {
          corrections: h.corrections
            .slice(0, 8)
            .map((c) =>
              'rule' in c
                ? { correction: c.correction, article: c.rule.slice(0, 128) }
                : { correction: c.correction, article: c.forbiddenBy.slice(0, 128), forbidden: true },
            ),
        }
      : {}),
    ...(held.length > 0 ? { held: held.slice(0, 8).map((x) => x.card) } : {}),
  };
}

/** A station's own items, or every item with the seated stations' (1–7) first. */
function byStation<T extends { station: number }>(xs: readonly T[], station: number | null): T[] {
  if (station !== null) return xs.filter((x) => x.station === station);
  return [...xs].sort((a, b) => Number(a.station > MAX_STATIONS) - Number(b.station > MAX_STATIONS));
}
