import { z } from 'zod';
import { ApiError, type Alarm } from './api.js';
import { h } from './dom.js';
import { failureWords } from './failure.js';
import { listWords, type Words } from './i18n.js';

const KINDS = [
  'divergence',
  'bad-chain',
  'bad-entry',
  'foreign-stream',
  'transfer-open-too-long',
  'transfer-disagreement',
  'table-offline',
  'currency-changed',
  'currency-mismatch',
  'kiosk-integrity',
  'bad-receipt',
  'config-order',
  'config-answer-stray',
  'ticket-refused',
  'ticket-refusals',
  'transfer-peer-alarm',
  'transfer-entry-unreadable',
  'ticket-entry-unreadable',
  'meter-unreadable',
  'ticket-disagreement',
  'ticket-foreign-issuer',
  'ticket-foreign-terminal',
  'backoffice-setting-unreadable',
  'entry-misdated',
  'supervisor-account',
  'peer-credential',
  'station-credential',
] as const;
type Kind = (typeof KINDS)[number];
const isKind = (k: string): k is Kind => KINDS.some((x) => x === k);

export function kindWord(t: Words['t'], kind: string): string {
  return isKind(kind) ? t(`backoffice.alarms.kinds.${kind}`) : t('backoffice.alarms.kinds.other', { kind });
}

const Code = z.object({ code: z.string() });
const Changed = z.object({ before: Code, after: Code });
const Mismatch = z.object({ held: z.string(), journal: z.string(), seq: z.number(), type: z.string() });

const Fault = z.object({ seq: z.number(), fault: z.string(), count: z.number().optional() });
const Refused = z.object({ validation: z.string(), station: z.number(), reason: z.string() });
const Stray = z.object({ seq: z.number(), order: z.string() });
const Misdated = z.object({ entries: z.number(), firstSeq: z.number(), lastSeq: z.number() });
const Unreadable = z.object({ seqs: z.array(z.number()).min(1), entries: z.number() });

/** What a table's fault or a refused ticket says in codes and numbers (the same in every language): the entry and the fault, the ticket and why. */
function tableDetail(a: Alarm): string {
  const fault = a.kind === 'kiosk-integrity' || a.kind === 'bad-receipt' || a.kind === 'config-order' ? Fault.safeParse(a.detail) : null;
  // A batch's faults of one kind are one alarm: the first's seq, and how many (upstream/ingest/kiosk-faults.ts).
  if (fault?.success) return ` (#${fault.data.seq} ${fault.data.fault}${fault.data.count === undefined ? '' : ` ×${fault.data.count}`})`;
  const refused = a.kind === 'ticket-refused' ? Refused.safeParse(a.detail) : null;
  if (refused?.success) return ` (${refused.data.validation} @${refused.data.station}: ${refused.data.reason})`;
  const stray = a.kind === 'config-answer-stray' ? Stray.safeParse(a.detail) : null;
  if (stray?.success) return ` (#${stray.data.seq} → ${stray.data.order})`;
  // A batch's misdated entries are one alarm: the first and last seq, and how many (upstream/ingest/misdated.ts).
  const misdated = a.kind === 'entry-misdated' ? Misdated.safeParse(a.detail) : null;
  if (misdated?.success) return ` (#${misdated.data.firstSeq}–#${misdated.data.lastSeq} ×${misdated.data.entries})`;
  // A batch's entries with meters no ledger writes are one alarm: the first seq, and how many (upstream/ingest/store.ts).
  const meters = a.kind === 'meter-unreadable' ? Unreadable.safeParse(a.detail) : null;
  if (meters?.success) return ` (#${meters.data.seqs[0]} ×${meters.data.entries})`;
  return '';
}

const Made = z.object({ seq: z.number(), staff: z.string(), name: z.string(), action: z.string(), by: z.string(), count: z.number().optional() });
const Adopted = z.object({ seq: z.number(), action: z.literal('adopt'), count: z.number(), staff: z.array(z.string()) });
const ACCOUNT_ACTIONS = ['add', 'role', 'enable', 'reset-pin', 'unlock'] as const;
const isAccountAction = (x: string): x is (typeof ACCOUNT_ACTIONS)[number] => ACCOUNT_ACTIONS.some((k) => k === x);

/**
 * A supervisor account a table's journal made (upstream/ingest/supervisor-accounts.ts): who, how and
 * by whom, ×count when a batch held more than the alarms each; or the adoption's one alarm, how
 * many supervisors and their staff numbers (the first 100 listed; … when there were more).
 */
export function supervisorDetail(w: Pick<Words, 't' | 'language'>, a: Pick<Alarm, 'kind' | 'detail'>): string {
  if (a.kind !== 'supervisor-account') return '';
  const adopted = Adopted.safeParse(a.detail);
  if (adopted.success) {
    const { seq, count, staff } = adopted.data;
    const listed = listWords(w.language, staff.length < count ? [...staff, '…'] : staff);
    return ` (${w.t('backoffice.alarms.supervisorsAdopted', { seq, count, staff: listed })})`;
  }
  const made = Made.safeParse(a.detail);
  if (!made.success) return '';
  const { seq, staff, name, by, count } = made.data;
  const code = made.data.action;
  const action = isAccountAction(code) ? w.t(`backoffice.alarms.accountActions.${code}`) : code;
  return ` (${w.t('backoffice.alarms.supervisorAccount', { seq, staff, name, action, by })}${count === undefined ? '' : ` ×${count}`})`;
}

const CredentialChanged = z.object({ seq: z.number(), action: z.string(), by: z.array(z.string()), count: z.number().optional() });
const PeerChanged = CredentialChanged.extend({ table: z.string() });
const StationChanged = CredentialChanged.extend({ station: z.number() });
const CredentialsAdopted = z.object({
  seq: z.number(),
  action: z.literal('adopt'),
  count: z.number(),
  tables: z.array(z.string()).optional(),
  stations: z.array(z.number()).optional(),
  late: z.literal(true).optional(),
});
const PEER_ACTIONS = ['enrol', 'replace', 'issue', 'withdraw', 'revoke'] as const;
const STATION_ACTIONS = ['enrol', 'replace', 'revoke'] as const;
const isOf = <T extends string>(list: readonly T[], x: string): x is T => list.some((k) => k === x);

/** The adoption's one alarm of a credential kind: how many, the first ones listed (… when there were more), and whether it came late. */
function credentialsAdopted(w: Pick<Words, 't' | 'language'>, a: Pick<Alarm, 'kind' | 'detail'>): string | null {
  const adopted = CredentialsAdopted.safeParse(a.detail);
  const peers = a.kind === 'peer-credential';
  const found = adopted.success ? (peers ? adopted.data.tables : adopted.data.stations?.map(String)) : undefined;
  if (!adopted.success || !found) return null;
  const { seq, count, late } = adopted.data;
  const listed = listWords(w.language, found.length < count ? [...found, '…'] : found);
  const said = peers
    ? w.t('backoffice.alarms.peersAdopted', { seq, count, tables: listed })
    : w.t('backoffice.alarms.stationsAdopted', { seq, count, stations: listed });
  // The catalogue's words start with their language's separator.
  return ` (${said}${late ? w.t('backoffice.alarms.adoptedLate') : ''})`;
}

/**
 * A change of who may talk to a table, as its journal says (upstream/ingest/credential-changes.ts):
 * the peer table or the station, what was done and by whom (both people), ×count when a batch held
 * more than the alarms each; or the adoption's one alarm.
 */
export function credentialDetail(w: Pick<Words, 't' | 'language'>, a: Pick<Alarm, 'kind' | 'detail'>): string {
  if (a.kind !== 'peer-credential' && a.kind !== 'station-credential') return '';
  const adopted = credentialsAdopted(w, a);
  if (adopted !== null) return adopted;
  const times = (count: number | undefined) => (count === undefined ? '' : ` ×${count}`);
  if (a.kind === 'peer-credential') {
    const c = PeerChanged.safeParse(a.detail);
    if (!c.success) return '';
    const { seq, table, by, count } = c.data;
    const action = isOf(PEER_ACTIONS, c.data.action) ? w.t(`backoffice.alarms.peerActions.${c.data.action}`) : c.data.action;
    return ` (${w.t('backoffice.alarms.peerCredential', { seq, table, action, by: listWords(w.language, by) })}${times(count)})`;
  }
  const c = StationChanged.safeParse(a.detail);
  if (!c.success) return '';
  const { seq, station, by, count } = c.data;
  const action = isOf(STATION_ACTIONS, c.data.action) ? w.t(`backoffice.alarms.stationActions.${c.data.action}`) : c.data.action;
  return ` (${w.t('backoffice.alarms.stationCredential', { seq, station, action, by: listWords(w.language, by) })}${times(count)})`;
}

const Repeated = z.object({ repeated: z.object({ count: z.number().int().positive(), lastAt: z.string() }) });

/**
 * A refusal its table repeated after its alarm was raised (upstream/alarm.ts `raiseRepeatableAlarm`:
 * within the hour, before anybody acknowledged it): how many times, and the last when. Without it
 * an alarm repeated 300 times looked like one (a review of the change).
 */
export function repeatedDetail(w: Pick<Words, 't' | 'time'>, a: Pick<Alarm, 'detail'>): string {
  const r = Repeated.safeParse(a.detail);
  return r.success ? ` — ${w.t('backoffice.alarms.repeated', { count: r.data.repeated.count, at: w.time(r.data.repeated.lastAt) })}` : '';
}

/** What a currency alarm says in codes and numbers (the same in every language): which currency became which. */
function currencyDetail(a: Alarm): string {
  const changed = a.kind === 'currency-changed' ? Changed.safeParse(a.detail) : null;
  if (changed?.success) return ` (${changed.data.before.code} → ${changed.data.after.code})`;
  const mismatch = a.kind === 'currency-mismatch' ? Mismatch.safeParse(a.detail) : null;
  if (mismatch?.success) return ` (${mismatch.data.journal} ≠ ${mismatch.data.held}: #${mismatch.data.seq} ${mismatch.data.type})`;
  return '';
}

/** The list holds a table's newest alarms only: how many more, on the table's own page. */
function moreOf(t: Words['t'], terminal: string, more: number): HTMLElement {
  return h('p', { class: 'more' }, h('a', { href: `#/table/${encodeURIComponent(terminal)}` }, t('backoffice.alarms.more', { count: more, terminal })));
}

/**
 * Alarms with who acknowledged each, when and with what note; a form to add one's own note for a
 * role that may. Nothing here removes an alarm or an acknowledgement: the API has no such route.
 */
export function alarmList(w: Words, alarms: Alarm[], canAck: boolean, ack: (id: number, note: string) => Promise<void>): HTMLElement {
  const t = w.t;
  if (alarms.length === 0) return h('p', { class: 'empty' }, t('backoffice.floor.none'));
  return h(
    'ul',
    { class: 'alarms', 'data-testid': 'alarms' },
    alarms.map((a) => {
      const acks = h(
        'ul',
        { class: 'acks' },
        a.acks.map((k) => h('li', {}, `✔ ${t('backoffice.alarms.ackBy', { by: k.by, at: w.time(k.at), note: k.note })}`)),
      );
      const li = h(
        'li',
        { 'data-alarm': String(a.id), 'data-open': String(a.clearedAt === null) },
        h(
          'strong',
          {},
          `${a.clearedAt === null ? '⚠' : '✔'} ${kindWord(t, a.kind)}${currencyDetail(a)}${tableDetail(a)}${supervisorDetail(w, a)}${credentialDetail(w, a)}`,
        ),
        ` ${a.terminalId ?? ''} — ${t('backoffice.alarms.raised')} ${w.time(a.raisedAt)}${repeatedDetail(w, a)}`,
        a.clearedAt === null ? ` (${t('backoffice.alarms.open')})` : ` (${t('backoffice.alarms.cleared')} ${w.time(a.clearedAt)})`,
        acks,
      );
      if (a.more !== undefined && a.terminalId !== null) li.append(moreOf(t, a.terminalId, a.more));
      // An alarm that holds every acknowledgement it takes says so in place of the form: the upstream refuses one more.
      if (canAck && a.acks.length >= ALARM_ACKS_MAX)
        li.append(h('p', { class: 'empty', 'data-testid': 'acks-full' }, t('backoffice.alarms.refused.acks-full', { max: ALARM_ACKS_MAX })));
      else if (canAck) {
        const note = h('input', {
          name: 'note',
          required: '',
          maxlength: '1000',
          'aria-label': t('backoffice.alarms.note'),
          placeholder: t('backoffice.alarms.note'),
        });
        const form = h('form', { class: 'ack' }, note, h('button', { type: 'submit' }, t('backoffice.alarms.acknowledge')));
        // Said under the form only when refused: no empty alert beside every alarm.
        const refused = h('p', { class: 'error', role: 'alert', 'data-testid': 'ack-refused' });
        form.addEventListener('submit', (e) => {
          e.preventDefault();
          refused.remove();
          void ack(a.id, note.value.trim()).catch((err: unknown) => {
            refused.textContent = ackRefusal(w, err);
            form.after(refused);
          });
        });
        li.append(form);
      }
      return li;
    }),
  );
}

/**
 * The most acknowledgements one alarm takes: the upstream's ALARM_ACKS_MAX
 * (upstream/backoffice/alarm-acks.ts), which this page's build cannot import.
 */
export const ALARM_ACKS_MAX = 20;

/**
 * Why an acknowledgement was refused, in the page's words. Before, the form dropped a refusal (an
 * unhandled rejection): the user saw nothing happen.
 */
export function ackRefusal(w: Words, e: unknown): string {
  if (e instanceof ApiError) {
    if (e.code === 'acks-full') return w.t('backoffice.alarms.refused.acks-full', { max: ALARM_ACKS_MAX });
    if (e.code === 'no-alarm') return w.t('backoffice.alarms.refused.no-alarm');
    if (e.code === 'role') return w.t('backoffice.alarms.notAllowed');
  }
  return failureWords(w, e);
}
