import type { ServiceAction, ServicePage } from '../../../../../protocol/index.js';
import { formatConfigValue, type ValueFormat } from '../config-editor.js';
import { configKeyLabel } from './config-labels.js';
import { scopeLabel } from './meter-labels.js';
import { openRowText, stationList } from './peers-page.js';

/** What the second person reads of a peer's enrolment file: the table and its address (the host checks the whole file). */
function enrolmentHead(text: string): { table: string; url: string; fingerprint: string | null } | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null || !('table' in v) || !('url' in v)) return null;
  const { table, url } = v;
  const fingerprint = 'fingerprint' in v && typeof v.fingerprint === 'string' ? v.fingerprint.slice(0, 120) : null;
  return typeof table === 'string' && typeof url === 'string' ? { table: table.slice(0, 64), url: url.slice(0, 200), fingerprint } : null;
}

/** What a two-person action will do, as the second person must read it before confirming. */
export function actionSummary(action: ServiceAction, page: ServicePage | undefined, fmt: ValueFormat): string {
  if (action.kind === 'config-change') {
    const before = page?.page === 'config' ? page.items.find((i) => i.key === action.key)?.value : undefined;
    const summary = fmt.t('service.config.confirmSummary', {
      key: configKeyLabel(action.key, fmt.t),
      before: before === undefined ? '—' : formatConfigValue(action.key, before, fmt),
      after: formatConfigValue(action.key, action.value, fmt),
      authorisation: action.authorisation,
    });
    // The day the new rule set's authorisation takes effect, when given.
    return action.effective
      ? fmt.t('punctuation.joined', { first: summary, second: fmt.t('service.config.effectiveFrom', { day: action.effective }) })
      : summary;
  }
  const joined = (first: string, second: string) => fmt.t('punctuation.joined', { first, second });
  // A meter clear: its scope as the table or a station, the reference, and a person's own reason where one was given.
  if (action.kind === 'meter-clear') {
    const what = joined(scopeLabel(action.scope, fmt.t), action.authorisation);
    return action.reason === undefined ? what : joined(what, action.reason);
  }
  if (action.kind === 'correct') return joined(action.roundId, fmt.t(`service.correction.${action.correction}`));
  if (action.kind === 'void-round')
    return joined(action.roundId, action.uncorrectable ? fmt.t(`service.uncorrectable.${action.uncorrectable}`) : action.reason);
  // The count the second person confirms: the station, then each face value and how many were counted.
  if (action.kind === 'cashbox-drop')
    return action.notes.reduce(
      (first, n) => joined(first, fmt.t('punctuation.labelled', { label: fmt.money(n.note * fmt.minorPerUnit), value: n.count })),
      fmt.t('service.action.station', { station: action.station }),
    );
  // A peer's enrolment file is never shown whole (its secret): its table, address and the stations typed.
  if (action.kind === 'peer-add') {
    const head = enrolmentHead(action.enrolment);
    const summary = fmt.t('service.peers.summary', {
      table: head?.table ?? '—',
      url: head?.url ?? '—',
      stations: stationList(action.stations) || fmt.t('service.peers.noStations'),
    });
    // The certificate the link will pin: the second person compares it with the one that table's own screen shows (a forged file names another).
    return head?.fingerprint ? joined(summary, fmt.t('service.peers.certificate', { fingerprint: head.fingerprint })) : summary;
  }
  // The held ticket the second person confirms: its station, its number's last four digits, what is done with it.
  if (action.kind === 'ticket-settle')
    return joined(fmt.t('service.action.station', { station: action.station }), joined(`…${action.ticket}`, fmt.t(`service.tickets.settle.${action.outcome}`)));
  // The same for a held ticket in: where the person says it is (the attempt's seq is the host's to check, not the second person's).
  if (action.kind === 'ticket-in-settle')
    return joined(
      fmt.t('service.action.station', { station: action.station }),
      joined(`…${action.ticket}`, fmt.t(`service.tickets.settleIn.${action.outcome}`)),
    );
  // A held note: its station, its amount as the page lists it, and where the person says it is.
  if (action.kind === 'note-settle') {
    const row = page?.page === 'devices' ? page.notesHeld?.find((n) => n.seq === action.seq) : undefined;
    const where = fmt.t(`service.notesHeld.settle.${action.outcome}`);
    return joined(fmt.t('service.action.station', { station: action.station }), row ? joined(fmt.money(row.amount), where) : where);
  }
  // The transfer the second person confirms as the page lists it, how it is settled, and on what reference.
  if (action.kind === 'transfer-settle') {
    const row = page?.page === 'peers' ? page.open.find((o) => o.serial === action.serial) : undefined;
    const what = row ? openRowText(row, fmt) : String(action.serial);
    return joined(what, joined(fmt.t(`service.peers.settleAs.${action.as}`), action.reference));
  }
  const { kind: _kind, ...rest } = action;
  const [head = '', ...tail] = Object.values(rest).map(String);
  return tail.reduce((first, second) => fmt.t('punctuation.joined', { first, second }), head);
}
