import { CREATE_AFT_TRANSFERS, rebuildAftTransfers } from './aft-index.js';
import type Database from 'better-sqlite3';
import { rebuildRecall } from './recall.js';

/**
 * Numbered migrations; `PRAGMA user_version` holds the last one applied. Each runs in its own
 * transaction together with the version bump, so a crash leaves the database at N or N+1, never
 * between. Append new migrations at the end; never edit one that has shipped.
 */
export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'journal and postings',
    up(db) {
      db.exec(`
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

        -- One row per entry. body is the canonical JSON that was hashed, byte for byte.
        CREATE TABLE journal (
          seq INTEGER PRIMARY KEY,
          ts TEXT NOT NULL,
          tz_offset_min INTEGER NOT NULL,
          type TEXT NOT NULL,
          tx_id TEXT UNIQUE,
          round_id TEXT,
          body TEXT NOT NULL,
          content_hash TEXT NOT NULL,
          prev_hash TEXT NOT NULL,
          hash TEXT NOT NULL UNIQUE
        ) STRICT;
        CREATE INDEX journal_round ON journal(round_id) WHERE round_id IS NOT NULL;
        CREATE INDEX journal_type ON journal(type);

        -- Postings are written before their journal row (the foreign key is checked at COMMIT),
        -- so the journal's insert trigger can refuse an entry whose postings do not balance.
        CREATE TABLE postings (
          seq INTEGER NOT NULL REFERENCES journal(seq) DEFERRABLE INITIALLY DEFERRED,
          line INTEGER NOT NULL,
          account TEXT NOT NULL,
          amount INTEGER NOT NULL CHECK (amount <> 0),
          PRIMARY KEY (seq, line)
        ) STRICT;
        CREATE INDEX postings_account ON postings(account);

        CREATE TRIGGER journal_balanced BEFORE INSERT ON journal
        WHEN (SELECT COALESCE(SUM(amount), 0) FROM postings WHERE seq = NEW.seq) <> 0
        BEGIN SELECT RAISE(ABORT, 'ledger: postings do not balance'); END;
        CREATE TRIGGER journal_contiguous BEFORE INSERT ON journal
        WHEN NEW.seq <> COALESCE((SELECT MAX(seq) FROM journal), 0) + 1
        BEGIN SELECT RAISE(ABORT, 'ledger: journal sequence must be contiguous'); END;
        CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal
        BEGIN SELECT RAISE(ABORT, 'ledger: the journal is append-only'); END;
        CREATE TRIGGER journal_no_delete BEFORE DELETE ON journal
        BEGIN SELECT RAISE(ABORT, 'ledger: the journal is append-only'); END;
        CREATE TRIGGER postings_late BEFORE INSERT ON postings
        WHEN EXISTS (SELECT 1 FROM journal WHERE seq = NEW.seq)
        BEGIN SELECT RAISE(ABORT, 'ledger: postings of a journalled entry are final'); END;
        CREATE TRIGGER postings_no_update BEFORE UPDATE ON postings
        BEGIN SELECT RAISE(ABORT, 'ledger: postings are append-only'); END;
        CREATE TRIGGER postings_no_delete BEFORE DELETE ON postings
        BEGIN SELECT RAISE(ABORT, 'ledger: postings are append-only'); END;
      `);
    },
  },
  {
    version: 2,
    name: 'balances and meters',
    up(db) {
      db.exec(`
        CREATE TABLE balances (account TEXT PRIMARY KEY, balance INTEGER NOT NULL) STRICT;
        -- scope is 'table' or 'station:N'; last_seq is the entry that last changed the meter.
        CREATE TABLE meters (
          scope TEXT NOT NULL,
          name TEXT NOT NULL,
          value INTEGER NOT NULL CHECK (value >= 0),
          last_seq INTEGER NOT NULL REFERENCES journal(seq),
          PRIMARY KEY (scope, name)
        ) STRICT;
        CREATE TRIGGER meters_monotonic BEFORE UPDATE ON meters
        WHEN NEW.value < OLD.value
          AND (SELECT type FROM journal WHERE seq = NEW.last_seq) IS NOT 'meter.clear'
        BEGIN SELECT RAISE(ABORT, 'ledger: a meter goes down only by an authorised meter.clear'); END;
        CREATE TRIGGER meters_no_delete BEFORE DELETE ON meters
        BEGIN SELECT RAISE(ABORT, 'ledger: meters are cleared to zero, never deleted'); END;

        INSERT INTO balances (account, balance)
          SELECT account, SUM(amount) FROM postings GROUP BY account;
        INSERT INTO meters (scope, name, value, last_seq)
          SELECT json_extract(m.value, '$[0]'), json_extract(m.value, '$[1]'),
                 SUM(json_extract(m.value, '$[2]')), MAX(j.seq)
          FROM journal j, json_each(j.body, '$.meters') m
          GROUP BY 1, 2;
      `);
    },
  },
  {
    version: 3,
    name: 'game recall',
    up(db) {
      db.exec(`
        -- Bets of rounds not yet settled or voided, and each station's credit before its first bet.
        CREATE TABLE round_bets (
          round_id TEXT NOT NULL,
          station INTEGER NOT NULL,
          seq INTEGER NOT NULL REFERENCES journal(seq),
          amount INTEGER NOT NULL,
          credit_before INTEGER NOT NULL,
          PRIMARY KEY (round_id, station, seq)
        ) STRICT;
        CREATE TABLE rounds (
          round_id TEXT PRIMARY KEY,
          table_id TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('settled', 'void')),
          seq INTEGER NOT NULL UNIQUE REFERENCES journal(seq),
          ts TEXT NOT NULL,
          record TEXT NOT NULL
        ) STRICT;
        CREATE INDEX rounds_table ON rounds(table_id, seq);
        CREATE TABLE round_stations (
          round_id TEXT NOT NULL REFERENCES rounds(round_id),
          station INTEGER NOT NULL,
          seq INTEGER NOT NULL,
          PRIMARY KEY (station, seq, round_id)
        ) STRICT;
      `);
      // The rows are derived from the journal; a database migrated from version 2 rebuilds them.
      rebuildRecall(db);
    },
  },
  {
    version: 4,
    name: 'outbox and sync anchor',
    up(db) {
      db.exec(`
        -- Filled in the same transaction as each journal entry; rows leave when the upstream acks.
        CREATE TABLE outbox (seq INTEGER PRIMARY KEY REFERENCES journal(seq), queued_at TEXT NOT NULL) STRICT;
        -- The sync anchor: the highest contiguous sequence the upstream acknowledged and its hash.
        CREATE TABLE sync_state (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          acked_seq INTEGER NOT NULL,
          acked_hash TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          last_error TEXT,
          last_error_at TEXT,
          last_success_at TEXT
        ) STRICT;
        INSERT INTO outbox (seq, queued_at) SELECT seq, ts FROM journal;
      `);
    },
  },
  {
    version: 5,
    name: 'checkpoints',
    up(db) {
      db.exec(`
        -- A signed statement of the state after entry seq (ledger/checkpoint.ts): the head hash,
        -- balances, meters, open bets and, when the table gave it, the table's folded state. A
        -- start verifies the newest one's signature and then only the entries after it.
        CREATE TABLE checkpoints (
          seq INTEGER PRIMARY KEY REFERENCES journal(seq),
          hash TEXT NOT NULL,
          written_at TEXT NOT NULL,
          has_table INTEGER NOT NULL CHECK (has_table IN (0, 1)),
          state TEXT NOT NULL,
          signature TEXT NOT NULL
        ) STRICT;
        CREATE INDEX checkpoints_table ON checkpoints(seq) WHERE has_table = 1;
        CREATE TRIGGER checkpoints_no_update BEFORE UPDATE ON checkpoints
        BEGIN SELECT RAISE(ABORT, 'ledger: a checkpoint is final'); END;
        CREATE TRIGGER checkpoints_no_delete BEFORE DELETE ON checkpoints
        BEGIN SELECT RAISE(ABORT, 'ledger: a checkpoint is final'); END;
      `);
      // Nothing to backfill: the first start after this migration verifies the whole journal
      // (there is no checkpoint yet) and writes the first one.
    },
  },
  {
    version: 6,
    name: 'refused notes',
    up() {
      // No table changes. From this version the journal may hold `bill.refused` entries (the
      // host's credit rule, host/devices/credit-rule/) and `bill.credit` entries naming the
      // station agent's message (`ref`), which the code before it cannot derive again: it
      // refuses the file as newer (NewerSchemaError) instead of failing its verification and
      // halting the table on a ledger-integrity fault.
    },
  },
  {
    version: 7,
    name: 'cashbox drops',
    up() {
      // No table changes: from this version the journal may hold `cashbox.drop` entries (the drop
      // count's reconciliation against the credits, host/floor/cashbox-drop.ts), which the code
      // before it cannot derive; it refuses the file as newer rather than fail to verify it.
    },
  },
  {
    version: 8,
    name: 'transfers',
    up() {
      // No table changes: from this version the journal may hold the entries of a station's
      // credit moved between table hosts (`transfer.*`, docs/transfers.md), which the code before
      // it cannot derive; it refuses the file as newer rather than fail to verify it.
    },
  },
  {
    version: 9,
    name: 'validation numbers',
    up(db) {
      // SAS long poll 0x58 asks whether the casino system's validation number was seen before
      // (ledger/system-validation-queries.ts, validationNumberSeen): an index of the number over
      // the only two entry types that carry it, so the answer is a lookup, not a scan of them all.
      // The expression and the WHERE are the query's own, word for word (SQLite uses a partial
      // index on an expression only for the same expression under a WHERE that implies its own).
      db.exec(CREATE_VALIDATION_INDEX);
    },
  },
  {
    version: 10,
    name: 'aft transfers',
    up(db) {
      // SAS long poll 0x72's interrogation (FE/FF, ledger/aft-queries.ts) names a transfer by its
      // position among the station's transfers, with its direction's cumulative amount: a row per
      // `aft.in`/`aft.out` entry keeps both (ledger/aft-index.ts), so the answer is a lookup and not
      // a count and a sum over every AFT entry for each row asked. The rows of the journal before it.
      db.exec(CREATE_AFT_TRANSFERS);
      rebuildAftTransfers(db);
    },
  },
  {
    version: 11,
    name: 'escrows and handpays resolved',
    up(db) {
      // Every note credited or returned asks whether its escrow is already resolved, and every
      // handpay confirmed whether it was paid before: without an index each read every credit and
      // return (or confirm) ever journalled, by their type's index and the body's JSON, on the
      // host's one thread inside the append (a review: 67 ms a note at 10,000 notes, growing by
      // about 6.5 µs for each one journalled, where the append's fsync costs about 4). As
      // migration 9: the expression and the WHERE are the queries' own, word for word.
      db.exec(CREATE_ESCROW_INDEX);
      db.exec(CREATE_HANDPAY_CONFIRM_INDEX);
    },
  },
  {
    version: 12,
    name: 'ticket entries by station',
    up(db) {
      // A station's ticket recall (the player's, ledger/ticket-log.ts) asks for the station's
      // newest ticket entries: without an index SQLite reads every ticket entry of the table, each
      // body's JSON, and stops only at the limit, so a quiet station's recall walks them all, on the
      // host's one thread (a review: 184 ms on a 30-day journal). The station and seq over the
      // ticket entries only: the station's newest are the index's last rows under its number. As
      // migration 9: the expression and the WHERE are the query's own, word for word.
      db.exec(CREATE_TICKET_STATION_INDEX);
    },
  },
  {
    version: 13,
    name: 'entries by time',
    up(db) {
      // The service screen's event log asked for a time window read, in seq order, every entry
      // newer than the window (all of them when fewer than a page matched): 125 ms at 300,000
      // entries, on the host's one thread, at every change of the table while the page was open.
      // Ordered by time (ledger/event-log.ts), the window is a walk back from its newest row here.
      // `ts` is one of the columns no hash covers: a start compares it with its body
      // (ledger/row-columns.ts) as before.
      db.exec(CREATE_TS_INDEX);
    },
  },
  {
    version: 14,
    name: 'refused returns',
    up() {
      // No table changes: from this version the journal may hold `bill.refused` entries whose
      // claim is `return` (a note said to be back with the customer that is not its escrow's
      // note, host/devices/credit-rule/verdict.ts), which the code before it cannot read; it
      // refuses the file as newer rather than fail to verify it.
    },
  },
];

/** The validation number of the entries that carry one (migration 9's index; validationNumberSeen's query). */
export const VALIDATION_KEY = "json_extract(body, '$.payload.validation')";
export const VALIDATION_TYPES = "type IN ('ticket.validation.end', 'ticket.redeem.request')";
/** Migration 9's index, as it made it (the 0x58 benchmark makes it again after its baseline). */
export const CREATE_VALIDATION_INDEX = `CREATE INDEX journal_validation ON journal(${VALIDATION_KEY}) WHERE ${VALIDATION_TYPES}`;

/** The escrow a note's credit or return resolves (migration 11's index; the escrow's lookup in an append and in a replay). */
export const ESCROW_KEY = "json_extract(body, '$.payload.escrowSeq')";
export const ESCROW_TYPES = "type IN ('bill.credit', 'bill.return')";
export const CREATE_ESCROW_INDEX = `CREATE INDEX journal_escrow ON journal(${ESCROW_KEY}) WHERE ${ESCROW_TYPES}`;
/** Whether the escrow at `?` (its `bill.escrow` seq) is credited or returned: a lookup in `journal_escrow`. */
export const ESCROW_RESOLVED_SQL = `SELECT 1 FROM journal WHERE ${ESCROW_TYPES} AND ${ESCROW_KEY} = ?`;
/** The request a `handpay.confirm` pays (migration 11's index). */
export const HANDPAY_CONFIRM_KEY = "json_extract(body, '$.payload.requestTxId')";
export const HANDPAY_CONFIRM_TYPES = "type = 'handpay.confirm'";
export const CREATE_HANDPAY_CONFIRM_INDEX = `CREATE INDEX journal_handpay_confirm ON journal(${HANDPAY_CONFIRM_KEY}) WHERE ${HANDPAY_CONFIRM_TYPES}`;
/** The confirm of the handpay requested with the transaction id `?`, if any: a lookup in `journal_handpay_confirm`. */
export const HANDPAY_CONFIRMED_SQL = `SELECT seq FROM journal WHERE ${HANDPAY_CONFIRM_TYPES} AND ${HANDPAY_CONFIRM_KEY} = ?`;

/** The station of a ticket entry (migration 12's index; a station's ticket recall). */
export const TICKET_STATION_KEY = "json_extract(body, '$.payload.station')";
/**
 * The ticket entry types (terms/ticket-terms.ts, TICKET_ENTRY_TYPES), spelled out: the index's
 * WHERE is fixed when it ships, and SQLite uses a partial index only for literals that imply it
 * (bound parameters do not). A type added there fails the migrations test until a migration adds it.
 */
export const TICKET_TYPES =
  "type IN ('ticket.issue', 'ticket.printed', 'ticket.void', 'ticket.redeem.request', 'ticket.redeem.approved', 'ticket.redeem.stacked', 'ticket.redeem.returned')";
export const CREATE_TICKET_STATION_INDEX = `CREATE INDEX journal_ticket_station ON journal(${TICKET_STATION_KEY}, seq) WHERE ${TICKET_TYPES}`;

/** Migration 13's index: the journal by time (the event log's windows, ledger/event-log.ts). */
export const CREATE_TS_INDEX = 'CREATE INDEX journal_ts ON journal(ts)';

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

export class NewerSchemaError extends Error {
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(`ledger database is at schema ${found}, newer than this software supports (${supported}); refusing to open`);
    this.name = 'NewerSchemaError';
  }
}

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies the migrations above `user_version` up to `target`; refuses a newer database. */
export function migrate(db: Database.Database, target = LATEST_VERSION): number[] {
  const current = schemaVersion(db);
  if (current > LATEST_VERSION) throw new NewerSchemaError(current, LATEST_VERSION);
  const applied: number[] = [];
  for (const m of MIGRATIONS) {
    if (m.version <= current || m.version > target) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
    applied.push(m.version);
  }
  return applied;
}
