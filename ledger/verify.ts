import { aftTransfersProblems } from './aft-index.js';
import type Database from 'better-sqlite3';
import path from 'node:path';
import { HeadMark, LedgerRollbackError } from './head-mark.js';
import { schemaProblems } from './schema-check.js';
import { schemaVersion } from './migrations.js';
import { canonicalJson, chainHash, genesisHash, sha256Hex } from './canonical.js';
import { latestCheckpoint, type Checkpoint } from './checkpoint.js';
import { admitEntry, bodyText, derive, roundIdOf, type EntryBody } from './derive.js';
import { ENTRY_TYPES } from './entries.js';
import { connectionOf, internalsOf, type Ledger } from './ledger.js';
import { syncAnchor } from './outbox.js';
import { stationsOfRecord, type RoundRecord } from '../terms/round-record.js';
import { LedgerRefusal } from './refusal.js';
import { ReplayState, type ReplayedEntry } from './replay-state.js';
import { rowColumnProblems } from './row-columns.js';
import { witnessProblems } from './witness-check.js';
import { readReceipt, receiptProblems, RECEIPT_FILE } from './receipts.js';
import { readCredentials } from './sign.js';
import { existsSync, readFileSync } from 'node:fs';

export interface VerifyReport {
  ok: boolean;
  terminalId: string;
  /** Entries checked: the whole journal (`full`), or those after the checkpoint. */
  entries: number;
  headSeq: number;
  headHash: string;
  /** `full`: from genesis; `checkpoint`: from the newest checkpoint, whose seq is `fromSeq`. */
  mode: 'full' | 'checkpoint';
  fromSeq: number;
  /** Human-readable mismatches, at most 100 listed. */
  problems: string[];
  checked: string[];
}

export interface VerifyOptions {
  /**
   * `genesis` (default, `ledger verify --full`): everything from the first entry. `checkpoint`
   * (the start, `ledger verify`): the newest checkpoint's signature, then only the entries after
   * it, replayed against the state it signed; with no checkpoint it verifies from genesis.
   */
  from?: 'genesis' | 'checkpoint';
}

const PAGE = 1000;

/**
 * Everything `npm run ledger -- verify --full` promises: SQLite's integrity check, the hash chain,
 * the postings against the bodies and their balance, and a full replay of the journal through the
 * same code the live append runs (ledger/derive.ts: the payload's schema, the derivation, the
 * canonical body) against the state the replay builds (ledger/replay-state.ts), every body coming
 * out byte for byte identical and every round's record equal to its stored row — then the stored
 * balances, meters, open bets and recall index must equal the replay's. Finally the sync anchor
 * must name a hash this chain holds, and the outbox hold exactly the unacknowledged entries.
 *
 * From a checkpoint the same checks run on the entries after it, the replay standing first where
 * the checkpoint's signed state stands (balances, meters, open bets) and reading from the journal
 * up to it only what the new entries name (their rounds, escrows, handpay requests). SQLite's
 * integrity check and the chain before the checkpoint are left to the full check.
 */
export function verifyLedger(ledger: Ledger, options: VerifyOptions = {}): VerifyReport {
  const db = connectionOf(ledger);
  // The head mark first: the host writes it after its commit, so it names no entry the snapshot below lacks.
  const mark = HeadMark.of(ledger.file);
  const marked = mark?.read() ?? null;
  // Everything else in one read transaction (WAL: one snapshot). Beside a running host, counts read
  // one after another — the journal replayed, then the outbox — straddled its appends and a sound
  // ledger was reported broken ("outbox holds 65 entries, 64 are unacknowledged").
  return db.transaction(() => verifySnapshot(ledger, options, mark, marked))();
}

/** What a verification found wrong (at most 100 listed) and what it checked, as it goes. */
class Findings {
  readonly problems: string[] = [];
  readonly checked: string[] = [];
  /** A problem; past the 100th, one line says more were found. */
  readonly add = (p: string): void => {
    if (this.problems.length < 100) this.problems.push(p);
    else if (this.problems.length === 100) this.problems.push('… more problems not listed');
  };
}

function verifySnapshot(ledger: Ledger, options: VerifyOptions, mark: HeadMark | null, marked: { seq: number; hash: string } | null): VerifyReport {
  const f = new Findings();
  const db = connectionOf(ledger);
  // The snapshot's head, not the one this process last knew: another process may have appended since.
  const head = (db.prepare('SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string } | undefined) ?? {
    seq: 0,
    hash: genesisHash(ledger.terminalId),
  };
  const report = (mode: VerifyReport['mode'], fromSeq: number, entries: number): VerifyReport => ({
    ok: f.problems.length === 0,
    terminalId: ledger.terminalId,
    entries,
    headSeq: head.seq,
    headHash: head.hash,
    mode,
    fromSeq,
    problems: f.problems,
    checked: f.checked,
  });
  checkBeforeReplay(ledger, head, mark, marked, f);

  let checkpoint: Checkpoint | null = null;
  if (options.from === 'checkpoint') {
    const c = latestCheckpoint(ledger);
    if (c.status === 'bad') {
      for (const p of c.problems) f.add(p);
      f.checked.push(`checkpoint ${c.seq}: signature and fields`);
      return report('checkpoint', c.seq, 0);
    }
    if (c.status === 'ok') checkpoint = c.checkpoint;
    else f.checked.push(`${c.reason}: verified from genesis`);
  }
  checkStorage(db, checkpoint, f);

  const from = checkpoint ? { seq: checkpoint.seq, hash: checkpoint.hash } : { seq: 0, hash: genesisHash(ledger.terminalId) };
  const state = new ReplayState(db, from.seq);
  if (checkpoint) state.seed(checkpoint.state);
  const replay = replayJournal(ledger, state, from, f.add);
  // `after`: the entries checked, when not the whole journal.
  const after = checkpoint ? { seq: from.seq } : null;
  checkProjections(db, state, after, replay, f);
  checkSyncAnchor(ledger, after, replay.last, f);
  // Sound as far as the head: from here on this process may sign checkpoints of it.
  if (f.problems.length === 0) internalsOf(ledger).verified();
  return report(checkpoint ? 'checkpoint' : 'full', from.seq, replay.count);
}

/**
 * What the host's start refuses, refused here too, whatever the mode: the head mark (a journal
 * shorter than one committed here before) and the schema against its migrations (triggers); then
 * the journal against the witness's newest head and the upstream's receipt kept.
 */
function checkBeforeReplay(
  ledger: Ledger,
  head: { seq: number; hash: string },
  mark: HeadMark | null,
  marked: { seq: number; hash: string } | null,
  f: Findings,
): void {
  const db = connectionOf(ledger);
  if (mark) {
    try {
      const hashAt = db.prepare('SELECT hash FROM journal WHERE seq = ?');
      mark.check(head, (seq) => (hashAt.get(seq) as { hash: string } | undefined)?.hash, marked);
      f.checked.push(marked ? `the head mark (${path.basename(mark.file)})` : 'the head mark: none (a new ledger, or removed on purpose)');
    } catch (e) {
      if (!(e instanceof LedgerRollbackError)) throw e;
      f.add(`head mark: ${e.message}`);
    }
  }
  const schema = schemaProblems(db);
  for (const p of schema) f.add(p);
  if (schema.length === 0) f.checked.push('the schema and its triggers against the migrations');
  // The witness: the journal must reach, unchanged, the newest head it signed (ledger/witness-check.ts).
  const internals = internalsOf(ledger);
  if (internals.witness) {
    const hashAt = db.prepare('SELECT hash FROM journal WHERE seq = ?').pluck();
    const w = witnessProblems(ledger.terminalId, head, internals.witness, (seq) => hashAt.get(seq) as string | undefined);
    for (const p of w.problems) f.add(p);
    f.checked.push(w.checked);
  } else if (internals.witnessed) f.add('witness: this ledger is witnessed, and no witness answered to check it against');
  else f.checked.push('no witness: a journal re-forged with the files of the data folder is not caught (docs/security.md)');
  // The upstream's newest receipt kept beside the ledger (ledger/receipts.ts).
  if (ledger.file !== ':memory:') {
    const r = keptReceiptCheck(
      ledger,
      head,
      (seq) => (db.prepare('SELECT hash FROM journal WHERE seq = ?').pluck().get(seq) as string | undefined) ?? undefined,
    );
    for (const p of r.problems) f.add(p);
    f.checked.push(r.checked);
  }
}

/** From genesis, SQLite's own checks; from a checkpoint, the unhashed columns of the entries up to it (the replay checks those after it). */
function checkStorage(db: Database.Database, checkpoint: Checkpoint | null, f: Findings): void {
  if (!checkpoint) {
    const integrity = db.pragma('integrity_check') as { integrity_check: string }[];
    if (integrity.length !== 1 || integrity[0]?.integrity_check !== 'ok') f.add(`integrity_check: ${integrity.map((r) => r.integrity_check).join('; ')}`);
    const fk = db.pragma('foreign_key_check') as unknown[];
    if (fk.length) f.add(`foreign_key_check: ${fk.length} violations`);
    f.checked.push('sqlite integrity_check and foreign_key_check');
  } else {
    f.checked.push(`checkpoint ${checkpoint.seq}: signature, fields and its entry's hash`);
    for (const p of rowColumnProblems(db, checkpoint.seq)) f.add(p);
    f.checked.push(`row columns against their bodies up to entry ${checkpoint.seq}`);
  }
}

/** The stored projections against the replay's: balances, meters, recall and its index, open rounds; and the balances' sum. `after`: from a checkpoint. */
function checkProjections(db: Database.Database, state: ReplayState, after: { seq: number } | null, replay: Replayed, f: Findings): void {
  const past = after ? ` after entry ${after.seq}` : '';
  f.checked.push(
    after ? `hash chain, canonical bodies, postings balance per entry${past}` : 'hash chain from genesis, canonical bodies, postings balance per entry',
  );
  f.checked.push(after ? `replay of every payload${past} reproduces every body byte for byte` : 'replay of every payload reproduces every body byte for byte');
  const ofSource = after ? 'the checkpoint and the entries after it' : 'the journal';

  const balances = db.prepare('SELECT account, balance FROM balances WHERE balance <> 0').raw(true).all() as [string, number][];
  const replayed = [...state.balances].filter(([, b]) => b !== 0);
  if (!sameEntries(balances, replayed)) f.add('balances: stored and recomputed differ');
  f.checked.push(`balances recomputed from ${ofSource}`);

  const meters = (db.prepare('SELECT scope, name, value FROM meters').raw(true).all() as [string, string, number][]).map(
    ([scope, name, value]) => [`${scope}\n${name}`, value] as [string, number],
  );
  const replayedMeters = [...state.meterValues].flatMap(([scope, m]) => [...m].map(([name, value]) => [`${scope}\n${name}`, value] as [string, number]));
  if (!sameEntries(meters, replayedMeters)) f.add('meters: stored and recomputed differ');
  f.checked.push(`meters recomputed from ${ofSource}`);

  checkRecall(db, after, replay, ofSource, f);

  // A ledger read at a schema before migration 10 (a tool's read-only open) has no index to check;
  // the schema check has said whether its absence is what the file's version makes.
  if (db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'aft_transfers'").get() === undefined) {
    f.checked.push(`aft transfers index: none at schema ${schemaVersion(db)} (migration 10 makes it)`);
  } else {
    for (const p of aftTransfersProblems(db, after?.seq ?? null)) f.add(p);
    f.checked.push(`aft transfers index recomputed from ${after ? `the rows before entry ${after.seq + 1} and the entries after it` : 'the journal'}`);
  }

  const openBets = (
    db.prepare('SELECT round_id, station, seq, amount, credit_before FROM round_bets').raw(true).all() as [string, number, number, number, number][]
  ).map(([roundId, station, seq, amount, before]) => [`${roundId}\n${station}\n${seq}`, `${amount} ${before}`] as [string, string]);
  const replayedBets = [...state.openBets.values()].flatMap((bets) =>
    bets.map((b) => [`${b.roundId}\n${b.station}\n${b.seq}`, `${b.amount} ${b.creditBefore}`] as [string, string]),
  );
  if (!sameEntries(openBets, replayedBets)) f.add('open rounds: stored and recomputed differ');
  f.checked.push(`open rounds recomputed from ${ofSource}`);

  const total = db.prepare('SELECT COALESCE(SUM(balance), 0) AS t FROM balances').get() as { t: number };
  if (total.t !== 0) f.add(`balances sum to ${total.t}, not 0`);
}

/**
 * Each record the replay closed was compared with its stored row as it went; here, that the
 * projection holds no other rows after the starting point, nor its recall index.
 */
function checkRecall(db: Database.Database, after: { seq: number } | null, replay: Replayed, ofSource: string, f: Findings): void {
  const past = after ? ` after entry ${after.seq}` : '';
  const storedRounds = after
    ? (db.prepare('SELECT COUNT(*) FROM rounds WHERE seq > ?').pluck().get(after.seq) as number)
    : (db.prepare('SELECT COUNT(*) FROM rounds').pluck().get() as number);
  if (storedRounds !== replay.rounds) f.add(`recall: ${storedRounds} rounds stored${past}, ${replay.rounds} recomputed`);
  f.checked.push(`recall recomputed from ${ofSource}`);
  let storedStations: number;
  if (after) {
    // Station by station through the index (station, seq): the rows after the checkpoint only,
    // of every station the index holds (seated 1–7, remote from 101, and any other a row names).
    const q = db.prepare('SELECT COUNT(*) FROM round_stations WHERE station = ? AND seq > ?').pluck();
    const stations = db.prepare('SELECT DISTINCT station FROM round_stations').pluck().all() as number[];
    storedStations = 0;
    for (const st of stations) storedStations += q.get(st, after.seq) as number;
  } else storedStations = db.prepare('SELECT COUNT(*) FROM round_stations').pluck().get() as number;
  if (storedStations !== replay.roundStations) f.add(`recall index: ${storedStations} rows stored${past}, ${replay.roundStations} recomputed`);
  f.checked.push(`recall index recomputed from ${ofSource}`);
}

/** The sync anchor names an entry of this chain, and the outbox holds exactly the entries not acknowledged. `last`: the journal's last seq. */
function checkSyncAnchor(ledger: Ledger, after: { seq: number } | null, last: number, f: Findings): void {
  const db = connectionOf(ledger);
  const anchor = syncAnchor(ledger);
  if (anchor.ackedSeq > last) f.add(`sync anchor acked seq ${anchor.ackedSeq} beyond the journal (${last})`);
  else if (anchor.ackedSeq > 0 && ledger.entry(anchor.ackedSeq)?.hash !== anchor.ackedHash) f.add(`sync anchor hash differs from entry ${anchor.ackedSeq}`);
  // From a checkpoint, the outbox is counted over the entries after it (and its ends checked):
  // a backlog of unsent entries does not make the start longer.
  const floor = after ? Math.max(after.seq, anchor.ackedSeq) : anchor.ackedSeq;
  const outbox = db.prepare('SELECT COUNT(*) AS n, MIN(seq) AS lo, MAX(seq) AS hi FROM outbox WHERE seq > ?').get(floor) as {
    n: number;
    lo: number | null;
    hi: number | null;
  };
  const lowest = (db.prepare('SELECT MIN(seq) AS lo FROM outbox').get() as { lo: number | null }).lo;
  const pending = last - floor;
  if (outbox.n !== pending || (pending > 0 && (outbox.lo !== floor + 1 || outbox.hi !== last)) || (last > anchor.ackedSeq && lowest !== anchor.ackedSeq + 1)) {
    f.add(`outbox holds ${outbox.n} entries after ${floor}, ${pending} are unacknowledged`);
  }
  if (!after) {
    const all = (db.prepare('SELECT COUNT(*) AS n FROM outbox').get() as { n: number }).n;
    if (all !== last - anchor.ackedSeq) f.add(`outbox holds ${all} entries, ${last - anchor.ackedSeq} are unacknowledged`);
  }
  f.checked.push('sync anchor and outbox');
}

/** Two lists of [key, value] hold the same pairs, whatever their order (keys are unique in each). */
function sameEntries<V>(a: readonly (readonly [string, V])[], b: readonly (readonly [string, V])[]): boolean {
  if (a.length !== b.length) return false;
  const m = new Map(a);
  if (m.size !== a.length) return false;
  for (const [k, v] of b) if (!m.has(k) || m.get(k) !== v) return false;
  return true;
}

type Row = [
  seq: number,
  ts: string,
  tzOffsetMin: number,
  type: string,
  txId: string | null,
  roundId: string | null,
  body: string,
  contentHash: string,
  prevHash: string,
  hash: string,
];

type PostingRow = [seq: number, account: string, amount: number];

/** What the replay went through: entries, the last seq, the rounds it closed and their recall index rows. */
interface Replayed {
  count: number;
  last: number;
  rounds: number;
  roundStations: number;
}

/**
 * The chain, the bodies and the postings of every entry after `from`, each payload admitted and
 * derived again (ledger/derive.ts) against `state` and its body written again, which must come
 * out byte for byte; each round it closes compared with its stored record and recall index rows.
 */
function replayJournal(ledger: Ledger, state: ReplayState, from: { seq: number; hash: string }, add: (p: string) => void): Replayed {
  const replay = new JournalReplay(ledger, state, from, add);
  const db = connectionOf(ledger);
  const page = db
    .prepare('SELECT seq, ts, tz_offset_min, type, tx_id, round_id, body, content_hash, prev_hash, hash FROM journal WHERE seq > ? ORDER BY seq LIMIT ?')
    .raw(true);
  const postingsOf = db.prepare('SELECT seq, account, amount FROM postings WHERE seq > ? AND seq <= ? ORDER BY seq, line').raw(true);
  let after = from.seq;
  for (;;) {
    const rows = page.all(after, PAGE) as Row[];
    if (rows.length === 0) break;
    const lastSeq = (rows[rows.length - 1] as Row)[0];
    const postings = postingsOf.all(after, lastSeq) as PostingRow[];
    after = lastSeq;
    let p = 0;
    for (const row of rows) {
      // This entry's postings rows (both lists are in seq order).
      const seq = row[0];
      while (p < postings.length && (postings[p] as PostingRow)[0] < seq) p++;
      const own: [string, number][] = [];
      while (p < postings.length && (postings[p] as PostingRow)[0] === seq) {
        const r = postings[p++] as PostingRow;
        own.push([r[1], r[2]]);
      }
      replay.entry(row, own);
    }
    if (rows.length < PAGE) break;
  }
  return replay.result();
}

/** The replay's place in the chain and what it has counted, entry by entry. */
class JournalReplay {
  private readonly terminal: string;
  private readonly storedRound: Database.Statement;
  private readonly storedStation: Database.Statement;
  private prev: string;
  private expected: number;
  private count = 0;
  private rounds = 0;
  private roundStations = 0;

  constructor(
    ledger: Ledger,
    private readonly state: ReplayState,
    private readonly from: { seq: number; hash: string },
    private readonly add: (p: string) => void,
  ) {
    const db = connectionOf(ledger);
    this.terminal = ledger.terminalId;
    this.storedRound = db.prepare('SELECT table_id, status, seq, ts, record FROM rounds WHERE round_id = ?').raw(true);
    this.storedStation = db.prepare('SELECT 1 FROM round_stations WHERE station = ? AND seq = ? AND round_id = ?').pluck();
    this.prev = from.hash;
    this.expected = from.seq + 1;
  }

  result(): Replayed {
    return { count: this.count, last: this.expected - 1, rounds: this.rounds, roundStations: this.roundStations };
  }

  /** One entry: its place, its chain, its row against its body and its postings rows (`own`); then its payload derived again. */
  entry(row: Row, own: readonly [string, number][]): void {
    const [seq, ts, tzOffsetMin, type, txId, roundId, text, contentHash, prevHash, hash] = row;
    const add = this.add;
    this.count++;
    // The replay writes the entry at its place in the sequence: a gap shows in its body too.
    const at = this.from.seq + this.count;
    const where = `seq ${seq}`;
    if (seq !== this.expected) add(`${where}: expected seq ${this.expected} (gap)`);
    this.expected = seq + 1;
    if (sha256Hex(text) !== contentHash) add(`${where}: content hash does not match the body`);
    if (prevHash !== this.prev) add(`${where}: prev_hash does not link to the previous entry`);
    if (chainHash(this.prev, contentHash) !== hash) add(`${where}: hash does not chain`);
    this.prev = hash;
    let body: EntryBody;
    try {
      body = JSON.parse(text) as EntryBody;
    } catch {
      add(`${where}: body is not JSON`);
      return;
    }
    if (
      body.seq !== seq ||
      body.type !== type ||
      body.terminal !== this.terminal ||
      (body.txId ?? null) !== txId ||
      body.ts !== ts ||
      body.tzOffsetMin !== tzOffsetMin
    ) {
      add(`${where}: body disagrees with its row`);
    }
    if (!samePostings(own, body.postings)) add(`${where}: postings table differs from the body`);
    // Summed exactly: in floats, [2^53 − 1, 2, −(2^53 − 1), −1] balanced (a review of 4 December).
    let sum = 0n;
    for (const [, amount] of own) sum += Number.isSafeInteger(amount) ? BigInt(amount) : 1n;
    if (sum !== 0n) add(`${where}: postings do not balance`);
    if (!ENTRY_TYPES.includes(body.type)) {
      add(`${where}: unknown type ${String(body.type)}`);
      return;
    }
    this.rederive(body, { at, seq, roundId, text, where });
  }

  /** The payload admitted and derived again at its place (`at`): its body must come out byte for byte as stored (`text`). */
  private rederive(body: EntryBody, e: { at: number; seq: number; roundId: string | null; text: string; where: string }): void {
    const { at, seq, roundId, text, where } = e;
    const state = this.state;
    state.at = at;
    let again: string;
    let replayed: ReplayedEntry;
    try {
      const payload = admitEntry(body.type, body.payload, body.txId);
      // The live append writes a transaction id once: an earlier entry holding it makes this one a duplicate.
      const holder = body.txId !== undefined ? state.txSeq(body.txId) : undefined;
      if (holder !== undefined && holder !== seq) throw new LedgerRefusal('tx-id-conflict', `transaction id ${body.txId} is journalled at seq ${holder} too`);
      if (roundIdOf(body.type, payload) !== roundId) this.add(`${where}: round_id disagrees with its body`);
      const derived = derive(state, body.type, payload);
      again = bodyText(this.terminal, { seq: at, ts: body.ts, tzOffsetMin: body.tzOffsetMin, type: body.type, txId: body.txId }, payload, derived);
      replayed = { seq: at, ts: body.ts, tzOffsetMin: body.tzOffsetMin, type: body.type, payload, derived };
    } catch (err) {
      this.add(`${where}: replay refused: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    if (again !== text) {
      if (canonicalText(body) !== text) this.add(`${where}: body is not canonical`);
      this.add(`${where}: replaying the payload derives other postings/meters/credits`);
    }
    const record = state.apply(replayed);
    if (record) this.checkRecord(record, where);
  }

  /** A round the entry closed, against its stored record and recall index rows. */
  private checkRecord(record: RoundRecord, where: string): void {
    this.rounds++;
    const stored = this.storedRound.get(record.roundId) as [string, string, number, string, string] | undefined;
    if (
      !stored ||
      stored[0] !== record.tableId ||
      stored[1] !== record.status ||
      stored[2] !== record.seq ||
      stored[3] !== record.ts ||
      stored[4] !== JSON.stringify(record)
    ) {
      this.add(`recall: round ${record.roundId} (${where}): stored and recomputed differ`);
    }
    for (const st of stationsOfRecord(record)) {
      this.roundStations++;
      if (this.storedStation.get(st, record.seq, record.roundId) === undefined) this.add(`recall index: round ${record.roundId} at station ${st}: not stored`);
    }
  }
}

/** The body's canonical JSON, or null when it holds what canonical JSON cannot (a float). */
function canonicalText(body: unknown): string | null {
  try {
    return canonicalJson(body);
  } catch {
    return null;
  }
}

function samePostings(rows: readonly (readonly [string, number])[], body: unknown): boolean {
  if (!Array.isArray(body) || body.length !== rows.length) return false;
  for (let i = 0; i < rows.length; i++) {
    const b = body[i] as unknown;
    const r = rows[i] as readonly [string, number];
    if (!Array.isArray(b) || b.length !== 2 || b[0] !== r[0] || b[1] !== r[1]) return false;
  }
  return true;
}

/**
 * The journal against the upstream's newest receipt kept in the ledger's folder, checked with the
 * receipt key the credentials carry. No receipt kept, or no key to check it with: said, not a
 * problem (a kiosk that never synced has none; `--upstream URL` asks the upstream itself).
 */
function keptReceiptCheck(
  ledger: Ledger,
  head: { seq: number; hash: string },
  hashAt: (seq: number) => string | undefined,
): { problems: string[]; checked: string } {
  const dir = path.dirname(ledger.file);
  if (!existsSync(path.join(dir, RECEIPT_FILE))) return { problems: [], checked: 'no upstream receipt kept' };
  let receipt;
  try {
    receipt = readReceipt(dir);
  } catch (e) {
    return { problems: [unreadableReceipt(path.join(dir, RECEIPT_FILE), e)], checked: 'the upstream receipt kept' };
  }
  if (!receipt) return { problems: [], checked: 'no upstream receipt kept' };
  const credentials = path.join(dir, 'upstream-credentials.json');
  let key: string | undefined;
  try {
    key = existsSync(credentials) ? readCredentials(credentials).receiptKey : undefined;
  } catch {
    key = undefined;
  }
  if (!key) return { problems: [], checked: 'the upstream receipt kept: not checked (no receipt key in the credentials; --upstream URL asks the upstream)' };
  return receiptProblems(ledger.terminalId, head, receipt, key, 'kept here', hashAt);
}

/**
 * A kept receipt that cannot be read, named with what it is and what to do: a power cut can leave
 * it empty or cut short (an earlier build did not flush it before the rename). Still a problem: the
 * data folder can no longer show the journal reaches what the upstream acknowledged: only the
 * upstream itself can say so, once the file is moved aside (the next acknowledgement keeps one).
 */
function unreadableReceipt(file: string, e: unknown): string {
  let what = 'is not a receipt';
  try {
    if (readFileSync(file, 'utf8').trim() === '') what = 'is empty';
    else if (e instanceof SyntaxError) what = 'is cut short or not JSON (a power cut while it was written?)';
  } catch {
    what = 'cannot be read';
  }
  return `upstream receipt: ${file} ${what}: move it aside and check the journal against the upstream itself (etg ledger verify --upstream URL) before the table starts again; the next acknowledgement keeps a new one`;
}
