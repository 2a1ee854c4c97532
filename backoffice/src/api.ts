import { z } from 'zod';
import { TableMoney } from './money.js';
import { GamingDayReport, Plots } from './report-model.js';

/** The API's answers, checked at the boundary (zod): the page never trusts a shape it was not told. */
export const Permission = z.enum(['floor', 'acknowledge', 'report', 'configure', 'table-config', 'evidence']);
export const Session = z.object({
  name: z.string(),
  role: z.enum(['viewer', 'supervisor', 'accounting', 'administrator']),
  permissions: z.array(Permission),
  csrf: z.string(),
});
export type Session = z.infer<typeof Session>;

export const FloorRow = z.object({
  terminalId: z.string(),
  tableId: z.string().nullable(),
  game: z.string().nullable(),
  currency: TableMoney.nullable(),
  profile: z.string().nullable(),
  /** The table's last settled round and when the table journalled it (upstream/backoffice/floor.ts). */
  lastRound: z.object({ roundId: z.string(), at: z.string() }).nullable(),
  state: z.string(),
  hold: z.boolean(),
  faults: z.array(z.string()),
  occupied: z.number(),
  stations: z.number(),
  lastSeenAt: z.string().nullable(),
  lagEntries: z.number().nullable(),
  lagSeconds: z.number().nullable(),
  headSeq: z.number(),
  openAlarms: z.number(),
  unacknowledged: z.number(),
  configWaiting: z.number(),
});
export type FloorRow = z.infer<typeof FloorRow>;

export const Alarm = z.object({
  id: z.number(),
  terminalId: z.string().nullable(),
  kind: z.string(),
  detail: z.unknown(),
  raisedAt: z.string(),
  clearedAt: z.string().nullable(),
  acks: z.array(z.object({ by: z.string(), at: z.string(), note: z.string() })),
  /** On the oldest of a table's alarms the list shows: how many more the table's own page has. */
  more: z.number().optional(),
});
export type Alarm = z.infer<typeof Alarm>;

const Entry = z.object({ seq: z.number(), type: z.string(), ts: z.string(), payload: z.unknown() });
/** A ticket on a table's page: the number's last four digits only. */
const TableTicket = z.object({
  last4: z.string(),
  station: z.number(),
  amount: z.number(),
  currency: z.string(),
  state: z.enum(['issued', 'printed', 'pending', 'redeemed', 'voided', 'expired']),
  issuedAt: z.string(),
  issuedBy: z.string(),
  redeemedAt: z.string().nullable(),
});

/** Meters of one scope in one currency: the amounts are its minor units. */
export const MeterGroup = z.object({ currency: TableMoney.nullable(), meters: z.record(z.string(), z.number()) });

export const TableDetail = z.object({
  terminalId: z.string(),
  health: z
    .looseObject({
      tableId: z.string().optional(),
      game: z.string().optional(),
      // The profile the table plays and its game's profiles (the form offers no other game's).
      profile: z.string().max(64).optional(),
      profiles: z.array(z.string().max(64)).max(64).optional(),
    })
    .nullable(),
  currency: TableMoney.nullable(),
  /** The table's currencies by journal seq, each from `fromSeq` up to the next's: what an entry or a round was in (`currencyAt`). */
  currencies: z.array(TableMoney.extend({ fromSeq: z.number().int() })).default([]),
  faults: z.array(z.string()),
  /** The table's meters, one group per currency they were journalled in (null: none named then): never one sum of two. */
  table: z.array(MeterGroup),
  /** `creditSeq`: the entry that last left the station's credit (absent: none did); its credit is in the currency of that seq. */
  stations: z.array(z.object({ station: z.number(), credit: z.number(), creditSeq: z.number().optional(), meters: z.array(MeterGroup) })),
  rounds: z.array(
    z.object({
      seq: z.number(),
      status: z.enum(['settled', 'void']),
      ts: z.string(),
      round: z.looseObject({ roundId: z.string().optional(), cards: z.array(z.object({ card: z.string(), to: z.string() })).optional() }).nullable(),
      credits: z.unknown(),
    }),
  ),
  jackpots: z.array(Entry),
  transfers: z.array(Entry),
  handpays: z.array(Entry),
  tickets: z.object({
    issued: z.array(TableTicket),
    redeemed: z.array(TableTicket),
    outstanding: z.array(z.object({ currency: z.string(), tickets: z.number(), amount: z.number() })),
  }),
  alarms: z.array(Alarm),
});
export type TableDetail = z.infer<typeof TableDetail>;

/**
 * What the page reads of a round's evidence bundle (terms/round-evidence.ts, the kiosk's format):
 * its recall record and the shape of its proof. Checked here, never trusted; the bundle itself is
 * downloaded as the upstream sent it.
 */
export const RoundEvidence = z.object({
  kind: z.literal('macau-etg-round-evidence'),
  terminalId: z.string(),
  round: z.object({
    roundId: z.string(),
    game: z.string(),
    profile: z.string(),
    status: z.enum(['settled', 'void']),
    seq: z.number(),
    ts: z.string(),
    cards: z.array(z.object({ card: z.string(), to: z.string() })),
    decisions: z.array(z.object({ seat: z.number(), hand: z.number().optional(), action: z.string(), auto: z.boolean().optional() })),
    bets: z.array(z.object({ station: z.number(), seat: z.number(), bet: z.string(), amount: z.number() })),
    lines: z.array(
      z.object({ station: z.number(), seat: z.number(), bet: z.string(), hand: z.number().optional(), stake: z.number(), net: z.number(), rule: z.string() }),
    ),
    credits: z.array(z.object({ station: z.number(), before: z.number(), after: z.number() })),
    reason: z.string().optional(),
    authorisedBy: z.array(z.string()).optional(),
    uncorrectable: z.string().optional(),
    voidRule: z.string().optional(),
    corrections: z.array(z.object({ correction: z.string(), article: z.string(), card: z.string().optional(), confirmedBy: z.array(z.string()) })).optional(),
    entrySeqs: z.array(z.number()),
  }),
  proof: z.object({ links: z.array(z.tuple([z.number(), z.string(), z.string()])) }),
  head: z.object({ seq: z.number() }),
  rules: z.object({ seq: z.number() }).optional(),
});
export type RoundEvidence = z.infer<typeof RoundEvidence>;

export const AuditPage = z.object({
  rows: z.array(
    z.object({ id: z.number(), at: z.string(), actor: z.string().nullable(), address: z.string().nullable(), action: z.string(), detail: z.unknown() }),
  ),
  /** The next, older page's `before`; null on the last page. */
  older: z.number().nullable(),
});
export type AuditPage = z.infer<typeof AuditPage>;
/** What a page of the audit log is asked for: one action, one actor, older than an id. */
export interface AuditFilter {
  action?: string;
  /** Every action but this one (the upstream's `notAction`); never with `action`. */
  notAction?: string;
  actor?: string;
  before?: number;
}

export const Settings = z.object({ gamingDayStartHour: z.number(), offlineLimitSeconds: z.number() });
export type Settings = z.infer<typeof Settings>;

/** A table's configuration change asked from the back office (issue 49 item 6) and where it stands. */
export const ConfigRequest = z.object({
  id: z.number(),
  terminalId: z.string(),
  key: z.enum(['limits', 'betLimits', 'creditLimit', 'profileOptions', 'profile']),
  after: z.unknown(),
  authorisation: z.string(),
  note: z.string(),
  proposedBy: z.string(),
  proposedAt: z.string(),
  approvedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  withdrawnBy: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  state: z.enum(['proposed', 'withdrawn', 'approved', 'delivered', 'applied', 'refused']),
  /** The currency of its amounts when it was proposed (null: none named); the page shows them in it. */
  currency: TableMoney.nullable(),
  outcome: z
    .object({
      seq: z.number(),
      at: z.string(),
      type: z.enum(['config.change', 'config.refused']),
      reason: z.string().nullable(),
      /**
       * What the table's refusal says, as a key of the catalogues and its parameters (null: the
       * English `reason` only); the upstream passes only what fits terms/said.ts, the page shows
       * only a key its catalogues have words for (config-section.ts, refusalWords).
       */
      said: z
        .object({ key: z.string().max(128), values: z.record(z.string().max(32), z.union([z.string().max(400), z.number()])) })
        .nullable()
        .optional(),
    })
    .nullable(),
});
export type ConfigRequest = z.infer<typeof ConfigRequest>;

export type Proposal =
  | { key: 'limits'; after: { min: number; max: number }; authorisation: string; note: string }
  | { key: 'creditLimit'; after: number; authorisation: string; note: string }
  | { key: 'profileOptions'; after: Record<string, string | number | boolean>; authorisation: string; note: string }
  | { key: 'profile'; after: string; authorisation: string; note: string };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly retryAfter?: number,
  ) {
    super(`${status} ${code}`);
  }
}

const ErrorBody = z.object({ error: z.string() }).loose();
const BASE = '/backoffice/api';

let csrf = '';
export function useCsrf(token: string): void {
  csrf = token;
}

async function call<T>(schema: z.ZodType<T>, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  // No answer at all (the network, the upstream down, an answer cut off) is an ApiError of its own,
  // `network` with no status: fetch's TypeError carries the browser's English words.
  const answered = await fetch(`${BASE}${path}`, {
    method,
    credentials: 'same-origin',
    headers: method === 'POST' ? { 'content-type': 'application/json', 'x-csrf-token': csrf } : {},
    ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
  })
    .then(async (r) => ({ r, text: await r.text() }))
    .catch(() => null);
  if (answered === null) throw new ApiError(0, 'network');
  const { r, text } = answered;
  const json = jsonOf(text);
  if (!r.ok) {
    const e = ErrorBody.safeParse(json);
    throw new ApiError(r.status, e.success ? e.data.error : 'http', Number(r.headers.get('retry-after') ?? '') || undefined);
  }
  // An answer of another shape, or no JSON at all (a proxy's page in the upstream's place), is
  // refused by its status, never with the parser's English words (a second review of 6 December).
  const read = schema.safeParse(json);
  if (!read.success) throw new ApiError(r.status, 'unreadable');
  return read.data;
}

/** An answer's JSON; undefined when it is none (read before its status: a proxy's HTML page of a 502 or a 401). */
function jsonOf(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export const api = {
  session: () => call(Session, 'GET', '/session'),
  signIn: (name: string, password: string) => call(Session, 'POST', '/sign-in', { name, password }),
  signOut: () => call(z.null(), 'POST', '/sign-out'),
  floor: () => call(z.array(FloorRow), 'GET', '/floor'),
  table: (id: string) => call(TableDetail, 'GET', `/tables/${encodeURIComponent(id)}`),
  alarms: () => call(z.array(Alarm), 'GET', '/alarms'),
  acknowledge: (id: number, note: string) => call(z.object({ ok: z.literal(true) }), 'POST', `/alarms/${id}/acknowledge`, { note }),
  settings: () => call(Settings, 'GET', '/settings'),
  /** `query` as auditQuery writes it (audit-page.ts). */
  audit: (query: string) => call(AuditPage, 'GET', `/audit${query}`),
  /** Every table's requests, newest first (the alarms page lists those a table has yet to make or refused). */
  allConfigRequests: () => call(z.array(ConfigRequest), 'GET', '/config-requests'),
  configRequests: (terminal: string) => call(z.array(ConfigRequest), 'GET', `/config-requests?terminal=${encodeURIComponent(terminal)}`),
  propose: (terminal: string, p: Proposal) => call(ConfigRequest, 'POST', `/tables/${encodeURIComponent(terminal)}/config-requests`, p),
  decide: (id: number, how: 'approve' | 'withdraw') => call(ConfigRequest, 'POST', `/config-requests/${id}/${how}`),
  plots: (date?: string) => call(Plots, 'GET', `/reports/plots${date ? `?date=${encodeURIComponent(date)}` : ''}`),
  evidence: (terminal: string, round: string) =>
    call(RoundEvidence, 'GET', `/tables/${encodeURIComponent(terminal)}/rounds/${encodeURIComponent(round)}/evidence`),
  report: (date?: string) => call(GamingDayReport, 'GET', `/reports/gaming-day${date ? `?date=${encodeURIComponent(date)}` : ''}`),
};
