import type { Db, Sql } from './sql.js';
import { BACKOFFICE_SQL } from './backoffice/schema.js';
import { CONFIG_CREDIT_LIMIT_SQL, CONFIG_CURRENCY_SQL, CONFIG_PROFILE_SQL, CONFIG_REQUESTS_SQL } from './backoffice/config-requests.js';
import { CURRENCY_SPANS_SQL, CURRENCY_WAITING_SQL, TABLE_CURRENCY_SQL } from './table-currency.js';
import { ROUND_INDEX_SQL } from './backoffice/round-evidence.js';
import { TICKET_WORD_ONLY_SQL } from './ticket-word-only.js';
import { REFUSALS_INDEX_SQL } from './tickets.js';
import { TICKET_CONTESTS_SQL } from './ticket-contests.js';
import { LAST_HEALTH_AT_SQL } from './backoffice/report-sync.js';
import { ALARMS_BY_TABLE_SQL } from './backoffice/alarm-acks.js';
import { AUDIT_INDEX_SQL } from './backoffice/audit.js';
import { MISDATED_ENTRIES_SQL } from './ingest/misdated.js';
import { METERS_CURRENCY_SQL } from './ingest/meters-currency.js';
import { METERS_PAGE_INDEX_SQL } from './queries.js';

/** Numbered schema migrations; `schema_migrations` lists those applied. Never edit a shipped one. */
export const UPSTREAM_MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'terminals, journal, heads, alarms',
    sql: `
      CREATE TABLE terminals (
        terminal_id text PRIMARY KEY,
        key bytea NOT NULL,
        enrolled_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      );
      -- One row per terminal, locked FOR UPDATE by each ingest: batches of a terminal are serial.
      CREATE TABLE heads (
        terminal_id text PRIMARY KEY REFERENCES terminals,
        seq bigint NOT NULL,
        hash text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE journal (
        terminal_id text NOT NULL REFERENCES terminals,
        seq bigint NOT NULL CHECK (seq > 0),
        type text NOT NULL,
        tx_id text,
        ts timestamptz NOT NULL,
        content_hash text NOT NULL,
        prev_hash text NOT NULL,
        hash text NOT NULL,
        body text NOT NULL,
        doc jsonb NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (terminal_id, seq)
      );
      CREATE INDEX journal_type ON journal (terminal_id, type, seq);
      CREATE UNIQUE INDEX journal_tx ON journal (terminal_id, tx_id) WHERE tx_id IS NOT NULL;
      CREATE TABLE alarms (
        id bigserial PRIMARY KEY,
        terminal_id text,
        kind text NOT NULL,
        detail jsonb NOT NULL,
        raised_at timestamptz NOT NULL DEFAULT now(),
        cleared_at timestamptz
      );
    `,
  },
  {
    version: 2,
    name: 'meters projection',
    sql: `
      CREATE TABLE meters (
        terminal_id text NOT NULL REFERENCES terminals,
        scope text NOT NULL,
        name text NOT NULL,
        value bigint NOT NULL,
        PRIMARY KEY (terminal_id, scope, name)
      );
      INSERT INTO meters (terminal_id, scope, name, value)
        SELECT j.terminal_id, m->>0, m->>1, SUM((m->>2)::bigint)
        FROM journal j, jsonb_array_elements(j.doc->'meters') m
        GROUP BY 1, 2, 3;
    `,
  },
  {
    version: 3,
    name: 'terminal heartbeat',
    sql: `
      -- The last signed request from a terminal (a heartbeat or a batch), and the health it last reported.
      ALTER TABLE terminals ADD COLUMN last_seen_at timestamptz;
      ALTER TABLE terminals ADD COLUMN last_health jsonb;
    `,
  },
  {
    version: 4,
    name: 'receipt key',
    sql: `
      -- The service's Ed25519 key that signs each acknowledgement's receipt (upstream/receipts.ts),
      -- made at its first start: one row.
      CREATE TABLE receipt_keys (
        id int PRIMARY KEY CHECK (id = 1),
        private_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 5,
    name: 'back office: users, sessions, audit log, alarm acknowledgements, settings',
    sql: BACKOFFICE_SQL,
  },
  {
    version: 6,
    name: 'tickets: the validation authority',
    sql: `
      -- Each table's validation id (SAS's machine validation id): a table makes its tickets'
      -- numbers from it and its own sequence, so two tables never make the same number (docs/tito.md).
      CREATE TABLE ticket_machines (
        machine_id int PRIMARY KEY CHECK (machine_id BETWEEN 1 AND 16777215),
        terminal_id text NOT NULL UNIQUE REFERENCES terminals,
        assigned_at timestamptz NOT NULL DEFAULT now()
      );
      -- One row per ticket issued. 'issued': the credit left the station, the print not yet confirmed;
      -- 'printed': redeemable; 'pending': held by one redemption (redeem_*), approved and not yet
      -- stacked or returned; 'redeemed': paid; 'voided': not printed, the credit given back. Expiry
      -- is read against expires_at, never written by a timer.
      CREATE TABLE tickets (
        validation text PRIMARY KEY CHECK (validation ~ '^[0-9]{18}$'),
        terminal_id text NOT NULL REFERENCES terminals,
        station int NOT NULL,
        machine_id int NOT NULL,
        sequence int NOT NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
        issued_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        state text NOT NULL CHECK (state IN ('issued', 'printed', 'pending', 'redeemed', 'voided')),
        printed_at timestamptz,
        voided_at timestamptz,
        redeem_terminal text REFERENCES terminals,
        redeem_station int,
        redeem_request text,
        pending_at timestamptz,
        redeemed_at timestamptz,
        CHECK ((state IN ('pending', 'redeemed')) = (redeem_request IS NOT NULL AND redeem_terminal IS NOT NULL)),
        UNIQUE (machine_id, sequence)
      );
      CREATE INDEX tickets_outstanding ON tickets (currency, expires_at) WHERE state IN ('issued', 'printed', 'pending');
      -- Every attempt to redeem, by the table that asked and its request id: answered once, the same
      -- answer again when asked again; 'returned' before any answer (a cancel or the journal's
      -- ticket.redeem.returned) refuses a late approval.
      CREATE TABLE ticket_redemptions (
        terminal_id text NOT NULL REFERENCES terminals,
        request_id text NOT NULL,
        validation text NOT NULL,
        station int NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('approved', 'refused', 'stacked', 'returned')),
        reason text,
        amount bigint,
        asked_at timestamptz NOT NULL DEFAULT now(),
        closed_at timestamptz,
        PRIMARY KEY (terminal_id, request_id)
      );
      CREATE INDEX ticket_redemptions_validation ON ticket_redemptions (validation, asked_at);
    `,
  },
  {
    version: 7,
    name: 'back office: configuration requests approved by a second person',
    sql: CONFIG_REQUESTS_SQL,
  },
  {
    version: 8,
    name: "each table's currency (ISO 4217 code and minor-unit exponent), from its heartbeat",
    sql: TABLE_CURRENCY_SQL,
  },
  {
    version: 9,
    name: 'back office: a configuration request may change the rule profile',
    sql: CONFIG_PROFILE_SQL,
  },
  {
    version: 10,
    name: "the journal indexed by round id (a round's evidence bundle)",
    sql: ROUND_INDEX_SQL,
  },
  {
    version: 11,
    name: "tickets registered on their table's word alone, until its journal says the same",
    sql: TICKET_WORD_ONLY_SQL,
  },
  {
    version: 12,
    name: "a table's refused redemptions indexed by when they were asked (the limit on guessed numbers)",
    sql: REFUSALS_INDEX_SQL,
  },
  {
    version: 13,
    name: "each table's currency by journal seq (a report labels each entry by the currency it was journalled in)",
    sql: CURRENCY_SPANS_SQL,
  },
  {
    version: 14,
    name: 'when each table last sent its heartbeat (a report is complete only past it)',
    sql: LAST_HEALTH_AT_SQL,
  },
  {
    version: 15,
    name: 'where a change of currency waiting for a person begins',
    sql: CURRENCY_WAITING_SQL,
  },
  {
    version: 16,
    name: "the alarms by table, newest first (the back office's list)",
    sql: ALARMS_BY_TABLE_SQL,
  },
  {
    version: 17,
    name: "entries dated before their table's last nothing-unsent heartbeat or ahead of their receipt (a complete day changed)",
    sql: MISDATED_ENTRIES_SQL,
  },
  {
    version: 18,
    name: 'back office: a configuration request may change the station credit limit',
    sql: CONFIG_CREDIT_LIMIT_SQL,
  },
  {
    version: 19,
    name: "back office: a configuration request keeps the currency of its amounts (the table's when proposed)",
    sql: CONFIG_CURRENCY_SQL,
  },
  {
    version: 20,
    name: "the meters projection per currency (the one in force at each entry's seq): a table that changed currency never adds one to the other",
    sql: METERS_CURRENCY_SQL,
  },
  {
    version: 21,
    name: 'the meters in the order a page of them is read (scope, name, currency)',
    sql: METERS_PAGE_INDEX_SQL,
  },
  {
    version: 22,
    name: "back office: the audit log by action and by actor, newest first (its page's filters)",
    sql: AUDIT_INDEX_SQL,
  },
  {
    version: 23,
    name: 'the numbers a table claimed that its validation id does not make (contested: refused at every table until the cage settles them)',
    sql: TICKET_CONTESTS_SQL,
  },
];

export const UPSTREAM_LATEST = UPSTREAM_MIGRATIONS.at(-1)?.version ?? 0;

export class UpstreamSchemaError extends Error {}

async function applied(sql: Sql): Promise<number> {
  const exists = await sql.query<{ t: string | null }>("SELECT to_regclass('schema_migrations')::text AS t");
  if (!exists.rows[0]?.t) return 0;
  const r = await sql.query<{ v: number | null }>('SELECT MAX(version)::int AS v FROM schema_migrations');
  return r.rows[0]?.v ?? 0;
}

/** Applies pending migrations under an advisory lock (two service instances starting together); refuses a newer schema. */
export async function migrateUpstream(db: Db, target = UPSTREAM_LATEST): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(727274)');
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const current = await applied(tx);
    if (current > UPSTREAM_LATEST) {
      throw new UpstreamSchemaError(`database schema ${current} is newer than this service (${UPSTREAM_LATEST}); refusing to start`);
    }
    const done: number[] = [];
    for (const m of UPSTREAM_MIGRATIONS) {
      if (m.version <= current || m.version > target) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      done.push(m.version);
    }
    return done;
  });
}
