import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { canonicalJson, chainHash, genesisHash, sha256Hex } from './canonical.js';
import { ledgerFile, LedgerOpenError, openDatabase } from './db.js';
import { account, MONEY_TYPES, parsePayload, type EntryType, type MeterDelta, type NewEntry, type Payload, type Posting } from './entries.js';
import { parseRecord, projectBet, projectRound, stationsOfRecord, type RoundRecord } from './recall.js';
import { checkpointKey, signCheckpoint } from './sign.js';

export interface LedgerOptions {
  /** The kiosk's data folder; the database is `<dataDir>/ledger.sqlite`. */
  dataDir?: string;
  /** Or a database file directly (`:memory:` in tests). */
  file?: string;
  /** This terminal's id: written on first open, and a database of another terminal is refused. */
  terminalId: string;
  /** Injected clock (tests, replays). */
  clock?: () => Date;
  /** Stop migrating at this version (migration tests only). */
  migrateTo?: number;
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
  /** A checkpoint after this many entries since the last one (default 10,000; 0: only when asked). */
  checkpointEvery?: number;
}

/** The table's folded state as of entry `seq`, for a checkpoint (opaque to the ledger). */
export interface TableSnapshot {
  seq: number;
  /** The game's identity the state was folded under. */
  identity: string;
  state: unknown;
}

/** Entries between checkpoints unless the options say otherwise. */
export const CHECKPOINT_EVERY = 10_000;

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

/** The parsed canonical body of an entry: the caller's payload and what the ledger derived. */
export interface EntryBody {
  v: 1;
  terminal: string;
  seq: number;
  ts: string;
  tzOffsetMin: number;
  type: EntryType;
  txId?: string;
  payload: Record<string, unknown>;
  postings: Posting[];
  meters: MeterDelta[];
  /** [station, credit before, credit after] for every station whose credit this entry concerns. */
  credits?: [number, number, number][];
}

export type AppendResult =
  | { status: 'appended'; entry: JournalEntry }
  /** The transaction id was already journalled with the same content: nothing was written. */
  | { status: 'duplicate'; entry: JournalEntry };

/** A refused entry: nothing of it (nor of its batch) was written. */
export class LedgerRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'LedgerRefusal';
  }
}

/** Entries re-hashed at every open. */
const TAIL_CHECK = 256;

const ROUND_TYPES = new Set<EntryType>(['bet.place', 'round.settle', 'round.void', 'misread', 'card.read', 'round.decision']);

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

function sum(xs: readonly number[]): number {
  let t = 0;
  for (const x of xs) {
    t += x;
    if (!Number.isSafeInteger(t)) throw new LedgerRefusal('overflow', 'amount overflows safe integers');
  }
  return t;
}

// Set once by the class's static block, the one place that may read its private connection.
let reachConnection: (ledger: Ledger) => Database.Database;
let reachInternals: (ledger: Ledger) => { key: Buffer | null; setHead(head: { seq: number; hash: string }): void };

/** The checkpoint key and the head's setter, for ledger/checkpoint.ts and verify.ts (scratch ledgers) only. */
export function internalsOf(ledger: Ledger): { key: Buffer | null; setHead(head: { seq: number; hash: string }): void } {
  return reachInternals(ledger);
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
  private readonly stmt: ReturnType<Ledger['prepare']>;
  readonly #checkpointKey: Buffer | null;
  readonly #checkpointEvery: number;
  #lastCheckpoint = 0;
  #tableSnapshot: (() => TableSnapshot | null) | null = null;

  static {
    reachConnection = (ledger) => ledger.#db;
    reachInternals = (ledger) => ({
      key: ledger.#checkpointKey,
      setHead: (head) => {
        ledger.head = { ...head };
      },
    });
  }

  static open(options: LedgerOptions): Ledger {
    const file = options.file ?? (options.dataDir ? ledgerFile(options.dataDir) : undefined);
    if (!file) throw new TypeError('Ledger.open needs dataDir or file');
    const db = openDatabase(file, options.migrateTo !== undefined ? { migrateTo: options.migrateTo } : {});
    try {
      const tailCheck = options.tailCheck ?? true;
      const key = options.checkpointKey !== undefined ? options.checkpointKey : file === ':memory:' ? randomBytes(32) : checkpointKey(file, tailCheck);
      return new Ledger(db, file, options.terminalId, options.clock ?? (() => new Date()), tailCheck, {
        key,
        every: options.checkpointEvery ?? CHECKPOINT_EVERY,
      });
    } catch (e) {
      db.close();
      throw e;
    }
  }

  private constructor(
    db: Database.Database,
    file: string,
    terminalId: string,
    clock: () => Date,
    tailCheck: boolean,
    checkpoints: { key: Buffer | null; every: number },
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
    this.terminalId = terminalId;
    this.stmt = this.prepare();
    const last = this.stmt.head.get() as { seq: number; hash: string } | undefined;
    this.head = last ?? { seq: 0, hash: genesisHash(terminalId) };
    let key = checkpoints.key;
    this.#checkpointEvery = checkpoints.every;
    // A database stopped before migration 5 (migration tests) has no checkpoints and writes none.
    const hasCheckpoints = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'").get() !== undefined;
    if (!hasCheckpoints) key = null;
    else this.#lastCheckpoint = (db.prepare('SELECT MAX(seq) AS seq FROM checkpoints').get() as { seq: number | null }).seq ?? 0;
    this.#checkpointKey = key;
    if (tailCheck) this.checkTail();
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
      escrowResolved: db.prepare(`SELECT 1 FROM journal WHERE type IN ('bill.credit', 'bill.return')
        AND json_extract(body, '$.payload.escrowSeq') = ?`),
      confirmOf: db.prepare("SELECT seq FROM journal WHERE type = 'handpay.confirm' AND json_extract(body, '$.payload.requestTxId') = ?"),
      outbox: db.prepare('INSERT INTO outbox (seq, queued_at) VALUES (?, ?)'),
    };
  }

  close(): void {
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
   */
  appendMany(entries: readonly NewEntry[]): AppendResult[] {
    let head = this.head;
    const results = this.#db.transaction(() => {
      const out: AppendResult[] = [];
      for (const e of entries) {
        const r = this.appendOne(e, head, this.clock());
        if (r.status === 'appended') head = { seq: r.entry.seq, hash: r.entry.hash };
        out.push(r);
      }
      return out;
    })();
    this.head = head;
    const appended = results.flatMap((r) => (r.status === 'appended' ? [r.entry] : []));
    if (appended.length > 0) for (const l of this.appendedListeners) l(appended);
    // The entries are committed whatever happens to the checkpoint: it is tried again at the next append.
    if (appended.length > 0) {
      try {
        this.checkpointIfDue();
      } catch {
        /* a checkpoint not written costs the next start time, never an entry */
      }
    }
    return results;
  }

  /**
   * The table's state for checkpoints: `snapshot` answers the table's folded state and the seq it
   * stands at (null when it does not stand at a known seq). A checkpoint carries it only when that
   * seq is the head's.
   */
  provideTableSnapshot(snapshot: () => TableSnapshot | null): () => void {
    this.#tableSnapshot = snapshot;
    return () => {
      if (this.#tableSnapshot === snapshot) this.#tableSnapshot = null;
    };
  }

  /**
   * Writes a checkpoint when `checkpointEvery` entries were journalled since the last one: with
   * the table's state when the table stands at the head, else (no table, or twice the interval
   * gone by without one standing still) without it. The table's runtime calls it again once it
   * has applied what it journalled. Returns the seq written, or null.
   */
  checkpointIfDue(): number | null {
    if (this.#checkpointEvery <= 0 || this.#checkpointKey === null) return null;
    const since = this.head.seq - this.#lastCheckpoint;
    if (since < this.#checkpointEvery) return null;
    const snap = this.#tableSnapshot?.() ?? null;
    const table = snap && snap.seq === this.head.seq ? snap : null;
    if (!table && this.#tableSnapshot && since < 2 * this.#checkpointEvery) return null;
    return this.checkpoint(table);
  }

  /**
   * Writes a signed checkpoint of the state after the head entry (ledger/checkpoint.ts): the head
   * hash, every balance, meter and open bet, and the table's state when given (it must stand at
   * the head). Nothing of the journal changes. Returns the seq, or null without a key or entries.
   */
  checkpoint(table: TableSnapshot | null = null): number | null {
    const key = this.#checkpointKey;
    if (key === null || this.head.seq === 0) return null;
    if (table && table.seq !== this.head.seq) throw new Error(`the table's state stands at ${table.seq}, the head at ${this.head.seq}`);
    const db = this.#db;
    const { seq, hash } = this.head;
    const at = this.clock().toISOString();
    const state = JSON.stringify({
      v: 1,
      terminal: this.terminalId,
      seq,
      hash,
      at,
      balances: (db.prepare('SELECT account, balance FROM balances ORDER BY account').all() as { account: string; balance: number }[]).map((r) => [
        r.account,
        r.balance,
      ]),
      meters: (db.prepare('SELECT scope, name, value FROM meters ORDER BY scope, name').all() as { scope: string; name: string; value: number }[]).map((r) => [
        r.scope,
        r.name,
        r.value,
      ]),
      openBets: (
        db.prepare('SELECT round_id, station, seq, amount, credit_before FROM round_bets ORDER BY seq, round_id, station').all() as {
          round_id: string;
          station: number;
          seq: number;
          amount: number;
          credit_before: number;
        }[]
      ).map((r) => [r.round_id, r.station, r.seq, r.amount, r.credit_before]),
      table: table ? { identity: table.identity, state: table.state } : null,
    });
    const signature = signCheckpoint(key, this.terminalId, seq, hash, state);
    const r = db
      .prepare('INSERT OR IGNORE INTO checkpoints (seq, hash, written_at, has_table, state, signature) VALUES (?, ?, ?, ?, ?, ?)')
      .run(seq, hash, at, table ? 1 : 0, state, signature);
    this.#lastCheckpoint = seq;
    return r.changes > 0 ? seq : null;
  }

  // One transaction function for every replay (better-sqlite3 builds one per `transaction()` call).
  readonly #replayTx = (() => {
    let tx: ((entry: NewEntry, ts: string, tzOffsetMin: number) => AppendResult) | null = null;
    return (entry: NewEntry, ts: string, tzOffsetMin: number): AppendResult => {
      tx ??= this.#db.transaction((e: NewEntry, t: string, z: number) => this.appendOne(e, this.head, null, { ts: t, tzOffsetMin: z }));
      return tx(entry, ts, tzOffsetMin);
    };
  })();

  private readonly appendedListeners = new Set<(entries: readonly JournalEntry[]) => void>();

  /**
   * Called after every durable commit with the entries it wrote (never for duplicates), so that
   * whoever mirrors the ledger (the table's credits) hears of entries others wrote. A listener must
   * not throw: the entries are already committed, and the appender must not think otherwise.
   */
  onAppended(listener: (entries: readonly JournalEntry[]) => void): () => void {
    this.appendedListeners.add(listener);
    return () => this.appendedListeners.delete(listener);
  }

  /**
   * Re-derives an entry exactly as it was first written (verification replays the journal into
   * a scratch ledger with this and compares the bytes).
   */
  replay(entry: NewEntry, ts: string, tzOffsetMin: number): JournalEntry {
    const r = this.#replayTx(entry, ts, tzOffsetMin);
    if (r.status === 'appended') this.head = { seq: r.entry.seq, hash: r.entry.hash };
    return r.entry;
  }

  private appendOne(e: NewEntry, head: { seq: number; hash: string }, now: Date | null, at?: { ts: string; tzOffsetMin: number }): AppendResult {
    const type = e.type;
    let payload: Record<string, unknown>;
    try {
      payload = parsePayload(type, e.payload) as Record<string, unknown>;
    } catch (err) {
      throw new LedgerRefusal('invalid-payload', `${type}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const txId = e.txId;
    if (MONEY_TYPES.has(type) && !txId) throw new LedgerRefusal('tx-id-required', `${type} moves credit and needs a transaction id`);
    if (txId !== undefined && !/^[\x21-\x7e]{1,128}$/.test(txId)) throw new LedgerRefusal('bad-tx-id', `bad transaction id "${txId}"`);
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
    const d = this.derive(type, payload, seq);
    const date = now ?? new Date();
    const ts = at?.ts ?? date.toISOString();
    const tzOffsetMin = at?.tzOffsetMin ?? -date.getTimezoneOffset();
    const body: EntryBody = {
      v: 1,
      terminal: this.terminalId,
      seq,
      ts,
      tzOffsetMin,
      type,
      ...(txId ? { txId } : {}),
      payload,
      postings: d.postings,
      meters: d.meters,
      ...(d.credits.length ? { credits: d.credits } : {}),
    };
    const text = canonicalJson(body);
    const contentHash = sha256Hex(text);
    const hash = chainHash(head.hash, contentHash);
    const roundId = ROUND_TYPES.has(type) && typeof payload.roundId === 'string' ? payload.roundId : null;

    d.postings.forEach(([acct, amount], i) => this.stmt.insertPosting.run(seq, i, acct, amount));
    const entry: JournalEntry = {
      seq,
      ts,
      tzOffsetMin,
      type,
      txId: txId ?? null,
      roundId,
      body: text,
      contentHash,
      prevHash: head.hash,
      hash,
    };
    this.stmt.insertJournal.run(entry);
    for (const [acct, amount] of d.postings) this.stmt.addBalance.run(acct, amount);
    for (const [scope, name, delta] of d.meters) {
      if (this.stmt.bumpMeter.run(delta, seq, scope, name).changes === 0) this.stmt.newMeter.run(scope, name, delta, seq);
    }
    d.after?.();
    this.stmt.outbox.run(seq, ts);
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

  private derive(
    type: EntryType,
    payload: Record<string, unknown>,
    seq: number,
  ): {
    postings: Posting[];
    meters: MeterDelta[];
    credits: [number, number, number][];
    after?: () => void;
  } {
    const postings: Posting[] = [];
    const meters: MeterDelta[] = [];
    const credits: [number, number, number][] = [];
    const both = (station: number, name: string, delta: number) => {
      if (delta === 0) return;
      meters.push([`station:${station}`, name, delta], ['table', name, delta]);
    };
    const post = (acct: string, amount: number) => {
      if (amount !== 0) postings.push([acct, amount]);
    };
    const creditChange = (station: number, change: number, before = this.credit(station)) => {
      const after = this.credit(station) + change;
      if (after < 0) throw new LedgerRefusal('insufficient-credit', `station ${station} has ${this.credit(station)}, needs ${-change}`);
      credits.push([station, before, after]);
    };
    switch (type) {
      case 'bill.escrow':
      case 'door.close':
      case 'tilt.raise':
      case 'tilt.clear':
        break;
      // Service mode: journalled, never accounting.
      case 'service.enter':
      case 'service.exit':
      case 'service.denied':
      case 'service.account':
      case 'service.test':
      case 'service.action':
        break;
      case 'bill.return':
        this.checkEscrow(payload as Payload<'bill.return'>);
        break;
      case 'bill.credit': {
        const p = payload as Payload<'bill.credit'>;
        this.checkEscrow(p);
        creditChange(p.station, p.denomination);
        post(account.cashbox(p.station, p.denomination), p.denomination);
        post(account.stationCredit(p.station), -p.denomination);
        both(p.station, `billsIn.${p.denomination}`, 1);
        both(p.station, 'totalBillsIn', p.denomination);
        both(p.station, 'totalIn', p.denomination);
        break;
      }
      case 'bet.place': {
        const p = payload as Payload<'bet.place'>;
        if (this.stmt.roundClosed.get(p.roundId)) throw new LedgerRefusal('round-closed', `round ${p.roundId} is already closed`);
        const total = sum(p.bets.map((b) => b.amount));
        const before = this.credit(p.station);
        creditChange(p.station, -total);
        post(account.stationCredit(p.station), total);
        post(account.wagers(p.station), -total);
        both(p.station, 'creditsWagered', total);
        return { postings, meters, credits, after: () => projectBet(this.#db, seq, p.roundId, p.station, total, before) };
      }
      case 'round.settle':
      case 'round.void': {
        const p = payload as Payload<'round.settle'> | Payload<'round.void'>;
        if (this.stmt.roundClosed.get(p.roundId)) throw new LedgerRefusal('round-closed', `round ${p.roundId} is already closed`);
        const bets = this.stmt.roundBets.all(p.roundId) as { station: number; amount: number }[];
        const wagered = new Map(bets.map((b) => [b.station, b.amount]));
        const returned = new Map<number, { stake: number; net: number }>();
        if (type === 'round.settle') {
          for (const l of (p as Payload<'round.settle'>).lines) {
            if (l.net < -l.stake) throw new LedgerRefusal('bad-line', `seat ${l.seat} ${l.bet}: loses more than its stake`);
            if (!wagered.has(l.station)) throw new LedgerRefusal('bad-line', `station ${l.station} has no bet in round ${p.roundId}`);
            const r = returned.get(l.station) ?? { stake: 0, net: 0 };
            returned.set(l.station, { stake: sum([r.stake, l.stake]), net: sum([r.net, l.net]) });
          }
        } else {
          for (const [s, amount] of wagered) returned.set(s, { stake: amount, net: 0 });
        }
        for (const [s, amount] of wagered) {
          const r = returned.get(s);
          if (!r || r.stake !== amount) {
            throw new LedgerRefusal('unbalanced-round', `station ${s} wagered ${amount} in round ${p.roundId} but the lines stake ${r?.stake ?? 0}`);
          }
        }
        let house = 0;
        for (const [s, r] of [...returned].sort((a, b) => a[0] - b[0])) {
          const before = (this.stmt.creditBefore.get(p.roundId, s) as { credit_before: number }).credit_before;
          creditChange(s, r.stake + r.net, before);
          post(account.wagers(s), r.stake);
          post(account.stationCredit(s), -(r.stake + r.net));
          house = sum([house, r.net]);
          if (type === 'round.settle') {
            both(s, 'creditsWon', r.stake + r.net);
            meters.push([`station:${s}`, 'gamesPlayed', 1]);
            meters.push([`station:${s}`, r.net > 0 ? 'gamesWon' : r.net < 0 ? 'gamesLost' : 'gamesTied', 1]);
          } else {
            both(s, 'voidRefunds', r.stake);
          }
        }
        post(account.house, house);
        meters.push(['table', type === 'round.settle' ? 'gamesPlayed' : 'voidedRounds', 1]);
        return {
          postings,
          meters,
          credits,
          after: () => {
            for (const s of stationsOfRecord(projectRound(this.#db, seq))) this.#recallVersions.set(s, ++this.#recallTick);
          },
        };
      }
      case 'misread':
        meters.push(['table', 'misreads', 1]);
        break;
      case 'credit.cancel': {
        const p = payload as Payload<'credit.cancel'>;
        creditChange(p.station, -p.amount);
        post(account.stationCredit(p.station), p.amount);
        post(account.handpayPending(p.station), -p.amount);
        both(p.station, 'cancelledCredits', p.amount);
        break;
      }
      case 'handpay.request': {
        const p = payload as Payload<'handpay.request'>;
        post(account.house, p.amount);
        post(account.handpayPending(p.station), -p.amount);
        break;
      }
      case 'handpay.confirm': {
        const p = payload as Payload<'handpay.confirm'>;
        const req = this.stmt.byTx.get(p.requestTxId) as JournalRow | undefined;
        if (!req || (req.type !== 'credit.cancel' && req.type !== 'handpay.request')) {
          throw new LedgerRefusal('no-handpay', `no pending handpay with transaction id ${p.requestTxId}`);
        }
        const rp = (JSON.parse(req.body) as EntryBody).payload as { station: number; amount: number };
        if (rp.station !== p.station || rp.amount !== p.amount) {
          throw new LedgerRefusal('handpay-mismatch', `handpay ${p.requestTxId} is ${rp.amount} at station ${rp.station}`);
        }
        if (this.stmt.confirmOf.get(p.requestTxId)) throw new LedgerRefusal('handpay-paid', `handpay ${p.requestTxId} was already paid`);
        post(account.handpayPending(p.station), p.amount);
        post(account.cage, -p.amount);
        both(p.station, 'handpays', 1);
        both(p.station, req.type === 'credit.cancel' ? 'handpaidCancelledCredits' : 'jackpotHandpays', p.amount);
        both(p.station, 'totalOut', p.amount);
        break;
      }
      case 'door.open': {
        const p = payload as Payload<'door.open'>;
        if (p.station !== undefined) both(p.station, 'doorOpens', 1);
        else meters.push(['table', 'doorOpens', 1]);
        break;
      }
      case 'power.reset':
        meters.push(['table', 'powerResets', 1]);
        break;
      case 'config.change':
        meters.push(['table', 'configChanges', 1]);
        break;
      case 'card.read':
      case 'round.decision':
      case 'shoe.change':
      case 'table.input':
        // Round progress for recovery: no money, no meter (the settlement counts the games).
        break;
      case 'meter.clear': {
        const p = payload as Payload<'meter.clear'>;
        for (const m of this.stmt.metersOf.all(p.scope) as { name: string; value: number }[]) {
          if (m.value !== 0) meters.push([p.scope, m.name, -m.value]);
        }
        break;
      }
      default: {
        const never: never = type;
        throw new LedgerRefusal('unknown-type', `unknown entry type ${String(never)}`);
      }
    }
    return { postings, meters, credits };
  }

  /** A credit or return that names its escrow must match it, and an escrow resolves once. */
  private checkEscrow(p: { station: number; denomination: number; escrowSeq?: number | undefined }): void {
    if (p.escrowSeq === undefined) return;
    const e = this.stmt.bySeq.get(p.escrowSeq) as JournalRow | undefined;
    if (!e || e.type !== 'bill.escrow') throw new LedgerRefusal('no-escrow', `entry ${p.escrowSeq} is not a bill escrow`);
    const ep = (JSON.parse(e.body) as EntryBody).payload as { station: number; denomination: number };
    if (ep.station !== p.station || ep.denomination !== p.denomination) {
      throw new LedgerRefusal('escrow-mismatch', `escrow ${p.escrowSeq} held ${ep.denomination} at station ${ep.station}`);
    }
    if (this.stmt.escrowResolved.get(p.escrowSeq)) throw new LedgerRefusal('escrow-resolved', `escrow ${p.escrowSeq} was already resolved`);
  }

  /**
   * Notes journalled in escrow and neither credited nor returned: after a power cut mid-stack
   * the host asks the acceptor what became of each and journals the credit or the return.
   */
  unresolvedEscrows(): { seq: number; station: number; device: string; denomination: number; currency: string }[] {
    const rows = this.#db
      .prepare(
        `SELECT seq, body FROM journal WHERE type = 'bill.escrow' AND seq NOT IN (
      SELECT json_extract(body, '$.payload.escrowSeq') FROM journal
      WHERE type IN ('bill.credit', 'bill.return') AND json_extract(body, '$.payload.escrowSeq') IS NOT NULL) ORDER BY seq`,
      )
      .all() as { seq: number; body: string }[];
    return rows.map((r) => {
      const p = (JSON.parse(r.body) as EntryBody).payload as { station: number; device: string; denomination: number; currency: string };
      return { seq: r.seq, station: p.station, device: p.device, denomination: p.denomination, currency: p.currency };
    });
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

  /** The last `limit` rounds (newest first) at a station or a table; at most 500 at a time. */
  recall(query: { station: number; limit?: number } | { tableId?: string; limit?: number }): RoundRecord[] {
    const limit = Math.max(1, Math.min(500, Math.trunc(query.limit ?? 10)));
    let rows: { record: string }[];
    if ('station' in query) {
      rows = this.#db
        .prepare(
          `SELECT r.record FROM round_stations s JOIN rounds r ON r.round_id = s.round_id
        WHERE s.station = ? ORDER BY s.seq DESC LIMIT ?`,
        )
        .all(query.station, limit) as { record: string }[];
    } else if (query.tableId) {
      rows = this.#db.prepare('SELECT record FROM rounds WHERE table_id = ? ORDER BY seq DESC LIMIT ?').all(query.tableId, limit) as { record: string }[];
    } else {
      rows = this.#db.prepare('SELECT record FROM rounds ORDER BY seq DESC LIMIT ?').all(limit) as { record: string }[];
    }
    return rows.map((r) => parseRecord(r.record));
  }

  /**
   * The ids of a station's last `limit` rounds, newest first, without their records: a reader of
   * many stations' recall (a stadium's screens) reads each round's record once, not per station.
   */
  recallIds(station: number, limit = 10): string[] {
    const n = Math.max(1, Math.min(500, Math.trunc(limit)));
    const rows = this.#db.prepare('SELECT round_id FROM round_stations WHERE station = ? ORDER BY seq DESC LIMIT ?').all(station, n) as { round_id: string }[];
    return rows.map((r) => r.round_id);
  }

  /** Changes whenever a round station `station` played in is recorded (see `recall`). */
  recallVersion(station: number): number {
    return this.#recallVersions.get(station) ?? 0;
  }

  round(roundId: string): RoundRecord | undefined {
    const row = this.#db.prepare('SELECT record FROM rounds WHERE round_id = ?').get(roundId) as { record: string } | undefined;
    return row ? parseRecord(row.record) : undefined;
  }

  /** Rounds with bets journalled but not settled or voided (recovery after a restart). */
  openRounds(): { roundId: string; stations: { station: number; amount: number }[] }[] {
    const rows = this.#db.prepare('SELECT round_id, station, SUM(amount) AS amount FROM round_bets GROUP BY round_id, station ORDER BY MIN(seq)').all() as {
      round_id: string;
      station: number;
      amount: number;
    }[];
    const out = new Map<string, { station: number; amount: number }[]>();
    for (const r of rows) out.set(r.round_id, [...(out.get(r.round_id) ?? []), { station: r.station, amount: r.amount }]);
    return [...out].map(([roundId, stations]) => ({ roundId, stations }));
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
