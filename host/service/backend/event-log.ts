import { canonicalJson, currencyAt, eventLog, newestEntriesOfType, type CurrencyAt } from '../../../ledger/index.js';
import { TiltKind, type EventRow } from '../../../protocol/index.js';
import { journalSaid, tiltSaid } from '../../../terms/said.js';
import { severityOf, tiltKindsOfSeverity, typesOfSeverity } from '../event-severity.js';
import type { CashoutPart, EventsPart } from '../service-backend.js';
import type { LiveBackendDeps } from './deps.js';
import { entrySaid } from './event-words.js';

/** The event log, filtered by type, severity and time, and the credits cancelled (the Cash-out page). */
export function eventLogReader(d: Pick<LiveBackendDeps, 'ledger'>): EventsPart & Pick<CashoutPart, 'cancelledCredits'> {
  return {
    list(q) {
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
      const page = eventLog(d.ledger, { types, severity: ranked, from, to }, { offset: q.offset, limit: q.limit });
      const at = currencyAt(d.ledger);
      return { more: page.more, entries: page.entries.map((e) => toEventRow(e, at)) };
    },

    cancelledCredits(limit) {
      const at = currencyAt(d.ledger);
      return newestEntriesOfType(d.ledger, 'credit.cancel', limit).map((e) => toEventRow(e, at));
    },
  };
}

/**
 * A ticket's validation number is a bearer's (typed into a barcode, it is paid): the log shows its
 * last four digits, as the Tickets page does; the journal and the export keep it whole.
 */
function masked(type: string, payload: Record<string, unknown>): Record<string, unknown> {
  const v = payload.validation;
  return type.startsWith('ticket.') && typeof v === 'string' ? { ...payload, validation: `…${v.slice(-4)}` } : payload;
}

/**
 * A fault raised or cleared, as the screen words it: its kind, its station, its detail by key where
 * the host worded it; a clear, who cleared it (none: it cleared by itself).
 */
function faultOf(type: string, payload: Record<string, unknown>): Pick<EventRow, 'fault'> {
  if (type !== 'tilt.raise' && type !== 'tilt.clear') return {};
  const kind = TiltKind.safeParse(payload.kind);
  if (!kind.success) return {};
  const say = payload.say === undefined ? null : tiltSaid.safeParse(payload.say);
  const station = typeof payload.station === 'number' ? { station: payload.station } : {};
  const cleared = type === 'tilt.clear' ? { cleared: payload.automatic === true || typeof payload.by !== 'string' ? {} : { by: payload.by.slice(0, 64) } } : {};
  return { fault: { kind: kind.data, ...station, ...(say?.success ? { detail: say.data } : {}), ...cleared } };
}

/**
 * What the journal says of its own act by key (a meter clear's `say`), where it parses; else an
 * entry of a kind the log knows by its fields (event-words.ts), said by key too: an amount of the
 * table's in the currency the entry names, else the one in force at its seq (`currencyAt`).
 */
function saidOf(type: string, payload: Record<string, unknown>, currency: () => string | null): Pick<EventRow, 'said'> {
  // A service act's `say` is its detail only: the act's words around it are event-words.ts's.
  const say = payload.say === undefined || type === 'service.action' ? null : journalSaid.safeParse(payload.say);
  if (say?.success) return { said: say.data };
  const known = entrySaid(type, payload, currency);
  return known ? { said: known } : {};
}

function toEventRow(r: { seq: number; ts: string; type: string; body: string }, at: CurrencyAt): EventRow {
  const payload = masked(r.type, (JSON.parse(r.body) as { payload: Record<string, unknown> }).payload);
  const kind = typeof payload.kind === 'string' ? payload.kind : undefined;
  return {
    seq: r.seq,
    ts: r.ts,
    type: r.type,
    severity: severityOf(r.type, kind),
    summary: canonicalJson(payload as never).slice(0, 400),
    ...faultOf(r.type, payload),
    ...saidOf(r.type, payload, () => at(r.seq)),
  };
}
