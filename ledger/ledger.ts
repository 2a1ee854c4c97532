import { schemaProblems } from './schema-check.js';
import { LedgerWriteLost, schemaCookie, schemaStillChecked, tellWriteLost, wroteOne } from './write-check.js';
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { canonicalJson, chainHash, genesisHash, sha256Hex } from './canonical.js';
import { ledgerFile, LedgerOpenError, openDatabase } from './db.js';
import { HeadMark } from './head-mark.js';
import { admitEntry, bodyText, derive, roundIdOf, type EntryBody, type LedgerView, type StoredEntry } from './derive.js';
import { account, type EntryType, type NewEntry } from './entries.js';
import { projectBet, projectRound } from './recall.js';
import { projectAftTransfer } from './aft-index.js';
import { parseRecord, stationsOfRecord } from '../terms/round-record.js';
import { checkpointInternals, CHECKPOINT_EVERY, LedgerCheckpoints, type CheckpointSigning } from './ledger-checkpoints.js';
import { LedgerRounds } from './ledger-rounds.js';
import { LedgerRefusal } from './refusal.js';
import { checkpointKeyOf } from './checkpoint-key.js';
import { ESCROW_RESOLVED_SQL, HANDPAY_CONFIRMED_SQL } from './migrations.js';

/**
 * Late-corrected rounds whose record version the ledger keeps by round (`Ledger.#lateVersions`): as
 * many as the stations' recall keeps split (host/screens/station-recall.ts: twice its 10 rounds and
 * 2, 22). Any bound is correct (an older round reads the floor); a trim only costs a re-read.
 */
const LATE_VERSIONS_KEPT = 22;

export interface LedgerOptions {
  /** The kiosk's data folder; the database is `<dataDir>/ledger.sqlite`. */
  dataDir?: string;
  /** Or a database file directly (`:memory:` in tests). */
  file?: string;
  /** This terminal's id: written on first open, and a database of another terminal is refused. */
  terminalId: string;
  /** Injected clock (tests, the benchmarks' replay baseline). */
  clock?: () => Date;
  /** Stop migrating at this version (migration tests only). */
  migrateTo?: number;
  /**
   * A reader's open (the ledger tools: verify, export, evidence, recall, meters, status, backup):
   * a read-only connection, the file at the schema it holds (never migrated: ledger/db.ts), the
   * head mark read and compared but never written, no checkpoint key made, no checkpoint written,
   * and `append` refused. What it verifies is left as it was found.
   */
  readonly?: boolean;
  /**
   * Re-hash the newest entries on open (default true). Only the diagnostic tools (verify,
   * export) turn it off, so that they can still open a damaged ledger and report on it.
   */
  tailCheck?: boolean;
  /**
   * The key that signs checkpoints (ledger/checkpoint.ts). Default: the terminal's key file beside
   * the database (`ledger-checkpoint.key`, created by an open that runs the tail check), or a key
   * of this instance for `:memory:`. `null`: no checkpoint is written or verified.
   */
  checkpointKey?: Buffer | null;
  /** A checkpoint after this many entries since the last one (default 2,000; 0: only when asked). */
  checkpointEvery?: number;
  /**
   * The ledger witness signs this ledger's checkpoints (ledger/witness-link.ts), not a key file:
   * none is made or read, and no checkpoint is written or believed until a witness is attached.
   */
  witnessed?: boolean;
}

export { ANY_WITNESS_SIGNATURE_PREFIX, CHECKPOINT_EVERY, WITNESS_SIGNATURE_PREFIX, type LedgerWitnessView, type TableSnapshot } from './ledger-checkpoints.js';
export type { LedgerCheckpoints } from './ledger-checkpoints.js';
export type { LedgerRounds } from './ledger-rounds.js';

/** What was journalled. */
export interface JournalEntry {
  seq: number;
  ts: string;
  tzOffsetMin: number;
  type: EntryType;
  txId: string | null;
  roundId: string | null;
  body: string;
  contentHash: string;
  prevHash: string;
  hash: string;
}

export type { EntryBody } from './derive.js';
export { LedgerRefusal } from './refusal.js';

export type AppendResult =
  | { status: 'appended'; entry: JournalEntry }
  /** The transaction id was already journalled with the same content: nothing was written. */
  | { status: 'duplicate'; entry: JournalEntry };

/** Entries re-hashed at every open. */
const TAIL_CHECK = 256;

/** A journal row as SQLite stores it (the ledger's query modules map it with `rowToEntry`). */
export interface JournalRow {
  seq: number;
  ts: string;
  tz_offset_min: number;
  type: string;
  tx_id: string | null;
  round_id: string | null;
  body: string;
  content_hash: string;
  prev_hash: string;
  hash: string;
}

export function rowToEntry(r: JournalRow): JournalEntry {
  return {
    seq: r.seq,
    ts: r.ts,
    tzOffsetMin: r.tz_offset_min,
    type: r.type as EntryType,
    txId: r.tx_id,
    roundId: r.round_id,
    body: r.body,
    contentHash: r.content_hash,
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}

// Set once by the class's static block, the one place that may read its private connection.
let reachConnection: (ledger: Ledger) => Database.Database;

/** The checkpoint key or witness (ledger/checkpoint.ts), and how verification vouches for the state (ledger/verify.ts). */
export function internalsOf(ledger: Ledger): ReturnType<typeof checkpointInternals> {
  return checkpointInternals(ledger.checkpoints);
}

/**
 * The connection, for the ledger's own modules: the query files, the reader and the test-only
 * tools of `ledger/testing/`. Not exported by `ledger/index.ts`, and tests/lint/ledger-private
 * fails on any use of it outside ledger/: everyone else calls a named query.
 */
export function connectionOf(ledger: Ledger): Database.Database {
  return reachConnection(ledger);
}

/**
 * The kiosk's ledger: one writer, one SQLite database per terminal. Every append validates the
 * payload, derives the postings (which must balance), the meter deltas and the credits before
 * and after, writes them with the journal row, the projections (balances, meters, recall) and
 * the outbox row in ONE transaction, and returns only after the durable commit.
 */
export class Ledger {
  // Private so that the schema is ledger/'s alone (docs/ledger.md "The schema is private"). Only
  // Truly private (`#`): nothing outside ledger/ reaches the connection, at compile or run time.
  readonly #db: Database.Database;
  readonly terminalId: string;
  readonly file: string;
  private readonly clock: () => Date;
  private head: { seq: number; hash: string };
  /**
   * Per station, a number that changes whenever a round it played in is recorded: a screen
   * caches its recall until it moves. Counted in this process only (a reader's cache starts
   * empty with it); a transaction rolled back after counting only costs a re-read.
   */
  readonly #recallVersions = new Map<number, number>();
  #recallTick = 0;
  /**
   * Per closed round with an entry journalled under it after its close (a late correction), the
   * recall tick of the last: its record changed then. The newest `LATE_VERSIONS_KEPT` corrected
   * rounds only, oldest correction first (issue 52: it grew by every corrected round for the life
   * of the process); a round not in it reads `#lateFloor`.
   */
  readonly #lateVersions = new Map<string, number>();
  /**
   * The tick of the last correction trimmed from `#lateVersions` (0 before any): a round not in it
   * reads this. A round trimmed reads its own last tick still (it was the oldest, so the floor is
   * its tick), the floor only rises, and a new correction's tick is past it: each round's record
   * version never falls and moves at each entry under it, as a reader keeping a split needs (a
   * round never corrected moves with the floor, at each trim: past the bound, at each late
   * correction, its split is redone once; a cost, never a stale split).
   */
  #lateFloor = 0;
  private readonly stmt: ReturnType<Ledger['prepare']>;
  #closed = false;
  /** SQLite's schema cookie when the schema was last found the migrations' (`schemaStillChecked`). */
  #schemaChecked: number | null = null;
  /** Opened read-only (`LedgerOptions.readonly`): appends are refused. */
  readonly #readonly: boolean;
  /** The head kept outside the database (a lost WAL is noticed at the next open); null for `:memory:`, diagnostic opens and readers. */
  #mark: HeadMark | null = null;
  /** Its signed checkpoints: the state after an entry, from which a start verifies and folds. */
  readonly checkpoints: LedgerCheckpoints;
  /** The rounds it recorded, as recall reads them. */
  readonly rounds: LedgerRounds;

  static {
    reachConnection = (ledger) => ledger.#db;
  }

  static open(options: LedgerOptions): Ledger {
    const file = options.file ?? (options.dataDir ? ledgerFile(options.dataDir) : undefined);
    if (!file) throw new TypeError('Ledger.open needs dataDir or file');
    const readonly = options.readonly ?? false;
    const db = openDatabase(file, { readonly, ...(options.migrateTo !== undefined ? { migrateTo: options.migrateTo } : {}) });
    try {
      const tailCheck = options.tailCheck ?? true;
      // Witnessed: no key file beside the database is made or believed (docs/ledger.md, "The witness").
      const key = options.witnessed
        ? null
        : options.checkpointKey !== undefined
          ? options.checkpointKey
          : file === ':memory:'
            ? randomBytes(32)
            : checkpointKeyOf(db, file, tailCheck && !readonly);
      return new Ledger(db, file, options.terminalId, options.clock ?? (() => new Date()), tailCheck ? (readonly ? 'read' : 'own') : 'none', {
        key,
        witnessed: options.witnessed ?? false,
        every: options.checkpointEvery ?? CHECKPOINT_EVERY,
      });
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /**
   * `tailCheck`: `own`, the writer's start (schema, tail and head mark checked, the mark kept from
   * then on); `read`, a reader's (the same checks, the mark only read); `none`, a diagnostic open.
   */
  private constructor(
    db: Database.Database,
    file: string,
    terminalId: string,
    clock: () => Date,
    tailCheck: 'own' | 'read' | 'none',
    checkpoints: CheckpointSigning,
  ) {
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(terminalId)) throw new LedgerOpenError(`bad terminal id "${terminalId}"`);
    this.#db = db;
    this.file = file;
    this.clock = clock;
    const stored = db.prepare("SELECT value FROM meta WHERE key = 'terminal_id'").get() as { value: string } | undefined;
    if (stored && stored.value !== terminalId) {
      throw new LedgerOpenError(`this ledger belongs to terminal ${stored.value}, not ${terminalId}`);
    }
    if (!stored) db.prepare("INSERT INTO meta (key, value) VALUES ('terminal_id', ?)").run(terminalId);
    this.#readonly = db.readonly;
    this.terminalId = terminalId;
    this.stmt = this.prepare();
    const last = this.stmt.head.get() as { seq: number; hash: string } | undefined;
    this.head = last ?? { seq: 0, hash: genesisHash(terminalId) };
    this.rounds = new LedgerRounds(
      db,
      (station) => this.#recallVersions.get(station) ?? 0,
      () => this.#recallTick,
      (tick) => [...this.#recallVersions].flatMap(([station, version]) => (version > tick ? [station] : [])),
      (roundId) => this.#lateVersions.get(roundId) ?? this.#lateFloor,
    );
    this.checkpoints = new LedgerCheckpoints(
      {
        db,
        terminalId,
        clock,
        head: () => this.headOf(),
        markCheckpointed: () => this.#mark?.write(this.head, true),
        closed: () => this.#closed,
      },
      checkpoints,
    );
    if (tailCheck !== 'none') {
      // The schema as its migrations make it: a dropped append-only trigger stops the start
      // (ledger/schema-check.ts; `etg ledger verify` runs the same check).
      const schema = schemaProblems(db);
      if (schema.length > 0) throw new LedgerOpenError(`ledger integrity failure: ${schema.join('; ')}`);
      this.#schemaChecked = schemaCookie(db);
      this.checkTail();
      // Writers only: a diagnostic open (tailCheck off) must still open a rolled-back ledger to report on it.
      const mark = HeadMark.of(file);
      mark?.check(this.head, (seq) => (this.stmt.bySeq.get(seq) as JournalRow | undefined)?.hash);
      // A reader leaves the mark as it found it (a verification must not change what it verifies).
      if (tailCheck === 'own') {
        mark?.write(this.head, true);
        this.#mark = mark;
      }
    }
  }

  /**
   * A cheap start-up check of the newest entries (the full one is `verifyLedger`): their bodies
   * hash to their content hashes and the links chain. A failure is a ledger-integrity tilt.
   */
  private checkTail(count = TAIL_CHECK): void {
    const rows = this.#db.prepare('SELECT * FROM journal ORDER BY seq DESC LIMIT ?').all(count + 1) as JournalRow[];
    rows.reverse();
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i] as JournalRow;
      const prev = i > 0 ? (rows[i - 1] as JournalRow).hash : r.seq === 1 ? genesisHash(this.terminalId) : r.prev_hash;
      if (sha256Hex(r.body) !== r.content_hash || r.prev_hash !== prev || chainHash(prev, r.content_hash) !== r.hash) {
        throw new LedgerOpenError(`ledger integrity failure: journal entry ${r.seq} does not match its hash chain`);
      }
    }
  }

  private prepare() {
    const db = this.#db;
    return {
      head: db.prepare('SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1'),
      byTx: db.prepare('SELECT * FROM journal WHERE tx_id = ?'),
      bySeq: db.prepare('SELECT * FROM journal WHERE seq = ?'),
      insertJournal: db.prepare(`INSERT INTO journal (seq, ts, tz_offset_min, type, tx_id, round_id, body, content_hash, prev_hash, hash)
        VALUES (@seq, @ts, @tzOffsetMin, @type, @txId, @roundId, @body, @contentHash, @prevHash, @hash)`),
      insertPosting: db.prepare('INSERT INTO postings (seq, line, account, amount) VALUES (?, ?, ?, ?)'),
      balance: db.prepare('SELECT balance FROM balances WHERE account = ?'),
      addBalance: db.prepare(`INSERT INTO balances (account, balance) VALUES (?, ?)
        ON CONFLICT(account) DO UPDATE SET balance = balance + excluded.balance`),
      // Not an upsert: SQLite checks `value >= 0` on the proposed row before resolving the
      // conflict, which would refuse a clear's negative delta.
      bumpMeter: db.prepare('UPDATE meters SET value = value + ?, last_seq = ? WHERE scope = ? AND name = ?'),
      newMeter: db.prepare('INSERT INTO meters (scope, name, value, last_seq) VALUES (?, ?, ?, ?)'),
      metersOf: db.prepare('SELECT name, value FROM meters WHERE scope = ? ORDER BY name'),
      roundBets: db.prepare('SELECT station, SUM(amount) AS amount, MIN(seq) AS first FROM round_bets WHERE round_id = ? GROUP BY station ORDER BY station'),
      creditBefore: db.prepare('SELECT credit_before FROM round_bets WHERE round_id = ? AND station = ? ORDER BY seq LIMIT 1'),
      roundClosed: db.prepare('SELECT 1 FROM rounds WHERE round_id = ?'),
      recordOf: db.prepare('SELECT record FROM rounds WHERE round_id = ?'),
      escrowResolved: db.prepare(ESCROW_RESOLVED_SQL),
      confirmOf: db.prepare(HANDPAY_CONFIRMED_SQL),
      outbox: db.prepare('INSERT INTO outbox (seq, queued_at) VALUES (?, ?)'),
    };
  }

  close(): void {
    this.#closed = true;
    this.#mark?.close();
    this.#db.close();
  }

  /** The last journalled sequence and hash. */
  headOf(): { seq: number; hash: string } {
    return { ...this.head };
  }

  /** Appends one entry (see `appendMany`). */
  append(entry: NewEntry): AppendResult {
    const [r] = this.appendMany([entry]);
    if (!r) throw new Error('unreachable');
    return r;
  }

  /**
   * Appends entries in one durable transaction: all are written or none. An entry whose
   * transaction id is already journalled with identical type and payload is a duplicate and
   * writes nothing; the same id with other content is refused (and so is the whole batch).
   * `then`: entries made from these as written (their seq, ts), appended after them in the same
   * transaction: one that names another by seq or day cannot name it wrongly, whoever else writes.
   */
  appendMany(entries: readonly NewEntry[], then?: (written: readonly AppendResult[]) => readonly NewEntry[]): AppendResult[] {
    if (this.#readonly) throw new LedgerOpenError(`${this.file} was opened read-only (a tool's open): it appends nothing`);
    let head = this.head;
    // IMMEDIATE: the write lock is taken before the head is read. Another process may have appended
    // since this one last did (the service accounts' command line journals while the host runs):
    // the chain goes on from the head the database holds, not from the one this process remembers.
    const results = this.#appendTransaction(() => {
      // A trigger planted by a second connection while this one runs: checked before any row.
      this.#schemaChecked = schemaStillChecked(this.#db, this.#schemaChecked);
      const stored = this.stmt.head.get() as { seq: number; hash: string } | undefined;
      if (stored) head = stored;
      const out: AppendResult[] = [];
      const write = (e: NewEntry) => {
        const r = this.appendOne(e, head, this.clock());
        if (r.status === 'appended') head = { seq: r.entry.seq, hash: r.entry.hash };
        out.push(r);
      };
      entries.forEach(write);
      then?.([...out]).forEach(write);
      return out;
    });
    this.head = head;
    const appended = results.flatMap((r) => (r.status === 'appended' ? [r.entry] : []));
    // Committed: the mark may say so (never before the commit, so it never names an entry the database lacks).
    if (appended.length > 0) {
      try {
        this.#mark?.write(head);
      } catch (e) {
        // Behind the journal, the mark is what a power cut leaves too (docs/ledger.md, "A lost WAL"):
        // the next commit writes it again. The appender is told of the commit it made.
        this.reportAfterCommit(e);
      }
    }
    if (appended.length > 0) this.tellAppended(appended);
    // The entries are committed whatever happens to the checkpoint: it is tried again at the next append.
    if (appended.length > 0) {
      try {
        this.checkpoints.writeIfDue();
      } catch {
        /* a checkpoint not written costs the next start time, never an entry */
      }
    }
    return results;
  }

  private readonly appendedListeners = new Set<(entries: readonly JournalEntry[]) => void>();

  /** An append's IMMEDIATE transaction; a write refused as lost is told to its listeners (`onLedgerWriteLost`) before it is thrown. */
  #appendTransaction<T>(body: () => T): T {
    try {
      return this.#db.transaction(body).immediate();
    } catch (e) {
      if (e instanceof LedgerWriteLost) tellWriteLost(this, e);
      throw e;
    }
  }

  /** Where a commit listener's throw is reported (the host's log); stderr until one is given. */
  private listenerError: (e: unknown) => void = (e) => {
    try {
      process.stderr.write(`ledger: after a commit (the entries are committed): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    } catch {
      // Nowhere left to say it: the entries are committed all the same.
    }
  };

  /**
   * Called after every durable commit with the entries it wrote (never for duplicates), so that
   * whoever mirrors the ledger (the table's credits) hears of entries others wrote. A listener
   * should not throw; one that does is reported (`onListenerError`) and the others still hear:
   * the entries are already committed, and the appender must not think otherwise.
   */
  onAppended(listener: (entries: readonly JournalEntry[]) => void): () => void {
    this.appendedListeners.add(listener);
    return () => this.appendedListeners.delete(listener);
  }

  /** A failure after the commit (a listener, the head mark): reported, never the appender's. */
  private reportAfterCommit(e: unknown): void {
    try {
      this.listenerError(e);
    } catch {
      // A reporter that throws is not the appender's fault either.
    }
  }

  /** Where a failure after a commit (a listener's throw, the head mark's write) goes from now on (the host: its log). */
  onListenerError(report: (e: unknown) => void): void {
    this.listenerError = report;
  }

  /** Each listener hears of the committed entries; one's throw neither reaches the appender nor silences the rest. */
  private tellAppended(appended: readonly JournalEntry[]): void {
    for (const l of this.appendedListeners) {
      try {
        l(appended);
      } catch (e) {
        this.reportAfterCommit(e);
      }
    }
  }

  /** What deriving an entry reads, answered from the database as it stands inside the transaction. */
  readonly #view: LedgerView = {
    credit: (station) => this.credit(station),
    roundClosed: (roundId) => this.stmt.roundClosed.get(roundId) !== undefined,
    roundStakes: (roundId) => this.stmt.roundBets.all(roundId) as { station: number; amount: number }[],
    creditBefore: (roundId, station) => {
      const r = this.stmt.creditBefore.get(roundId, station) as { credit_before: number } | undefined;
      if (!r) throw new Error(`station ${station} has no bet in round ${roundId}`);
      return r.credit_before;
    },
    heldBets: (station) => 0 - this.balance(account.heldBets(station)),
    entryByTx: (txId) => this.stmt.byTx.get(txId) as StoredEntry | undefined,
    handpayPaid: (requestTxId) => this.stmt.confirmOf.get(requestTxId) !== undefined,
    entryAt: (seq) => this.stmt.bySeq.get(seq) as StoredEntry | undefined,
    escrowResolved: (escrowSeq) => this.stmt.escrowResolved.get(escrowSeq) !== undefined,
    meters: (scope) => this.stmt.metersOf.all(scope) as { name: string; value: number }[],
    balance: (acct) => this.balance(acct),
  };

  private appendOne(e: NewEntry, head: { seq: number; hash: string }, now: Date): AppendResult {
    const type = e.type;
    const txId = e.txId;
    const payload = admitEntry(type, e.payload, txId);
    if (txId) {
      const prior = this.stmt.byTx.get(txId) as JournalRow | undefined;
      if (prior) {
        const body = JSON.parse(prior.body) as EntryBody;
        if (prior.type === type && canonicalJson(body.payload) === canonicalJson(payload)) {
          return { status: 'duplicate', entry: rowToEntry(prior) };
        }
        throw new LedgerRefusal('tx-id-conflict', `transaction id ${txId} was journalled at seq ${prior.seq} with other content`);
      }
    }
    const seq = head.seq + 1;
    const d = derive(this.#view, type, payload);
    const ts = now.toISOString();
    const tzOffsetMin = -now.getTimezoneOffset();
    const text = bodyText(this.terminalId, { seq, ts, tzOffsetMin, type, txId }, payload, d);
    const contentHash = sha256Hex(text);
    const hash = chainHash(head.hash, contentHash);

    d.postings.forEach(([acct, amount], i) => wroteOne(this.stmt.insertPosting.run(seq, i, acct, amount), 'postings', seq));
    const entry: JournalEntry = {
      seq,
      ts,
      tzOffsetMin,
      type,
      txId: txId ?? null,
      roundId: roundIdOf(type, payload),
      body: text,
      contentHash,
      prevHash: head.hash,
      hash,
    };
    wroteOne(this.stmt.insertJournal.run(entry), 'journal', seq);
    for (const [acct, amount] of d.postings) wroteOne(this.stmt.addBalance.run(acct, amount), 'balances', seq);
    for (const [scope, name, delta] of d.meters) {
      if (this.stmt.bumpMeter.run(delta, seq, scope, name).changes === 0) wroteOne(this.stmt.newMeter.run(scope, name, delta, seq), 'meters', seq);
    }
    const p = d.projection;
    if (p?.kind === 'bet') projectBet(this.#db, seq, p.roundId, p.station, p.amount, p.creditBefore);
    else if (p?.kind === 'close') {
      for (const s of stationsOfRecord(projectRound(this.#db, seq))) this.#recallVersions.set(s, ++this.#recallTick);
    } else if (type === 'misread' && entry.roundId !== null) {
      // A late entry of a closed round changes what its recall shows.
      const closed = this.stmt.recordOf.get(entry.roundId) as { record: string } | undefined;
      if (closed) {
        for (const s of stationsOfRecord(parseRecord(closed.record))) this.#recallVersions.set(s, ++this.#recallTick);
        // Moved to the newest end, then the oldest correction past the bound trimmed (see `#lateFloor`).
        this.#lateVersions.delete(entry.roundId);
        this.#lateVersions.set(entry.roundId, ++this.#recallTick);
        for (const [oldest, tick] of this.#lateVersions) {
          if (this.#lateVersions.size <= LATE_VERSIONS_KEPT) break;
          this.#lateVersions.delete(oldest);
          this.#lateFloor = tick;
        }
      }
    }
    if (type === 'aft.in' || type === 'aft.out') projectAftTransfer(this.#db, seq, type, payload.station as number, payload.amount as number);
    wroteOne(this.stmt.outbox.run(seq, ts), 'outbox', seq);
    return { status: 'appended', entry };
  }

  /** Balance of an account, with the sign convention of postings (+ debit). */
  balance(acct: string): number {
    return (this.stmt.balance.get(acct) as { balance: number } | undefined)?.balance ?? 0;
  }

  /** A station's credit meter in minor units (a liability, so −balance). */
  credit(station: number): number {
    // `0 - x`, not `-x`: an empty meter is 0, never -0 (which Intl formats as "-MOP 0.00").
    return 0 - this.balance(account.stationCredit(station));
  }

  /** Every account's balance, with the sign convention of postings (accounts never posted to are absent). */
  balances(): Record<string, number> {
    const rows = this.#db.prepare('SELECT account, balance FROM balances ORDER BY account').all() as { account: string; balance: number }[];
    return Object.fromEntries(rows.map((r) => [r.account, r.balance]));
  }

  /** Every station's credit meter (stations never credited are absent). */
  stationCredits(): Record<number, number> {
    const rows = this.#db.prepare("SELECT account, balance FROM balances WHERE account LIKE 'station:%:credit'").all() as {
      account: string;
      balance: number;
    }[];
    return Object.fromEntries(rows.map((r) => [Number(r.account.split(':')[1]), 0 - r.balance]));
  }

  /**
   * An online, consistent copy through SQLite's backup API (copying the files of a live WAL
   * database can give a corrupt copy). The copy opens as a ledger of the same terminal.
   */
  async backup(file: string): Promise<void> {
    await this.#db.backup(file);
  }

  /** Meters of a scope (`table`, `station:N`), or all of them keyed `scope/name`. */
  meters(scope?: string): Record<string, number> {
    const rows = (
      scope
        ? this.#db.prepare('SELECT scope, name, value FROM meters WHERE scope = ? ORDER BY name').all(scope)
        : this.#db.prepare('SELECT scope, name, value FROM meters ORDER BY scope, name').all()
    ) as { scope: string; name: string; value: number }[];
    return Object.fromEntries(rows.map((r) => [scope ? r.name : `${r.scope}/${r.name}`, r.value]));
  }

  entry(seq: number): JournalEntry | undefined {
    const r = this.stmt.bySeq.get(seq) as JournalRow | undefined;
    return r ? rowToEntry(r) : undefined;
  }

  byTxId(txId: string): JournalEntry | undefined {
    const r = this.stmt.byTx.get(txId) as JournalRow | undefined;
    return r ? rowToEntry(r) : undefined;
  }

  /** Entries from `fromSeq` on, in order, read lazily. */
  *entries(fromSeq = 1, toSeq = Number.MAX_SAFE_INTEGER): IterableIterator<JournalEntry> {
    const page = this.#db.prepare('SELECT * FROM journal WHERE seq >= ? AND seq <= ? ORDER BY seq LIMIT 1000');
    let next = fromSeq;
    for (;;) {
      const rows = page.all(next, toSeq) as JournalRow[];
      for (const r of rows) yield rowToEntry(r);
      if (rows.length < 1000) return;
      next = (rows[rows.length - 1]?.seq ?? next) + 1;
    }
  }
}
