import { z } from 'zod';
import { BET_LIMITS_MAX, CREDIT_LIMIT_MAX, ORDER_AFTER_MAX, ORDER_CURRENCY_KEYS } from '../../terms/config-order-terms.js';
import { said, type SaidPayload } from '../../terms/said.js';
import { raiseAlarm } from '../alarm.js';
import { iso } from '../queries.js';
import type { Db, Sql } from '../sql.js';
import { audit } from './audit.js';
import { BackofficeRole, permissionsOf } from './roles.js';

// Configuration from the floor (issue 49 item 6; docs/backoffice.md): a user with the
// `table-config` permission proposes a change of a table's limits, station credit limit, rule options or rule profile with the
// regulator's authorisation reference; another user with that permission approves it (the
// database refuses an approval by the proposer too); the table fetches it, signed by the
// upstream, at its heartbeats and makes it at its next shoe (the credit limit as it arrives), or refuses it. What the table did is
// read from its own synced journal (`config.change` or `config.refused` naming the request): the
// back office never takes a table's word for it from anything but its chained journal.

/**
 * Migration 9: a request may change the table's rule profile (`profile`: another profile of the
 * same game, which the table's guard decides). The CHECK on `key` widened; nothing else moves.
 */
export const CONFIG_PROFILE_SQL = `
  ALTER TABLE config_requests DROP CONSTRAINT config_requests_key_check;
  ALTER TABLE config_requests ADD CONSTRAINT config_requests_key_check CHECK (key IN ('limits', 'betLimits', 'profileOptions', 'profile'));
`;

/**
 * Migration 18: a request may change a table's station credit limit (`creditLimit`, minor units;
 * the table's guard holds it to what SAS 0x1A can say and makes it as it arrives). The CHECK on
 * `key` widened again; nothing else moves.
 */
export const CONFIG_CREDIT_LIMIT_SQL = `
  ALTER TABLE config_requests DROP CONSTRAINT config_requests_key_check;
  ALTER TABLE config_requests ADD CONSTRAINT config_requests_key_check CHECK (key IN ('limits', 'betLimits', 'creditLimit', 'profileOptions', 'profile'));
`;

/**
 * Migration 19: the currency the upstream held for the table when a request of a setting with
 * amounts was proposed (ORDER_CURRENCY_KEYS; NULL for another setting, a table that never named its
 * currency, and every request proposed before). Its order names it (v2) and the table refuses it in
 * another currency: an order's amounts are minor units, and a table's currency changes with its
 * configuration file (a review of 6 December).
 */
export const CONFIG_CURRENCY_SQL = `
  ALTER TABLE config_requests ADD COLUMN currency text CHECK (currency ~ '^[A-Z]{3}$');
  ALTER TABLE config_requests ADD COLUMN currency_exponent int CHECK (currency_exponent BETWEEN 0 AND 4);
  ALTER TABLE config_requests ADD CONSTRAINT config_requests_currency_whole CHECK ((currency IS NULL) = (currency_exponent IS NULL));
`;

/** Migration 7: requests and their steps, both append-only (a trigger refuses UPDATE, DELETE, TRUNCATE). */
export const CONFIG_REQUESTS_SQL = `
  CREATE TABLE config_requests (
    id bigserial PRIMARY KEY,
    terminal_id text NOT NULL REFERENCES terminals,
    key text NOT NULL CHECK (key IN ('limits', 'betLimits', 'profileOptions')),
    after jsonb NOT NULL,
    authorisation text NOT NULL CHECK (length(authorisation) BETWEEN 1 AND 128),
    note text NOT NULL DEFAULT '' CHECK (length(note) <= 1000),
    proposed_by text NOT NULL REFERENCES backoffice_users,
    proposed_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX config_requests_terminal ON config_requests (terminal_id, id);
  CREATE TABLE config_request_steps (
    id bigserial PRIMARY KEY,
    request_id bigint NOT NULL REFERENCES config_requests,
    step text NOT NULL CHECK (step IN ('approved', 'withdrawn', 'delivered')),
    by_name text,
    at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (request_id, step)
  );
  CREATE FUNCTION config_second_person() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.step = 'approved' AND NEW.by_name = (SELECT proposed_by FROM config_requests WHERE id = NEW.request_id) THEN
      RAISE EXCEPTION 'config_request_steps: the proposer may not approve their own request';
    END IF;
    RETURN NEW;
  END $$;
  CREATE TRIGGER config_second_person BEFORE INSERT ON config_request_steps FOR EACH ROW EXECUTE FUNCTION config_second_person();
  CREATE TRIGGER config_requests_append_only BEFORE UPDATE OR DELETE ON config_requests FOR EACH ROW EXECUTE FUNCTION refuse_rewrite();
  CREATE TRIGGER config_requests_no_truncate BEFORE TRUNCATE ON config_requests FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewrite();
  CREATE TRIGGER config_request_steps_append_only BEFORE UPDATE OR DELETE ON config_request_steps FOR EACH ROW EXECUTE FUNCTION refuse_rewrite();
  CREATE TRIGGER config_request_steps_no_truncate BEFORE TRUNCATE ON config_request_steps FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewrite();
`;

const Minor = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const Limits = z.strictObject({ min: Minor, max: Minor }).refine((l) => l.min <= l.max, { message: 'min must not exceed max' });
const Reference = z.string().trim().min(1).max(128);
const Note = z.string().trim().max(1000).default('');

/**
 * What a proposal may ask. The shapes only: whether the table's game, profile and the regulations
 * allow it is the table's own guard's to say (host/config/config-changes.ts), and it says it in
 * the journal.
 */
export const ConfigProposal = z
  .discriminatedUnion('key', [
    z.strictObject({ key: z.literal('limits'), after: Limits, authorisation: Reference, note: Note }),
    z.strictObject({
      key: z.literal('betLimits'),
      after: z
        .record(z.string().regex(/^[a-z][a-zA-Z0-9-]{0,31}$/), Limits)
        .refine((o) => Object.keys(o).length <= BET_LIMITS_MAX, { message: `at most ${BET_LIMITS_MAX} bets` }),
      authorisation: Reference,
      note: Note,
    }),
    z.strictObject({
      key: z.literal('profileOptions'),
      after: z
        .record(z.string().min(1).max(64), z.union([z.string().max(64), z.number().finite(), z.boolean()]))
        .refine((o) => Object.keys(o).length <= 32, { message: 'at most 32 options' }),
      authorisation: Reference,
      note: Note,
    }),
    // The station credit limit in minor units, at most what SAS 0x1A can say (host/config/table-config.ts):
    // a value the table could not hold is refused here, before a second person is asked to approve it.
    z.strictObject({ key: z.literal('creditLimit'), after: z.number().int().min(1).max(CREDIT_LIMIT_MAX), authorisation: Reference, note: Note }),
    // A profile's name (`macau-2004`, `macau-no-commission`): whether the table's game has it is the table's to say.
    z.strictObject({ key: z.literal('profile'), after: z.string().regex(/^[a-z][a-z0-9-]{0,63}$/), authorisation: Reference, note: Note }),
  ])
  // What a table takes (terms/config-order-terms.ts): a request it could not read would be sent to it, refused, for nothing.
  .refine((p) => JSON.stringify(p.after).length <= ORDER_AFTER_MAX, {
    message: `the new value is longer than a table takes (${ORDER_AFTER_MAX} characters as JSON)`,
    path: ['after'],
  });
export type ConfigProposal = z.infer<typeof ConfigProposal>;

export type RequestState = 'proposed' | 'withdrawn' | 'approved' | 'delivered' | 'applied' | 'refused';

export interface ConfigRequest {
  id: number;
  terminalId: string;
  key: ConfigProposal['key'];
  after: unknown;
  authorisation: string;
  note: string;
  proposedBy: string;
  proposedAt: string;
  approvedBy: string | null;
  approvedAt: string | null;
  withdrawnBy: string | null;
  deliveredAt: string | null;
  state: RequestState;
  /**
   * The currency of its amounts: the table's when it was proposed (migration 19), which its order
   * names; null for a setting with no amounts, a table that never named its currency, or a request
   * proposed before. The page shows its amounts in it, never in a currency the table took since.
   */
  currency: { code: string; exponent: number } | null;
  /**
   * The table's journal entry that answered it: the change made, or the refusal with its reason
   * (English) and what it says to a person (`said`: a key of the catalogues and its parameters,
   * null from a table that did not say one, or said one that does not fit its schema).
   */
  outcome: { seq: number; at: string; type: 'config.change' | 'config.refused'; reason: string | null; said: SaidPayload | null } | null;
}

export class ConfigRequestError extends Error {
  constructor(
    readonly status: 404 | 409 | 403,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Row = {
  id: number;
  terminal_id: string;
  key: ConfigProposal['key'];
  after: unknown;
  authorisation: string;
  note: string;
  proposed_by: string;
  proposed_at: Date;
  approved_by: string | null;
  approved_at: Date | null;
  withdrawn_by: string | null;
  delivered_at: Date | null;
  currency: string | null;
  currency_exponent: number | null;
};

const SELECT = `
  SELECT r.id, r.terminal_id, r.key, r.after, r.authorisation, r.note, r.proposed_by, r.proposed_at, r.currency, r.currency_exponent,
         a.by_name AS approved_by, a.at AS approved_at, w.by_name AS withdrawn_by, d.at AS delivered_at
  FROM config_requests r
  LEFT JOIN config_request_steps a ON a.request_id = r.id AND a.step = 'approved'
  LEFT JOIN config_request_steps w ON w.request_id = r.id AND w.step = 'withdrawn'
  LEFT JOIN config_request_steps d ON d.request_id = r.id AND d.step = 'delivered'`;

/**
 * Whether journal entry `j` answers request `r` (with `d`, its delivery): an entry of `r`'s own
 * table naming it, of its setting (a change, of its value too), received after the request was
 * delivered. A table's key alone cannot answer a request never approved, withdrawn, not made yet,
 * or another one than it was sent, nor keep an approved one from being sent by answering it early
 * (a review of the configuration orders: a table holding its key set any of its requests' states).
 */
export const ANSWERS = `j.terminal_id = r.terminal_id AND j.type IN ('config.change', 'config.refused')
  AND j.doc->'payload'->>'order' = r.id::text AND j.doc->'payload'->>'key' = r.key
  AND (j.type = 'config.refused' OR j.doc->'payload'->'after' = r.after)
  AND d.at IS NOT NULL AND j.received_at >= d.at`;

/**
 * Raises `config-answer-stray` for each of a batch's entries (`seqs`, stored in this transaction)
 * that names a request (`order`) it does not answer by ANSWERS: a request never sent to this table,
 * of another setting or value. An honest table answers only what it was sent: this is a table's
 * key in other hands, or a table and its upstream out of step; the floor must look.
 */
export async function alarmStrayAnswers(tx: Sql, terminal: string, seqs: readonly number[]): Promise<void> {
  if (seqs.length === 0) return;
  const r = await tx.query<{ seq: number; type: string; o: string }>(
    `SELECT j.seq, j.type, j.doc->'payload'->>'order' AS o FROM journal j
     WHERE j.terminal_id = $1 AND j.seq = ANY($2::bigint[]) AND j.type IN ('config.change', 'config.refused') AND j.doc->'payload' ? 'order'
       AND NOT EXISTS (SELECT 1 FROM config_requests r JOIN config_request_steps d ON d.request_id = r.id AND d.step = 'delivered' WHERE ${ANSWERS})
     ORDER BY j.seq`,
    [terminal, [...seqs]],
  );
  for (const x of r.rows) await raiseAlarm(tx, terminal, 'config-answer-stray', { seq: Number(x.seq), type: x.type, order: String(x.o).slice(0, 32) });
}

/** The tables' journal entries that answer requests, by terminal and request id. */
async function outcomes(sql: Sql, terminals: string[]): Promise<Map<string, NonNullable<ConfigRequest['outcome']>>> {
  const out = new Map<string, NonNullable<ConfigRequest['outcome']>>();
  if (terminals.length === 0) return out;
  const r = await sql.query<{
    terminal_id: string;
    seq: number;
    ts: Date;
    type: 'config.change' | 'config.refused';
    o: string;
    reason: string | null;
    say: unknown;
  }>(
    `SELECT j.terminal_id, j.seq, j.ts, j.type, r.id::text AS o, j.doc->'payload'->>'reason' AS reason, j.doc->'payload'->'say' AS say
     FROM config_requests r JOIN config_request_steps d ON d.request_id = r.id AND d.step = 'delivered'
     JOIN journal j ON ${ANSWERS}
     WHERE r.terminal_id = ANY($1::text[]) ORDER BY j.seq`,
    [terminals],
  );
  for (const x of r.rows) {
    const key = `${x.terminal_id}\n${x.o}`;
    // The table's words are believed only in their schema's shape: a key of the refusals' sections, bounded parameters.
    const say = said.safeParse(x.say);
    if (!out.has(key)) out.set(key, { seq: Number(x.seq), at: iso(x.ts), type: x.type, reason: x.reason, said: say.success ? say.data : null });
  }
  return out;
}

function shape(x: Row, outcome: ConfigRequest['outcome'] | undefined): ConfigRequest {
  const state: RequestState = outcome
    ? outcome.type === 'config.change'
      ? 'applied'
      : 'refused'
    : x.withdrawn_by !== null
      ? 'withdrawn'
      : x.delivered_at !== null
        ? 'delivered'
        : x.approved_by !== null
          ? 'approved'
          : 'proposed';
  return {
    id: Number(x.id),
    terminalId: x.terminal_id,
    key: x.key,
    after: x.after,
    authorisation: x.authorisation,
    note: x.note,
    proposedBy: x.proposed_by,
    proposedAt: iso(x.proposed_at),
    approvedBy: x.approved_by,
    approvedAt: x.approved_at === null ? null : iso(x.approved_at),
    withdrawnBy: x.withdrawn_by,
    deliveredAt: x.delivered_at === null ? null : iso(x.delivered_at),
    state,
    currency: x.currency === null || x.currency_exponent === null ? null : { code: x.currency, exponent: Number(x.currency_exponent) },
    outcome: outcome ?? null,
  };
}

/** Requests, newest first (of one terminal, or all), each with where it stands. */
export async function configRequests(sql: Sql, terminal?: string, limit = 100): Promise<ConfigRequest[]> {
  const r = await sql.query<Row>(`${SELECT} WHERE ($1::text IS NULL OR r.terminal_id = $1) ORDER BY r.id DESC LIMIT $2`, [terminal ?? null, limit]);
  const found = await outcomes(sql, [...new Set(r.rows.map((x) => x.terminal_id))]);
  return r.rows.map((x) => shape(x, found.get(`${x.terminal_id}\n${x.id}`)));
}

async function one(sql: Sql, id: number): Promise<ConfigRequest | null> {
  const r = await sql.query<Row>(`${SELECT} WHERE r.id = $1`, [id]);
  const x = r.rows[0];
  if (!x) return null;
  return shape(x, (await outcomes(sql, [x.terminal_id])).get(`${x.terminal_id}\n${x.id}`));
}

/** The most requests of one table open at once (proposed, or approved and not answered): one person cannot flood its list. The page says 20 (backoffice.config.error.too-many-open). */
export const OPEN_REQUESTS_MAX = 20;

/**
 * A proposal, recorded and audited. Refused (409 `too-many-open`) while the table has
 * OPEN_REQUESTS_MAX requests open: the table's row is locked, so two proposals at once count each other.
 */
export async function proposeConfig(db: Db, terminal: string, p: ConfigProposal, by: string, address: string): Promise<ConfigRequest> {
  const id = await db.transaction(async (tx) => {
    const known = await tx.query<{ currency: string | null; currency_exponent: number | null }>(
      'SELECT currency, currency_exponent FROM terminals WHERE terminal_id = $1 AND revoked_at IS NULL FOR UPDATE',
      [terminal],
    );
    const table = known.rows[0];
    if (!table) throw new ConfigRequestError(404, 'no-table', 'no such terminal');
    const open = await tx.query<{ n: number }>(
      `SELECT COUNT(*)::int AS n FROM config_requests r
       LEFT JOIN config_request_steps w ON w.request_id = r.id AND w.step = 'withdrawn'
       LEFT JOIN config_request_steps d ON d.request_id = r.id AND d.step = 'delivered'
       WHERE r.terminal_id = $1 AND w.id IS NULL AND NOT EXISTS (SELECT 1 FROM journal j WHERE ${ANSWERS})`,
      [terminal],
    );
    if (Number(open.rows[0]?.n ?? 0) >= OPEN_REQUESTS_MAX)
      throw new ConfigRequestError(
        409,
        'too-many-open',
        `the table has ${OPEN_REQUESTS_MAX} requests open already: approve or withdraw some, or wait for the table to answer the approved ones`,
      );
    // The amounts are in the table's currency as held now: the order names it (CONFIG_CURRENCY_SQL).
    const money = ORDER_CURRENCY_KEYS.includes(p.key);
    const r = await tx.query<{ id: number }>(
      `INSERT INTO config_requests (terminal_id, key, after, authorisation, note, proposed_by, currency, currency_exponent)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8) RETURNING id`,
      [terminal, p.key, JSON.stringify(p.after), p.authorisation, p.note, by, money ? table.currency : null, money ? table.currency_exponent : null],
    );
    const made = Number(r.rows[0]?.id);
    await audit(tx, {
      actor: by,
      address,
      action: 'config.propose',
      detail: { request: made, terminal, key: p.key, after: p.after, authorisation: p.authorisation },
    });
    return made;
  });
  const made = await one(db, id);
  if (!made) throw new Error('the request just made is not there');
  return made;
}

/**
 * A second person's approval, or the withdrawal of a request not yet approved. One transaction,
 * the request's row locked, so two approvals (or an approval and a withdrawal) cannot both land.
 */
export async function decideConfig(db: Db, id: number, step: 'approved' | 'withdrawn', by: string, address: string): Promise<ConfigRequest> {
  await db.transaction(async (tx) => {
    const r = await tx.query<{ proposed_by: string }>('SELECT proposed_by FROM config_requests WHERE id = $1 FOR UPDATE', [id]);
    const row = r.rows[0];
    if (!row) throw new ConfigRequestError(404, 'no-request', 'no such request');
    if (step === 'approved' && row.proposed_by === by)
      throw new ConfigRequestError(403, 'same-person', 'the second person must be someone else: you proposed this change');
    // The value is the proposer's, signed and sent under their name: not once they may no longer
    // propose it (another role, or disabled: a review of 4 December found it approved all the same).
    if (step === 'approved') {
      const p = await tx.query<{ role: string }>('SELECT role FROM backoffice_users WHERE name = $1 AND disabled_at IS NULL', [row.proposed_by]);
      const role = BackofficeRole.safeParse(p.rows[0]?.role);
      if (!role.success || !permissionsOf(role.data).includes('table-config'))
        throw new ConfigRequestError(
          409,
          'proposer-gone',
          'the person who proposed this may no longer propose it (another role, or disabled): withdraw it, and propose it again',
        );
    }
    const steps = await tx.query<{ step: string }>("SELECT step FROM config_request_steps WHERE request_id = $1 AND step IN ('approved', 'withdrawn')", [id]);
    if (steps.rows.length > 0) throw new ConfigRequestError(409, 'decided', `the request is already ${steps.rows[0]?.step}`);
    await tx.query('INSERT INTO config_request_steps (request_id, step, by_name) VALUES ($1, $2, $3)', [id, step, by]);
    await audit(tx, { actor: by, address, action: step === 'approved' ? 'config.approve' : 'config.withdraw', detail: { request: id } });
  });
  const done = await one(db, id);
  if (!done) throw new ConfigRequestError(404, 'no-request', 'no such request');
  return done;
}

/**
 * A request's order as the table reads it (host/floor/remote-config.ts, ConfigOrder): v2 names the
 * currency of its amounts, which the table refuses in another; v1, as ever, none (a request proposed
 * before migration 19, of a setting with no amounts, or of a table that never named its currency).
 */
function orderText(r: ConfigRequest, terminal: string, x: Pick<Row, 'currency' | 'currency_exponent'>): string {
  const currency = x.currency === null || x.currency_exponent === null ? null : { code: x.currency, exponent: Number(x.currency_exponent) };
  return JSON.stringify({
    v: currency ? 2 : 1,
    id: r.id,
    terminalId: terminal,
    key: r.key,
    after: r.after,
    authorisation: r.authorisation,
    proposedBy: r.proposedBy,
    proposedAt: r.proposedAt,
    approvedBy: r.approvedBy,
    approvedAt: r.approvedAt,
    ...(currency ? { currency } : {}),
  });
}

/**
 * The orders a table is to carry out: approved, not withdrawn, not yet answered in its journal.
 * Each one's exact text, which the caller signs. The first delivery is noted (and audited).
 */
export async function ordersFor(sql: Sql, terminal: string): Promise<string[]> {
  const r = await sql.query<Row>(
    `${SELECT} WHERE r.terminal_id = $1 AND a.by_name IS NOT NULL AND w.by_name IS NULL AND NOT EXISTS (SELECT 1 FROM journal j WHERE ${ANSWERS})
     ORDER BY r.id LIMIT 50`,
    [terminal],
  );
  const texts: string[] = [];
  for (const x of r.rows) {
    const order = shape(x, null);
    if (order.deliveredAt === null) {
      const fresh = await sql.query(
        "INSERT INTO config_request_steps (request_id, step) VALUES ($1, 'delivered') ON CONFLICT (request_id, step) DO NOTHING RETURNING id",
        [order.id],
      );
      if (fresh.rows.length > 0) await audit(sql, { actor: null, address: null, action: 'config.deliver', detail: { request: order.id, terminal } });
    }
    texts.push(orderText(order, terminal, x));
  }
  return texts;
}
