// One entry's body text, checked before it is stored: the journal is the table's, but the
// upstream stores only what it can index and read back.
import { Refused, type IngestEntry } from './batch.js';
import { reportFieldsProblem } from './report-fields.js';

/** ISO 8601 as the kiosk writes it (ledger/canonical.ts: toISOString with an offset); what PostgreSQL's timestamptz reads. */
const ISO_TS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(Z|[+-](\d{2}):(\d{2}))$/;

/**
 * Whether an ISO time of that shape names an instant as the kiosk writes one: a day of the calendar,
 * hours to 23, minutes and seconds to 59, an offset under a day. `Date.parse` rolls 30 February
 * over to 2 March (and reads 24:00 as the next day), which PostgreSQL's timestamptz refuses (or
 * reads otherwise): such a body passed the check and failed the batch's INSERT, a 500.
 */
function isInstant(ts: string): boolean {
  const m = ISO_TS.exec(ts);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  // Not Date.UTC(y, …): it reads a year 0–99 as 1900–1999, so 0050-06-01 was refused as no day and a
  // table whose clock read year 50 had its sync refused for good (misdated entries are stored: misdated.ts).
  const day = new Date(0);
  day.setUTCFullYear(y, mo - 1, d);
  const sameDay = y >= 1 && day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d;
  const offsetOk = m[9] === undefined || (Number(m[9]) <= 23 && Number(m[10]) <= 59);
  return sameDay && h <= 23 && mi <= 59 && s <= 59 && offsetOk;
}

export interface Body {
  payload?: unknown;
  terminal?: unknown;
  seq?: unknown;
  ts?: unknown;
  type?: unknown;
  txId?: unknown;
  meters?: unknown;
  credits?: unknown;
}

/**
 * The checks on one entry's body text before it is stored, pure (fuzzed in tests/fuzz/). A body
 * must parse as JSON, name this terminal and seq, carry a type and an ISO timestamp, hold no
 * NUL character (PostgreSQL's jsonb cannot store one, and would answer 500 instead of refusing),
 * and carry the figures the upstream reads back as numbers as a ledger writes them (report-fields.ts).
 */
export function checkEntryBody(terminal: string, e: IngestEntry): Body & { type: string; ts: string } {
  const refuse = (why: string) => new Refused({ status: 422, error: 'bad-entry', seq: e.seq, message: `seq ${e.seq}: ${why}` });
  let parsed: unknown;
  try {
    parsed = JSON.parse(e.body);
  } catch {
    throw refuse('body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw refuse('body is not a JSON object');
  const body = parsed as Body;
  if (
    body.terminal !== terminal ||
    body.seq !== e.seq ||
    typeof body.type !== 'string' ||
    typeof body.ts !== 'string' ||
    !isInstant(body.ts) ||
    Number.isNaN(Date.parse(body.ts))
  ) {
    throw refuse('body names another terminal or sequence, or lacks type/ts');
  }
  if (holdsNul(parsed)) throw refuse('body holds a NUL character');
  const figures = reportFieldsProblem({ ...body, type: body.type });
  if (figures) throw refuse(figures);
  return { ...body, type: body.type, ts: body.ts };
}

function holdsNul(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (Array.isArray(v)) return v.some(holdsNul);
  if (typeof v === 'object' && v !== null) return Object.entries(v).some(([k, x]) => k.includes('\u0000') || holdsNul(x));
  return false;
}
