import type { TFunction } from 'i18next';
import type { Currency, Language, RecallRound, ServiceAction, ServicePage, ServiceState } from '../../../../protocol/index.js';
import { BetId, DecisionAction, inhibitingTilt, meterKind, SERVICE_PAGE_SIZE, UNCORRECTABLE, type Uncorrectable } from '../../../../protocol/index.js';
import { formatMoney, INTL_LOCALE, minorDigits } from '../../../../locales/money.js';
import { actionKey } from '../../station/action-words.js';
import {
  draftFields,
  draftValue,
  formatConfigValue,
  formatField,
  isEditableKey,
  setField,
  startDraft,
  toggleNote,
  typedValue,
  type ConfigDraft,
  type ValueFormat,
} from './config-editor.js';

/** A button of a page: its test id, its words, and what pressing it does. */
export interface PageButton {
  id: string;
  label: string;
  press: () => void;
  active?: boolean;
}

/** The screen's own choices on the pages (selected device, filters) — never sent until used. */
export interface PageChoices {
  device: string;
  eventSeverity: 'all' | 'info' | 'warning' | 'critical';
  /** Type groups shown (none: every type). */
  eventGroups: EventGroup[];
  /** A time span back from now, or `custom` between `eventFrom` and `eventTo` (local times typed on the pad). */
  eventSince: 'all' | 'hour' | 'shift' | 'day' | 'week' | 'custom';
  eventFrom: number | null;
  eventTo: number | null;
  /** The type groups' picker is open over the log. */
  eventPicker: boolean;
  recallStation: number | null;
  clearScope: string;
  /** Why a void is the last resort: no correction the text orders could put the round right. */
  voidReason: Uncorrectable;
  /** The configuration value being edited, before it is sent for authorisation. */
  edit: ConfigDraft | null;
  /** A rule option being changed: which (its row among the profile's options) and the value chosen (JSON; null: none yet). */
  ruleEdit: { index: number; value: string | null } | null;
  /** The meters shown: `table`, `station:N` or every scope. */
  meterScope: string;
}

export const INITIAL_CHOICES: PageChoices = {
  device: 'BA-1',
  eventSeverity: 'all',
  eventGroups: [],
  eventSince: 'all',
  eventFrom: null,
  eventTo: null,
  eventPicker: false,
  recallStation: null,
  clearScope: 'table',
  voidReason: 'card-unidentified',
  edit: null,
  ruleEdit: null,
  meterScope: 'table',
};

/** A value asked for on a pad over the page: digits (an amount, seconds) or a reference (letters, digits, `- / .`). */
export interface AskRequest {
  title: string;
  label: string;
  /** `card`: a rank and a suit (`AS`, `TD`). */
  kind: 'digits' | 'reference' | 'card';
  then: (value: string) => void;
}

export interface PageActions {
  act(action: ServiceAction): void;
  open(page: ServicePage['page'], extra?: { offset?: number; station?: number; filter?: Record<string, unknown>; device?: string }): void;
  /** Saves an export of the signed-in session (its token is added). */
  download(path: string): void;
  /** Shows an export as a page of its own (the printable report), to print with the browser. */
  view(path: string): void;
  /** Plays a round of game recall card by card. */
  replay(round: RecallRound): void;
  /** Asks for a value on a pad over the page, then runs the request's `then` with it. */
  ask(request: AskRequest): void;
  choose(update: Partial<PageChoices>): void;
}

/** The event log's type groups: every journal entry type is in one (ledger/entries.ts). */
export const EVENT_GROUPS = {
  service: ['service.enter', 'service.exit', 'service.denied', 'service.account', 'station.credential', 'service.test', 'service.action'],
  round: ['table.input', 'bet.place', 'round.decision', 'round.settle', 'round.void'],
  card: ['card.read', 'misread', 'shoe.change'],
  bill: ['bill.escrow', 'bill.credit', 'bill.return', 'bill.refused', 'cashbox.drop'],
  handpay: ['credit.cancel', 'handpay.request', 'handpay.confirm'],
  tilt: ['tilt.raise', 'tilt.clear'],
  config: ['config.change'],
  door: ['door.open', 'door.close'],
  power: ['power.reset'],
  meter: ['meter.clear'],
  jackpot: ['jackpot.settle', 'jackpot.reset'],
  transfer: ['transfer.out', 'transfer.recall', 'transfer.complete', 'transfer.reverse', 'transfer.in', 'transfer.refuse'],
} as const;
export type EventGroup = keyof typeof EVENT_GROUPS;
const GROUP_NAMES = Object.keys(EVENT_GROUPS) as EventGroup[];
/** How far back each span reaches; a shift is eight hours. */
const SPAN_MS = { hour: 3_600_000, shift: 8 * 3_600_000, day: 86_400_000, week: 7 * 86_400_000 } as const;

/** `YYYYMMDDhhmm` typed on the pad, in the kiosk's local time; null if it is no such minute. */
export function typedTime(digits: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(digits);
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const t = new Date(y, mo - 1, d, h, mi);
  // Date rolls 31 February over into March: a minute that does not exist is refused.
  if (t.getFullYear() !== y || t.getMonth() !== mo - 1 || t.getDate() !== d || t.getHours() !== h || t.getMinutes() !== mi) return null;
  return t.getTime();
}

/** A journal time (UTC) as the kiosk's local `YYYY-MM-DD hh:mm:ss`. */
export function localTime(iso: string | number): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
const cycle = <T>(list: readonly T[], current: T): T => list[(list.indexOf(current) + 1) % list.length] as T;

export function eventFilter(c: PageChoices, now: number): Record<string, unknown> {
  const types = c.eventGroups.flatMap((g) => EVENT_GROUPS[g]);
  const from = c.eventSince === 'custom' ? c.eventFrom : c.eventSince === 'all' ? null : now - SPAN_MS[c.eventSince];
  const to = c.eventSince === 'custom' ? c.eventTo : null;
  return {
    ...(types.length ? { types } : {}),
    ...(c.eventSeverity !== 'all' ? { severity: c.eventSeverity } : {}),
    ...(from !== null ? { from: new Date(from).toISOString() } : {}),
    // A typed minute includes its whole minute.
    ...(to !== null ? { to: new Date(to + 59_999).toISOString() } : {}),
  };
}

/** About what one row holds across the screen: a Chinese character counts twice a Latin letter. */
const ROW_WIDTH = 132;
const weight = (ch: string) => (/[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/.test(ch) ? 2 : 1);

/**
 * A long line as as many rows as it takes (at spaces where it can), the rows after the first
 * indented under it: nothing a page lists is cut off at the screen's edge.
 */
export function wrapRow(text: string, width = ROW_WIDTH): string[] {
  const indent = (/^ */.exec(text)?.[0] ?? '') + '    ';
  const out: string[] = [];
  let rest = text;
  let room = width;
  while (rest.length > 0) {
    let used = 0;
    let cut = 0;
    let lastSpace = -1;
    for (const ch of rest) {
      if (used + weight(ch) > room) break;
      used += weight(ch);
      cut += ch.length;
      if (ch === ' ') lastSpace = cut;
    }
    if (cut >= rest.length) {
      out.push(rest);
      break;
    }
    const at = lastSpace > room / 2 ? lastSpace : cut;
    out.push(rest.slice(0, at).trimEnd());
    rest = indent + rest.slice(at).trimStart();
    room = width;
  }
  return out.length > 0 ? out : [''];
}

/** A line shortened for a list, marked as such (the whole of it is in the export). */
const shorten = (text: string, n = ROW_WIDTH) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/** The rows and buttons of one page, in the screen's language. */
export function pageContent(state: ServiceState, page: ServicePage, t: TFunction, c: PageChoices, a: PageActions): { rows: string[]; buttons: PageButton[] } {
  const language: Language = state.language;
  const currency: Currency = state.session?.currency ?? 'MOP';
  const money = (m: number) => formatMoney(m, currency, language);
  const role = state.session?.role;
  const canAct = role !== undefined && role !== 'auditor';
  const sup = role === 'supervisor';
  const rows: string[] = [];
  const wrap = (text: string) => rows.push(...wrapRow(text));
  const buttons: PageButton[] = [];
  const btn = (id: string, label: string, press: () => void, show = true, active = false) => {
    if (show) buttons.push({ id, label, press, active });
  };
  const tableRows = (tb: Extract<ServicePage, { page: 'status' }>['table']) => {
    rows.push(t('service.field.tableRow', { id: state.tableId, game: t(`game.${tb.game}`), profile: tb.profile }));
    rows.push(
      t('punctuation.joined', {
        first: t('service.field.phase', { phase: t(`service.phase.${tb.phase}`) }),
        second: t('service.field.round', { round: tb.roundId }),
      }),
    );
    rows.push(tb.hold ? t(`hold.${tb.hold}`) : t('service.field.noHold'));
    if (tb.hold && tb.holdReads) {
      // Every card that left the shoe since the hold began must be accounted for by its resolution.
      if (tb.holdReads.shoeSequence !== null) rows.push('  ' + t('service.field.holdSequence', { seq: tb.holdReads.shoeSequence }));
      for (const r of tb.holdReads.reads) {
        rows.push('  ' + t('service.field.holdRead', { card: r.card ?? t('service.field.unreadableCard'), seq: r.shoeSequence ?? '—' }));
      }
      if (tb.holdReads.reads.length > 0) wrap('  ' + t('service.field.holdReadsVoid'));
    }
    if (tb.hold && tb.holdCard) rows.push('  ' + t('service.field.holdCard', { card: tb.holdCard }));
    // The corrections the game's text orders for this hold, each with its article; or the article that keeps the card.
    for (const x of tb.corrections ?? []) {
      const name = t(`service.correction.${x.correction}`);
      wrap('  ' + t(x.forbidden ? 'service.field.correctionForbidden' : 'service.field.correctionOffered', { correction: name, article: x.article }));
    }
    if (tb.hold && (tb.corrections ?? []).every((x) => x.forbidden)) wrap('  ' + t('service.field.noCorrection'));
    if (tb.held?.length) rows.push('  ' + t('service.field.heldCards', { cards: tb.held.join(' ') }));
    rows.push(t('service.field.newBets', { state: t(tb.newBets ? 'service.field.open' : 'service.field.closed') }));
  };
  /** Every device in full, or (`brief`) each on one short row and the one named in full. */
  const deviceRows = (devices: Extract<ServicePage, { page: 'devices' }>['devices'], brief?: string) => {
    for (const d of devices) {
      // The technician's disable and the faults that inhibit the device are told apart: clearing
      // a fault never enables what a technician disabled.
      const faults = (d.inhibitedBy ?? []).flatMap((r) => {
        const kind = inhibitingTilt(r);
        return kind ? [t(`tilt.${kind}`)] : [];
      });
      const state = [
        ...(d.enabled ? [] : [t('service.field.disabledByService')]),
        ...(faults.length ? [t('service.field.inhibitedByFault', { faults })] : []),
      ].reduce((first, second) => t('punctuation.joined', { first, second }), d.state);
      // ID-003 has no serial-number request: say so rather than leave the serial blank.
      const serial = d.serial ?? (d.protocol === 'id003' ? t('service.field.noSerialId003') : '—');
      if (brief !== undefined && d.device !== brief) rows.push(t('service.field.deviceShort', { device: d.device, state }));
      else wrap(t('service.field.device', { device: d.device, state, spec: d.spec, firmware: d.firmware ?? '—', serial, event: d.lastEvent ?? '—' }));
    }
  };
  const syncRows = (s: Extract<ServicePage, { page: 'sync' }>['sync']) => {
    if (!s) return void rows.push(t('service.field.syncOff'));
    rows.push(`${s.upstream}`);
    const lag = t('service.field.entries', { count: s.lagEntries });
    rows.push(t('service.field.syncRow', { state: s.state, acked: s.ackedSeq, head: s.headSeq, lag, seconds: s.lagSeconds }));
    rows.push(t('service.field.queue', { n: s.lagEntries }));
    rows.push(t('service.field.lastSuccess', { at: s.lastSuccessAt ?? '—' }));
    rows.push(t('service.field.lastError', { error: s.lastError ? `${s.lastError} (${s.lastErrorAt ?? ''})` : '—' }));
  };

  switch (page.page) {
    case 'status': {
      tableRows(page.table);
      rows.push(t('service.field.version', { version: page.softwareVersion }), t('service.field.hashStart', { hash: page.programHash.atStart }));
      if (page.programHash.latest) rows.push(t('service.field.hashNow', { hash: page.programHash.latest, at: page.programHash.latestAt ?? '' }));
      if (page.programHash.changed?.length) wrap(t('service.field.hashChanged', { files: page.programHash.changed }));
      rows.push(t('service.field.tilts'));
      if (page.tilts === null) rows.push('  ' + t('service.field.tiltsOff'));
      else if (page.tilts.length === 0) rows.push('  ' + t('service.field.tiltsNone'));
      else {
        for (const x of page.tilts) {
          const kind = t(`tilt.${x.kind}`);
          // Four jams read alike: each row and its button name the station.
          const where = x.station !== undefined ? t('service.field.atStation', { station: x.station }) : t('service.field.atTable');
          // Who clears it (tiltClears.*) and how, for this kind of fault.
          const how = t(`service.tiltHow.${x.kind}`);
          const tilt = t('service.field.tilt', { severity: t(`service.severity.${x.severity}`), kind, clearedBy: t(`tiltClears.${x.clearedBy}`), how });
          wrap('  ' + t('punctuation.joined', { first: where, second: tilt }));
          // A fault a person clears, once its condition has gone; the host checks the role.
          const clear = { kind: 'clear-tilt' as const, tilt: x.kind, ...(x.station !== undefined ? { station: x.station } : {}) };
          const label =
            x.station !== undefined ? t('service.action.clear-tilt-station', { kind, station: x.station }) : t('service.action.clear-tilt', { kind });
          btn(`act-clear-tilt-${x.kind}${x.station ?? ''}`, label, () => a.act(clear), canAct && x.clearable === true);
        }
      }
      rows.push(t('service.field.sync'));
      syncRows(page.sync);
      rows.push(t('service.field.devices'));
      deviceRows(page.devices);
      btn('act-program-hash', t('service.action.program-hash'), () => a.act({ kind: 'program-hash' }), canAct);
      break;
    }
    case 'devices': {
      // The device the host traces is the one on screen; until the host has it, the screen's choice.
      const device = page.device ?? c.device;
      const chosen = page.devices.find((d) => d.device === device);
      // One short row per device and the chosen one in full: its trace stays on the first screen.
      deviceRows(page.devices, device);
      if (chosen?.switchable === false) wrap(t('service.field.notSwitchable', { device: chosen.device }));
      rows.push('', t('service.field.traceOf', { device }));
      if (page.trace.length === 0) rows.push('  ' + t('service.field.noEntries'));
      for (const e of page.trace) wrap(`  ${e.ts.slice(11, 23)} ${e.event}`);
      rows.push('', t('service.field.framesOf', { device }));
      if (page.frames.length === 0) rows.push('  ' + t('service.field.noEntries'));
      for (const f of page.frames) {
        wrap(
          '  ' +
            t('service.field.frameRow', {
              ts: f.ts.slice(11, 23),
              dir: t(`service.field.dir.${f.dir}`),
              hex: f.hex,
              meaning: f.meaning,
              times: f.count > 1 ? t('service.field.times', { n: f.count }) : '',
            }),
        );
      }
      for (const d of page.devices) {
        btn(
          `device-${d.device}`,
          d.device,
          () => {
            a.choose({ device: d.device });
            a.open('devices', { device: d.device });
          },
          true,
          d.device === device,
        );
      }
      const station = Number(/^BA-(\d+)$/.exec(device)?.[1] ?? 0);
      if (canAct) {
        if (station) btn('act-test-note', t('service.action.test-note'), () => a.act({ kind: 'test-note', station }));
        else btn('act-test-card', t('service.action.test-card'), () => a.act({ kind: 'test-card' }));
        if (chosen?.switchable !== false) {
          btn('act-device-disable', t('service.action.device-disable'), () => a.act({ kind: 'device-enable', device, enabled: false }));
          btn('act-device-enable', t('service.action.device-enable'), () => a.act({ kind: 'device-enable', device, enabled: true }));
        }
        btn('act-device-reconnect', t('service.action.device-reconnect'), () => a.act({ kind: 'device-reconnect', device }));
      }
      break;
    }
    case 'meters': {
      const count = new Intl.NumberFormat(INTL_LOCALE[language], { maximumFractionDigits: 0 });
      rows.push(t('service.field.meterUnits', { currency, perUnit: 10 ** minorDigits(currency) }), '');
      for (const s of page.scopes) {
        if (c.meterScope !== 'all' && c.meterScope !== s.scope) continue;
        rows.push(scopeLabel(s.scope, t));
        if (s.meters.length === 0) rows.push('  ' + t('service.report.none'));
        for (const m of s.meters)
          rows.push(
            '  ' + t('service.field.meterRow', { name: meterLabel(m.name, t, money), value: m.unit === 'money' ? money(m.value) : count.format(m.value) }),
          );
      }
      for (const scope of [...page.scopes.map((s) => s.scope), 'all']) {
        btn(
          `meters-${scope.replace(':', '-')}`,
          scope === 'all' ? t('service.action.meterScope', { scope: t('service.action.all') }) : scopeLabel(scope, t),
          () => a.choose({ meterScope: scope }),
          true,
          c.meterScope === scope,
        );
      }
      btn('export-csv', t('service.action.export-csv'), () => a.download('/service/export/meters.csv'));
      btn('export-json', t('service.action.export-json'), () => a.download('/service/export/meters.json'));
      btn('export-print', t('service.action.export-print'), () => a.view(`/service/export/meters.html?lang=${encodeURIComponent(language)}`));
      // The drop count: the station's number, then how many notes of each face value were in its
      // cashbox; a second person confirms, and the host says the difference from its credits.
      const countNotes = (station: number, counted: { note: number; count: number }[]): void => {
        const note = page.notes[counted.length];
        if (note === undefined) return a.act({ kind: 'cashbox-drop', station, notes: counted });
        a.ask({
          title: t('punctuation.joined', { first: t('service.action.cashbox-drop'), second: t('service.action.station', { station }) }),
          label: t('service.action.dropCount', { note: money(note * 100) }),
          kind: 'digits',
          then: (n) => countNotes(station, [...counted, { note, count: Number(n) }]),
        });
      };
      btn(
        'act-cashbox-drop',
        t('service.action.cashbox-drop'),
        () =>
          a.ask({
            title: t('service.action.cashbox-drop'),
            label: t('service.action.dropStation'),
            kind: 'digits',
            then: (n) => countNotes(Number(n), []),
          }),
        sup,
      );
      break;
    }
    case 'recall': {
      if (page.rounds.length === 0) rows.push(t('service.field.noRounds'));
      page.rounds.forEach((r, i) => {
        rows.push(
          t('punctuation.numbered', {
            n: i + 1,
            text: t('service.field.recallRound', { seq: r.seq, round: r.roundId, status: t(`service.recallStatus.${r.status}`), ts: r.ts }),
          }),
        );
        wrap('   ' + t('service.field.cards', { cards: r.cards.map((x) => `${x.card}→${x.to}`).join(' ') }));
        if (r.decisions.length) wrap('   ' + decisionsLine(t, r));
        for (const b of r.bets) wrap('   ' + t('service.field.bet', { station: b.station, seat: b.seat, bet: b.bet, amount: money(b.amount) }));
        for (const l of r.lines) {
          wrap('   ' + t('service.field.line', { seat: l.seat, bet: l.bet, stake: money(l.stake), net: money(l.net), rule: l.rule }));
          // A line settled under a non-default choice names it, with the authorisation reference.
          if (l.choices?.length) wrap('      ' + t('service.field.lineChoices', { choices: l.choices, authorisation: l.authorisation ?? '—' }));
        }
        for (const x of r.corrections ?? [])
          wrap(
            '   ' +
              t('service.field.correctionDone', {
                correction: t(`service.correction.${x.correction}`),
                card: x.card ?? '—',
                article: x.article,
                by: x.confirmedBy,
              }),
          );
        if (r.status === 'void') {
          const why = r.uncorrectable ? t(`service.uncorrectable.${r.uncorrectable}`) : (r.reason ?? '');
          rows.push('   ' + t('service.field.voidReason', { reason: why, by: r.authorisedBy ?? [] }));
          if (r.voidRule) rows.push('   ' + t('service.field.voidRule', { article: r.voidRule }));
        }
        btn(`replay-${i + 1}`, t('service.action.replay', { n: i + 1 }), () => a.replay(r), r.cards.length > 0);
        btn(`evidence-${i + 1}`, t('service.action.export-evidence', { n: i + 1 }), () =>
          a.download(`/service/export/evidence/${encodeURIComponent(r.roundId)}`),
        );
      });
      const station = page.station;
      btn('recall-station', station === null ? t('service.action.allStations') : t('service.action.station', { station }), () => {
        const next = station === null ? 1 : station >= 7 ? null : station + 1;
        a.choose({ recallStation: next });
        a.open('recall', next === null ? {} : { station: next });
      });
      const at = (offset: number) => () => a.open('recall', { offset, ...(station !== null ? { station } : {}) });
      btn('page-prev', t('service.action.prev'), at(Math.max(0, page.offset - SERVICE_PAGE_SIZE.recall)), page.offset > 0);
      btn('page-next', t('service.action.next'), at(page.offset + SERVICE_PAGE_SIZE.recall), page.more);
      break;
    }
    case 'events': {
      eventsHeader(c, t, rows);
      if (page.entries.length === 0) rows.push(t('service.field.noEntries'));
      else rows.push(t('service.field.page', { from: page.offset + 1, to: page.offset + page.entries.length }));
      for (const e of page.entries) rows.push(shorten(`#${e.seq} ${localTime(e.ts)} ${t(`service.severity.${e.severity}`)} ${e.type} ${e.summary}`));
      const refilter = (u: Partial<PageChoices>) => {
        a.choose(u);
        a.open('events', { filter: eventFilter({ ...c, ...u }, Date.now()) });
      };
      if (c.eventPicker) {
        // The type groups, each a toggle; none chosen is every type.
        btn('type-all', t('service.action.allTypes'), () => refilter({ eventGroups: [] }), true, c.eventGroups.length === 0);
        for (const g of GROUP_NAMES) {
          const on = c.eventGroups.includes(g);
          btn(
            `type-${g}`,
            t(`service.eventGroup.${g}`),
            () => refilter({ eventGroups: on ? c.eventGroups.filter((x) => x !== g) : [...c.eventGroups, g] }),
            true,
            on,
          );
        }
        btn('types-done', t('service.action.done'), () => a.choose({ eventPicker: false }));
        break;
      }
      btn(
        'filter-severity',
        t('service.action.severity', { severity: c.eventSeverity === 'all' ? t('service.action.all') : t(`service.severity.${c.eventSeverity}`) }),
        () => refilter({ eventSeverity: cycle(['all', 'info', 'warning', 'critical'] as const, c.eventSeverity) }),
      );
      btn('filter-type', t('service.action.types'), () => a.choose({ eventPicker: true }), true, c.eventGroups.length > 0);
      btn('filter-since', t('service.action.since', { since: t(`service.since.${c.eventSince}`) }), () =>
        refilter({
          eventSince: cycle(['all', 'hour', 'shift', 'day', 'week'] as const, c.eventSince === 'custom' ? 'week' : c.eventSince),
          eventFrom: null,
          eventTo: null,
        }),
      );
      for (const end of ['from', 'to'] as const) {
        const key = end === 'from' ? 'eventFrom' : 'eventTo';
        const value = c[key];
        btn(
          `filter-${end}`,
          t(`service.action.${end}`, { at: value === null ? '—' : localTime(value).slice(0, 16) }),
          () =>
            a.ask({
              title: t('service.pages.events'),
              label: t('service.action.typeTime'),
              kind: 'digits',
              then: (digits) => {
                const at = typedTime(digits);
                if (at === null) return;
                const other = end === 'from' ? c.eventTo : c.eventFrom;
                // From after to would list nothing: the ends are swapped rather than refused.
                const [from, to] = end === 'from' ? [at, other] : [other, at];
                const ordered = from !== null && to !== null && from > to ? { eventFrom: to, eventTo: from } : { eventFrom: from, eventTo: to };
                refilter({ eventSince: 'custom', ...ordered });
              },
            }),
          true,
          value !== null,
        );
      }
      // The host's page holds forty entries; the screen scrolls through them, then asks for the next forty.
      const at = (offset: number) => () => a.open('events', { offset, filter: page.filter });
      btn('page-prev', t('service.action.prev'), at(Math.max(0, page.offset - SERVICE_PAGE_SIZE.events)), page.offset > 0);
      btn('page-next', t('service.action.next'), at(page.offset + SERVICE_PAGE_SIZE.events), page.more);
      break;
    }
    case 'config': {
      configPage(page, c, a, { money, minorPerUnit: 10 ** minorDigits(currency), t }, sup, rows, btn);
      break;
    }
    case 'holds': {
      tableRows(page.table);
      const roundId = page.table.roundId;
      const tb = page.table;
      // A dealing error seen at the table (a card exposed, one laid at another hand) stops the round first.
      btn('act-dealing-error', t('service.action.dealing-error'), () => a.act({ kind: 'dealing-error', roundId }), sup && tb.phase === 'dealing');
      for (const x of tb.corrections ?? []) {
        if (x.forbidden) continue;
        btn(
          `act-correct-${x.correction}`,
          t('service.action.correctOne', { correction: t(`service.correction.${x.correction}`) }),
          () => a.act({ kind: 'correct', roundId, correction: x.correction }),
          sup,
        );
      }
      // The last resort, saying why no correction could put the round right.
      btn(
        'void-reason',
        t('service.action.reason', { reason: t(`service.uncorrectable.${c.voidReason}`) }),
        () => a.choose({ voidReason: cycle(UNCORRECTABLE, c.voidReason) }),
        sup,
      );
      btn(
        'act-void-round',
        t('service.action.void-round'),
        () => a.act({ kind: 'void-round', roundId, reason: c.voidReason, uncorrectable: c.voidReason }),
        sup,
      );
      // A rank row and a suit row on a pad: two touches, then the second person confirms.
      btn(
        'act-enter-card',
        t('service.action.enter-card'),
        () =>
          a.ask({
            title: t('punctuation.joined', { first: t('service.action.enter-card'), second: t('service.field.round', { round: roundId }) }),
            label: t('service.action.cardToEnter'),
            kind: 'card',
            then: (card) => a.act({ kind: 'enter-card', roundId, card }),
          }),
        sup,
      );
      btn(
        'act-table-open',
        t(page.closed ? 'service.action.table-open' : 'service.action.table-close'),
        () => a.act({ kind: 'table-open', open: page.closed }),
        sup,
      );
      btn('act-new-shoe', t('service.action.new-shoe'), () => a.act({ kind: 'new-shoe' }), sup);
      btn(
        'clear-scope',
        t('service.action.scope', { scope: c.clearScope }),
        () =>
          a.choose({ clearScope: cycle(['table', 'station:1', 'station:2', 'station:3', 'station:4', 'station:5', 'station:6', 'station:7'], c.clearScope) }),
        sup,
      );
      btn(
        'act-meter-clear',
        t('service.action.meter-clear'),
        () =>
          a.ask({
            title: t('service.action.meter-clear'),
            label: t('service.action.authorisation'),
            kind: 'reference',
            then: (n) => a.act({ kind: 'meter-clear', scope: c.clearScope, authorisation: n, reason: 'meter clear in service mode' }),
          }),
        sup,
      );
      break;
    }
    case 'cashout': {
      rows.push(t('service.field.pending'));
      if (page.pending === null) rows.push('  ' + t('service.field.pendingOff'));
      else if (page.pending.length === 0) rows.push('  ' + t('service.field.pendingNone'));
      else
        page.pending.forEach((p, i) => {
          const row = t('service.field.pendingRow', { station: p.station, amount: money(p.amount), two: p.twoPerson ? t('service.field.twoPerson') : '' });
          rows.push('  ' + t('punctuation.numbered', { n: i + 1, text: row }));
          btn(
            `handpay-${i + 1}`,
            t('service.action.handpay-confirm-row', { n: i + 1 }),
            () => a.act({ kind: 'handpay-confirm', station: p.station, requestTxId: p.requestTxId }),
            canAct,
          );
        });
      rows.push(t('service.field.twoPersonAbove', { amount: money(page.twoPersonAbove) }), '', t('service.field.cancelledCredits'));
      for (const e of page.cancelled) rows.push(shorten(`  #${e.seq} ${e.ts.slice(0, 19)} ${e.summary}`));
      break;
    }
    case 'sync': {
      syncRows(page.sync);
      btn('act-sync-retry', t('service.action.sync-retry'), () => a.act({ kind: 'sync-retry' }), canAct);
      break;
    }
    case 'stations': {
      // The table's LAN address and certificate (what an enrolment pins), then every enrolled station
      // and the next one to enrol; a new enrolment file is downloaded once, by the session that made it.
      rows.push(page.lan ? t('service.field.lan', { lan: page.lan }) : t('service.field.noRemote'));
      if (page.fingerprint) wrap(t('service.field.fingerprint', { fingerprint: page.fingerprint }));
      const enrolled = page.stations.filter((x) => x.enrolled || x.download);
      rows.push(t('service.field.enrolledCount', { n: page.stations.filter((x) => x.enrolled).length, of: page.stations.length }));
      for (const x of enrolled.slice(0, 16))
        rows.push(
          '  ' +
            t('service.field.stationRow', {
              station: x.station,
              since: x.enrolledAt ? localTime(x.enrolledAt) : '—',
              screen: t(x.screen ? 'service.field.connected' : 'service.field.notConnected'),
              acceptor: t(x.acceptor ? 'service.field.connected' : 'service.field.notConnected'),
            }),
        );
      const next = page.stations.find((x) => !x.enrolled);
      if (next)
        btn(
          `station-enrol-${next.station}`,
          `${t('service.action.station-enrol')} ${next.station}`,
          () => a.act({ kind: 'station-enrol', station: next.station }),
          sup,
        );
      for (const x of enrolled.slice(0, 6)) {
        if (x.download)
          btn(
            `station-download-${x.station}`,
            `${t('service.action.station-download')} ${x.station}`,
            () => a.download(`/service/export/enrolment/${x.station}`),
            sup,
          );
        else if (x.enrolled)
          btn(
            `station-revoke-${x.station}`,
            `${t('service.action.station-revoke')} ${x.station}`,
            () => a.act({ kind: 'station-revoke', station: x.station }),
            sup,
          );
      }
      break;
    }
    case 'jackpot': {
      // Portugal's progressive (rules 38–50): the pools, their movements, the last 25 awards; a
      // level set by two people on the authority's reference (typed in whole units of the currency).
      if (page.pools === null) {
        rows.push(t('service.jackpot.none'));
        break;
      }
      rows.push(t('service.jackpot.program', { reference: page.reference ?? '—', stake: page.stake === null ? '—' : money(page.stake) }));
      if (page.stopped) rows.push(t('jackpot.stopped'));
      for (const p of page.pools) rows.push('  ' + t('service.jackpot.pool', { level: p.level, pool: money(p.pool), held: money(p.held) }));
      rows.push(t('service.jackpot.history'));
      if (page.history.length === 0) rows.push('  ' + t('service.jackpot.nothing'));
      for (const m of page.history.slice(0, 12))
        rows.push(
          '  ' +
            t(m.roundId === null ? 'service.jackpot.resetRow' : 'service.jackpot.moveRow', {
              at: localTime(m.ts).slice(0, 16),
              round: m.roundId ?? '',
              level: m.level,
              before: money(m.before),
              contribution: money(m.contribution),
              award: money(m.award),
              seed: money(m.seed),
              after: money(m.after),
            }),
        );
      rows.push(t('service.jackpot.hits'));
      if (page.hits.length === 0) rows.push('  ' + t('service.jackpot.nothing'));
      for (const h of page.hits)
        rows.push(
          '  ' +
            t('service.jackpot.hitRow', {
              at: localTime(h.ts).slice(0, 16),
              round: h.roundId,
              station: h.station,
              seat: h.seat,
              combination: t(`jackpot.combination.${h.combination}`),
              level: h.level,
              amount: money(h.amount),
            }),
        );
      for (const p of page.pools)
        btn(
          `act-jackpot-reset-${p.level}`,
          t('service.action.jackpot-reset', { level: p.level }),
          () =>
            a.ask({
              title: t('service.action.jackpot-reset', { level: p.level }),
              label: t('service.jackpot.typeAmount', { currency }),
              kind: 'digits',
              then: (digits) => {
                const to = Number(digits) * 10 ** minorDigits(currency);
                if (!Number.isSafeInteger(to) || to <= 0) return;
                a.ask({
                  title: t('service.action.jackpot-reset', { level: p.level }),
                  label: t('service.action.authorisation'),
                  kind: 'reference',
                  then: (authorisation) => a.act({ kind: 'jackpot-reset', level: p.level, to, authorisation }),
                });
              },
            }),
          sup,
        );
      break;
    }
  }
  return { rows, buttons };
}

type ConfigPageData = Extract<ServicePage, { page: 'config' }>;
type Btn = (id: string, label: string, press: () => void, show?: boolean, active?: boolean) => void;

/** `table` → the table, `station:3` → station 3, in the screen's language. */
export function scopeLabel(scope: string, t: TFunction): string {
  return scope === 'table' ? t('service.field.atTable') : t('service.field.atStation', { station: scope.split(':')[1] ?? scope });
}

/** A meter's GLI/Macau name in the screen's language; `billsIn.50000` names its note in money. */
export function meterLabel(name: string, t: TFunction, money: (minor: number) => string): string {
  const meter = meterKind(name);
  if (!meter) return t('service.meter.unknown', { name });
  if (meter.level !== undefined) return t(`service.meter.${meter.base}`, { level: meter.level });
  return meter.note !== undefined ? t(`service.meter.${meter.base}`, { note: money(meter.note) }) : t(`service.meter.${meter.base}`);
}

/** What the log is filtered by, above the entries. */
function eventsHeader(c: PageChoices, t: TFunction, rows: string[]): void {
  const severity = c.eventSeverity === 'all' ? t('service.action.all') : t(`service.severity.${c.eventSeverity}`);
  const types = c.eventGroups.length ? c.eventGroups.map((g) => t(`service.eventGroup.${g}`)) : [t('service.action.allTypes')];
  const when =
    c.eventSince === 'custom'
      ? t('service.field.between', {
          from: c.eventFrom === null ? '…' : localTime(c.eventFrom).slice(0, 16),
          to: c.eventTo === null ? '…' : localTime(c.eventTo).slice(0, 16),
        })
      : t(`service.since.${c.eventSince}`);
  rows.push(...wrapRow(t('service.field.filterNow', { severity, types, when })));
}

/** The configuration keys with words of their own (`service.configKey.<key>`); rule options keep their own names. */
const WORDED_CONFIG_KEYS = [
  'tableId',
  'game',
  'profile',
  'currency',
  'limits',
  'betLimits',
  'denominations',
  'seats',
  'timings',
  'defaultLanguage',
  'shoe',
  'upstream',
  'handpayTwoPersonAbove',
  'roundMax',
  'profileOptions',
  'profileAuthorisation',
] as const;

/** A configuration key's name in the screen's language; rule options keep their own names. */
export function configKeyLabel(key: string, t: TFunction): string {
  const station = /^station\.(\d+)$/.exec(key);
  if (station) return t('service.field.atStation', { station: station[1] });
  const worded = WORDED_CONFIG_KEYS.find((k) => k === key);
  return worded ? t(`service.configKey.${worded}`) : key;
}

/** The fields the editor asks for (`service.config.field.<field>`), alone or after a bet (`banker.min`). */
const EDITOR_FIELDS = ['min', 'max', 'amount', 'bettingMs', 'decisionMs', 'resultsMs'] as const;

function fieldLabel(name: string, t: TFunction): string {
  const cut = name.lastIndexOf('.');
  const field = EDITOR_FIELDS.find((f) => f === name.slice(cut + 1));
  if (!field) return name;
  if (cut < 0) return t(`service.config.field.${field}`);
  const bet = name.slice(0, cut);
  const known = BetId.safeParse(bet);
  return t('service.config.betField', { bet: known.success ? t(`bet.${known.data}`) : bet, field: t(`service.config.field.${field}`) });
}

/**
 * The Configuration page: every item with its article, the changes waiting for the round to end
 * and the latest journalled ones (before → after, who, the regulator's reference); a supervisor
 * edits a changeable key field by field, then enters the reference, then a second person confirms.
 */
function configPage(page: ConfigPageData, c: PageChoices, a: PageActions, fmt: ValueFormat, sup: boolean, rows: string[], btn: Btn): void {
  const { t, money } = fmt;
  const ruleItems = page.items.filter((i) => i.key.startsWith('rules.') && i.optionClass !== undefined);
  if (c.ruleEdit && sup) return ruleEditor(page, ruleItems, c.ruleEdit, a, fmt, rows, btn);
  const edit = c.edit;
  if (edit && sup) {
    const item = page.items.find((i) => i.key === edit.key);
    rows.push(t('service.config.editing', { key: configKeyLabel(edit.key, t) }));
    rows.push(...wrapRow('  ' + t('service.config.now', { value: formatConfigValue(edit.key, item?.value ?? 'null', fmt) })));
    const v = draftValue(edit);
    rows.push(
      ...wrapRow(
        '  ' +
          (v.ok
            ? t('service.config.new', { value: formatConfigValue(edit.key, v.value, fmt) })
            : t(`service.config.problem.${v.problem.key}`, { ...(v.problem.values ?? {}), field: fieldLabel(String(v.problem.values?.field ?? ''), t) })),
      ),
    );
    rows.push('', ...wrapRow(t('service.config.howItApplies')));
    if (edit.key === 'betLimits') rows.push(t('service.config.betLimitsHint'));
    if (edit.key === 'denominations') rows.push(t('service.config.notesHint'));
    for (const f of draftFields(edit)) {
      btn(`field-${f.name}`, t('punctuation.labelled', { label: fieldLabel(f.name, t), value: formatField(f, fmt) }), () =>
        a.ask({
          title: t('punctuation.joined', { first: configKeyLabel(edit.key, t), second: fieldLabel(f.name, t) }),
          label: t(f.unit === 'money' ? 'service.config.typeAmount' : 'service.config.typeSeconds'),
          kind: 'digits',
          then: (typed) => {
            // In the per-bet limits, 0 takes the bet back to the table's limits.
            if (edit.key === 'betLimits' && /^0+$/.test(typed)) return a.choose({ edit: setField(edit, f.name, null) });
            const n = typedValue(f, typed, fmt.minorPerUnit);
            if (n !== null) a.choose({ edit: setField(edit, f.name, n) });
          },
        }),
      );
    }
    if (edit.key === 'denominations') {
      for (const n of page.notes) btn(`note-${n}`, money(n * fmt.minorPerUnit), () => a.choose({ edit: toggleNote(edit, n) }), true, edit.notes.includes(n));
    }
    if (v.ok) {
      btn('config-authorise', t('service.config.authorise'), () =>
        a.ask({
          title: t('punctuation.joined', { first: t('service.action.config-change'), second: configKeyLabel(edit.key, t) }),
          label: t('service.action.authorisation'),
          kind: 'reference',
          then: (authorisation) => {
            a.choose({ edit: null });
            a.act({ kind: 'config-change', key: edit.key, value: v.value, authorisation });
          },
        }),
      );
    }
    btn('config-cancel', t('service.confirm.cancel'), () => a.choose({ edit: null }));
    return;
  }
  if (!page.items.some((i) => i.editable)) rows.push(t('service.field.configReadOnly'), '');
  if (page.queued.length > 0) {
    rows.push(t('service.config.queued'));
    for (const q of page.queued) rows.push(...wrapRow(`  #${q.seq} ${configKeyLabel(q.key, t)} → ${formatConfigValue(q.key, q.after, fmt)}`));
  }
  // The latest journalled changes first: after a change, its before and after are on screen.
  if (page.changes.length > 0) {
    rows.push(t('service.config.changes'));
    for (const ch of page.changes) {
      rows.push(
        ...wrapRow(
          '  ' +
            t('service.config.changeRow', {
              seq: ch.seq,
              ts: ch.ts.slice(0, 19).replace('T', ' '),
              key: configKeyLabel(ch.key, t),
              before: formatConfigValue(ch.key, ch.before, fmt),
              after: formatConfigValue(ch.key, ch.after, fmt),
              who: ch.witness ? `${ch.who} / ${ch.witness}` : ch.who,
              authorisation: ch.authorisation,
            }),
        ),
      );
    }
    rows.push('');
  }
  if ((page.atRestart ?? []).length > 0) {
    rows.push(t('service.config.atRestart'));
    for (const q of page.atRestart ?? []) rows.push(...wrapRow(`  #${q.seq} ${configKeyLabel(q.key, t)} → ${q.after}`));
  }
  for (const item of page.items) {
    const value = formatConfigValue(item.key, item.value, fmt);
    // The option's class, its article and a non-default choice, each after the language's separator.
    const parts = [
      t('service.field.config', { key: configKeyLabel(item.key, t), value }),
      ...(item.optionClass ? [t(`service.optionClass.${item.optionClass}`)] : []),
      ...(item.article ? [item.article] : []),
      ...(item.choice ? [t('service.config.chosen', { value: item.default ?? '' })] : []),
    ];
    const [head = '', ...tail] = parts;
    rows.push(...wrapRow(tail.reduce((first, second) => t('punctuation.joined', { first, second }), head)));
    if (item.editable && isEditableKey(item.key)) {
      const key = item.key;
      btn(`edit-${key}`, t('service.config.edit', { key: configKeyLabel(key, t) }), () => a.choose({ edit: startDraft(key, item.value, page) }), sup);
    }
  }
  btn('edit-rules', t('service.config.editRules'), () => a.choose({ ruleEdit: { index: 0, value: null } }), sup && ruleItems.some((i) => i.editable));
}

type ConfigItemData = ConfigPageData['items'][number];

/**
 * The rule options' editor: every option of the profile numbered, with its value, class and
 * article; the supervisor picks one by its number, chooses a value of its type (any: the host's
 * guard refuses what the text fixes, naming the article), then enters the regulator's reference.
 * A change takes effect at the next start.
 */
function ruleEditor(
  page: ConfigPageData,
  items: readonly ConfigItemData[],
  re: { index: number; value: string | null },
  a: PageActions,
  fmt: ValueFormat,
  rows: string[],
  btn: Btn,
): void {
  const { t } = fmt;
  const item = items[re.index];
  rows.push(t('service.config.editingRules'));
  items.forEach((i, n) => {
    const parts = [`${n === re.index ? '▶' : ' '} ${n + 1}. ${i.key.slice('rules.'.length)} = ${i.value}`];
    if (i.optionClass) parts.push(t(`service.optionClass.${i.optionClass}`));
    if (i.article) parts.push(i.article);
    const [head = '', ...tail] = parts;
    rows.push(...wrapRow(tail.reduce((first, second) => t('punctuation.joined', { first, second }), head)));
  });
  if (item) {
    const option = item.key.slice('rules.'.length);
    rows.push('', ...wrapRow(t('service.config.ruleSelected', { option, value: item.value, default: item.default ?? '—' })));
    if (re.value !== null) rows.push(...wrapRow(t('service.config.new', { value: re.value })));
    const values = item.values ?? [];
    if (values.length > 0) {
      const now = re.value ?? toJson(item.value);
      const next = values[(values.indexOf(now) + 1) % values.length] ?? values[0] ?? now;
      btn('rule-value', t('service.config.ruleValue', { value: re.value ?? '—' }), () => a.choose({ ruleEdit: { ...re, value: next } }));
    } else {
      btn('rule-typed', t('service.config.ruleTyped'), () =>
        a.ask({
          title: option,
          label: t('service.config.typeNumber'),
          kind: 'digits',
          then: (typed) => a.choose({ ruleEdit: { ...re, value: String(Number(typed)) } }),
        }),
      );
    }
    if (re.value !== null) {
      const value = re.value;
      btn('config-authorise', t('service.config.authorise'), () =>
        a.ask({
          title: `${t('service.action.config-change')} · ${option}`,
          label: t('service.action.authorisation'),
          kind: 'reference',
          then: (authorisation) => {
            a.choose({ ruleEdit: null });
            a.act({ kind: 'config-change', key: 'profileOptions', value: withOption(page, option, value, item.default), authorisation });
          },
        }),
      );
    }
  }
  btn('rule-pick', t('service.config.rulePick'), () =>
    a.ask({
      title: t('service.config.editingRules'),
      label: t('service.config.typeNumber'),
      kind: 'digits',
      then: (typed) => {
        const n = Number(typed) - 1;
        if (Number.isInteger(n) && n >= 0 && n < items.length) a.choose({ ruleEdit: { index: n, value: null } });
      },
    }),
  );
  btn('config-cancel', t('service.confirm.cancel'), () => a.choose({ ruleEdit: null }));
}

/** The table's rule options with one changed (an option back at its default is dropped), as the JSON the host takes. */
export function withOption(page: ConfigPageData, option: string, value: string, dflt: string | undefined): string {
  const current = page.items.find((i) => i.key === 'profileOptions')?.value ?? '{}';
  let options: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(current);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) options = { ...parsed };
  } catch {
    // The host sent the options as JSON; anything else starts from none.
  }
  const v: unknown = JSON.parse(value);
  if (dflt !== undefined && value === toJson(dflt)) delete options[option];
  else options[option] = v;
  return JSON.stringify(options);
}

/** A config item's text as JSON (strings come as they are, the rest as JSON already). */
export function toJson(text: string): string {
  try {
    JSON.parse(text);
    return text;
  } catch {
    return JSON.stringify(text);
  }
}

/** What a two-person action will do, as the second person must read it before confirming. */
export function actionSummary(action: ServiceAction, page: ServicePage | undefined, fmt: ValueFormat): string {
  if (action.kind === 'config-change') {
    const before = page?.page === 'config' ? page.items.find((i) => i.key === action.key)?.value : undefined;
    return fmt.t('service.config.confirmSummary', {
      key: configKeyLabel(action.key, fmt.t),
      before: before === undefined ? '—' : formatConfigValue(action.key, before, fmt),
      after: formatConfigValue(action.key, action.value, fmt),
      authorisation: action.authorisation,
    });
  }
  const joined = (first: string, second: string) => fmt.t('punctuation.joined', { first, second });
  if (action.kind === 'correct') return joined(action.roundId, fmt.t(`service.correction.${action.correction}`));
  if (action.kind === 'void-round')
    return joined(action.roundId, action.uncorrectable ? fmt.t(`service.uncorrectable.${action.uncorrectable}`) : action.reason);
  // The count the second person confirms: the station, then each face value and how many were counted.
  if (action.kind === 'cashbox-drop')
    return action.notes.reduce(
      (first, n) => joined(first, fmt.t('punctuation.labelled', { label: fmt.money(n.note * fmt.minorPerUnit), value: n.count })),
      fmt.t('service.action.station', { station: action.station }),
    );
  const { kind: _kind, ...rest } = action;
  const [head = '', ...tail] = Object.values(rest).map(String);
  return tail.reduce((first, second) => fmt.t('punctuation.joined', { first, second }), head);
}

/**
 * A round's decisions in the screen's language, as the stations word them: `seat:action`, `*` for
 * a default taken on timeout.
 */
export function decisionsLine(t: TFunction, r: Pick<RecallRound, 'actionWords' | 'decisions'>): string {
  return t('service.field.decisions', {
    decisions: r.decisions
      .map((d) => {
        // A decision the ledger holds under a name this version does not know shows as recorded.
        const action = DecisionAction.safeParse(d.action);
        return `${d.seat}:${action.success ? t(actionKey(r.actionWords, action.data)) : d.action}${d.auto ? '*' : ''}`;
      })
      .join(' '),
  });
}
