import type Database from 'better-sqlite3';
import { canonicalJson, chainHash, genesisHash, sha256Hex } from './canonical.js';
import { latestCheckpoint, type Checkpoint } from './checkpoint.js';
import { ENTRY_TYPES, type EntryType, type NewEntry } from './entries.js';
import { connectionOf, internalsOf, Ledger, type EntryBody, type JournalEntry, type JournalRow } from './ledger.js';
import { syncAnchor } from './outbox.js';

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
 * same derivation code into a scratch in-memory ledger whose every body must come out byte for
 * byte identical — then balances, meters and recall rows of the scratch copy must equal the
 * stored ones. Finally the sync anchor must name a hash this chain holds.
 *
 * From a checkpoint the same checks run on the entries after it, with the scratch ledger seeded
 * from the checkpoint's signed state (balances, meters, open bets) and from the journal entries
 * before it that the new ones name (their rounds, escrows, handpay requests). SQLite's integrity
 * check and the chain before the checkpoint are left to the full check.
 */
export function verifyLedger(ledger: Ledger, options: VerifyOptions = {}): VerifyReport {
  const problems: string[] = [];
  const add = (p: string) => {
    if (problems.length < 100) problems.push(p);
    else if (problems.length === 100) problems.push('… more problems not listed');
  };
  const db = connectionOf(ledger);
  const checked: string[] = [];
  const head = ledger.headOf();
  const report = (mode: VerifyReport['mode'], fromSeq: number, entries: number): VerifyReport => ({
    ok: problems.length === 0,
    terminalId: ledger.terminalId,
    entries,
    headSeq: head.seq,
    headHash: head.hash,
    mode,
    fromSeq,
    problems,
    checked,
  });

  let checkpoint: Checkpoint | null = null;
  if (options.from === 'checkpoint') {
    const c = latestCheckpoint(ledger);
    if (c.status === 'bad') {
      for (const p of c.problems) add(p);
      checked.push(`checkpoint ${c.seq}: signature and fields`);
      return report('checkpoint', c.seq, 0);
    }
    if (c.status === 'ok') checkpoint = c.checkpoint;
    else checked.push(`${c.reason}: verified from genesis`);
  }

  if (!checkpoint) {
    const integrity = db.pragma('integrity_check') as { integrity_check: string }[];
    if (integrity.length !== 1 || integrity[0]?.integrity_check !== 'ok') add(`integrity_check: ${integrity.map((r) => r.integrity_check).join('; ')}`);
    const fk = db.pragma('foreign_key_check') as unknown[];
    if (fk.length) add(`foreign_key_check: ${fk.length} violations`);
    checked.push('sqlite integrity_check and foreign_key_check');
  } else {
    checked.push(`checkpoint ${checkpoint.seq}: signature, fields and its entry's hash`);
  }

  const from = checkpoint ? { seq: checkpoint.seq, hash: checkpoint.hash } : { seq: 0, hash: genesisHash(ledger.terminalId) };
  const scratch = scratchLedger(ledger.terminalId);
  try {
    if (checkpoint) seedScratch(scratch, checkpoint);
    const seeder = checkpoint ? historySeeder(db, connectionOf(scratch), checkpoint.seq) : null;
    const { count, last } = replayJournal(ledger, scratch, from, seeder, add);
    checked.push(
      checkpoint
        ? `hash chain, canonical bodies, postings balance per entry after entry ${from.seq}`
        : 'hash chain from genesis, canonical bodies, postings balance per entry',
    );
    checked.push(
      checkpoint
        ? `replay of every payload after entry ${from.seq} reproduces every body byte for byte`
        : 'replay of every payload reproduces every body byte for byte',
    );

    const since = checkpoint ? ` WHERE seq > ${from.seq}` : '';
    const same = (what: string, sql: string) => {
      const a = canonicalJson(db.prepare(sql).all() as never);
      const b = canonicalJson(connectionOf(scratch).prepare(sql).all() as never);
      if (a !== b) add(`${what}: stored and recomputed differ`);
      checked.push(`${what} recomputed from the ${checkpoint ? 'checkpoint and the entries after it' : 'journal'}`);
    };
    same('balances', 'SELECT account, balance FROM balances WHERE balance <> 0 ORDER BY account');
    same('meters', 'SELECT scope, name, value FROM meters ORDER BY scope, name');
    same('recall', `SELECT round_id, table_id, status, seq, ts, record FROM rounds${since} ORDER BY seq`);
    if (checkpoint) {
      // Station by station through the index (station, seq): the rows after the checkpoint only.
      const rows = (d: Database.Database) => {
        const q = d.prepare('SELECT round_id, station, seq FROM round_stations WHERE station = ? AND seq > ? ORDER BY seq, round_id');
        return canonicalJson(Array.from({ length: 99 }, (_, i) => q.all(i + 1, from.seq)).flat() as never);
      };
      if (rows(db) !== rows(connectionOf(scratch))) add('recall index: stored and recomputed differ');
      checked.push('recall index recomputed from the checkpoint and the entries after it');
    } else same('recall index', 'SELECT round_id, station, seq FROM round_stations ORDER BY station, seq, round_id');
    same('open rounds', 'SELECT round_id, station, seq, amount, credit_before FROM round_bets ORDER BY seq');
    const total = db.prepare('SELECT COALESCE(SUM(balance), 0) AS t FROM balances').get() as { t: number };
    if (total.t !== 0) add(`balances sum to ${total.t}, not 0`);

    const anchor = syncAnchor(ledger);
    if (anchor.ackedSeq > last) add(`sync anchor acked seq ${anchor.ackedSeq} beyond the journal (${last})`);
    else if (anchor.ackedSeq > 0 && ledger.entry(anchor.ackedSeq)?.hash !== anchor.ackedHash) add(`sync anchor hash differs from entry ${anchor.ackedSeq}`);
    // From a checkpoint, the outbox is counted over the entries after it (and its ends checked):
    // a backlog of unsent entries does not make the start longer.
    const floor = checkpoint ? Math.max(from.seq, anchor.ackedSeq) : anchor.ackedSeq;
    const outbox = db.prepare('SELECT COUNT(*) AS n, MIN(seq) AS lo, MAX(seq) AS hi FROM outbox WHERE seq > ?').get(floor) as {
      n: number;
      lo: number | null;
      hi: number | null;
    };
    const lowest = (db.prepare('SELECT MIN(seq) AS lo FROM outbox').get() as { lo: number | null }).lo;
    const pending = last - floor;
    if (
      outbox.n !== pending ||
      (pending > 0 && (outbox.lo !== floor + 1 || outbox.hi !== last)) ||
      (last > anchor.ackedSeq && lowest !== anchor.ackedSeq + 1)
    ) {
      add(`outbox holds ${outbox.n} entries after ${floor}, ${pending} are unacknowledged`);
    }
    if (!checkpoint) {
      const all = (db.prepare('SELECT COUNT(*) AS n FROM outbox').get() as { n: number }).n;
      if (all !== last - anchor.ackedSeq) add(`outbox holds ${all} entries, ${last - anchor.ackedSeq} are unacknowledged`);
    }
    checked.push('sync anchor and outbox');
    return report(checkpoint ? 'checkpoint' : 'full', from.seq, count);
  } finally {
    scratch.close();
  }
}

/**
 * The chain, the bodies and the postings of every entry after `from`, each payload replayed into
 * `scratch` (a page of entries to a scratch transaction; each entry in a savepoint of it, so a
 * refused replay leaves nothing behind).
 */
function replayJournal(
  ledger: Ledger,
  scratch: Ledger,
  from: { seq: number; hash: string },
  seeder: ((bodies: readonly (EntryBody | null)[]) => void) | null,
  add: (p: string) => void,
): { count: number; last: number } {
  const db = connectionOf(ledger);
  const page = db.prepare('SELECT * FROM journal WHERE seq > ? ORDER BY seq LIMIT ?');
  const postingsOf = db.prepare('SELECT seq, account, amount FROM postings WHERE seq > ? AND seq <= ? ORDER BY seq, line');
  const inScratch = connectionOf(scratch).transaction((run: () => void) => run());
  let prev = from.hash;
  let expected = from.seq + 1;
  let count = 0;
  let after = from.seq;
  for (;;) {
    const rows = page.all(after, PAGE) as JournalRow[];
    if (rows.length === 0) break;
    const lastRow = rows[rows.length - 1] as JournalRow;
    const postings = postingsOf.all(after, lastRow.seq) as { seq: number; account: string; amount: number }[];
    after = lastRow.seq;
    const bodies = rows.map((r) => {
      try {
        return JSON.parse(r.body) as EntryBody;
      } catch {
        return null;
      }
    });
    seeder?.(bodies);
    let p = 0;
    inScratch(() => {
      for (let i = 0; i < rows.length; i++) {
        const e = rows[i] as JournalRow;
        count++;
        const where = `seq ${e.seq}`;
        if (e.seq !== expected) add(`${where}: expected seq ${expected} (gap)`);
        expected = e.seq + 1;
        // This entry's postings rows (both lists are in seq order).
        while (p < postings.length && (postings[p]?.seq ?? 0) < e.seq) p++;
        const own: [string, number][] = [];
        while (p < postings.length && postings[p]?.seq === e.seq) {
          const r = postings[p++] as { account: string; amount: number };
          own.push([r.account, r.amount]);
        }
        const body = bodies[i] ?? null;
        let again: JournalEntry | null = null;
        let refused: string | null = null;
        if (body && ENTRY_TYPES.includes(body.type)) {
          try {
            again = scratch.replay(
              { type: body.type as EntryType, payload: body.payload, ...(body.txId ? { txId: body.txId } : {}) } as NewEntry,
              body.ts,
              body.tzOffsetMin,
            );
          } catch (err) {
            refused = err instanceof Error ? err.message : String(err);
          }
        }
        // The replay hashed the same bytes from the same previous hash: its hashes are this entry's.
        const reuse = again !== null && again.body === e.body && again.prevHash === prev;
        if ((reuse ? again?.contentHash : sha256Hex(e.body)) !== e.content_hash) add(`${where}: content hash does not match the body`);
        if (e.prev_hash !== prev) add(`${where}: prev_hash does not link to the previous entry`);
        if ((reuse ? again?.hash : chainHash(prev, e.content_hash)) !== e.hash) add(`${where}: hash does not chain`);
        prev = e.hash;
        if (!body) {
          add(`${where}: body is not JSON`);
          continue;
        }
        // A body the replay wrote again byte for byte is canonical: it was written by canonicalJson.
        if (!reuse && canonicalJson(body) !== e.body) add(`${where}: body is not canonical`);
        if (body.seq !== e.seq || body.type !== e.type || body.terminal !== ledger.terminalId || (body.txId ?? null) !== e.tx_id || body.ts !== e.ts) {
          add(`${where}: body disagrees with its row`);
        }
        if (!samePostings(own, body.postings)) add(`${where}: postings table differs from the body`);
        let sum = 0;
        for (const [, amount] of own) sum += amount;
        if (sum !== 0) add(`${where}: postings do not balance`);
        if (!ENTRY_TYPES.includes(body.type)) {
          add(`${where}: unknown type ${String(body.type)}`);
          continue;
        }
        if (refused !== null) add(`${where}: replay refused: ${refused}`);
        else if (again?.body !== e.body) add(`${where}: replaying the payload derives other postings/meters/credits`);
      }
    });
    if (rows.length < PAGE) break;
  }
  return { count, last: expected - 1 };
}

function samePostings(rows: readonly [string, number][], body: unknown): boolean {
  if (!Array.isArray(body) || body.length !== rows.length) return false;
  for (let i = 0; i < rows.length; i++) {
    const b = body[i] as unknown;
    const r = rows[i] as [string, number];
    if (!Array.isArray(b) || b.length !== 2 || b[0] !== r[0] || b[1] !== r[1]) return false;
  }
  return true;
}

/**
 * An empty in-memory ledger to replay into, without the triggers and foreign keys that guard the
 * stored one: what they refuse the replay finds by comparing bytes (the stored postings' balance is
 * checked on the stored rows), and a scratch seeded from a checkpoint holds no journal before it.
 */
function scratchLedger(terminalId: string): Ledger {
  const scratch = Ledger.open({ file: ':memory:', terminalId, checkpointKey: null });
  const s = connectionOf(scratch);
  s.pragma('foreign_keys = OFF');
  for (const { name } of s.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as { name: string }[]) s.exec(`DROP TRIGGER "${name}"`);
  return scratch;
}

/**
 * A scratch ledger standing where the checkpoint stands: its head, balances, meters and open
 * bets (which name entries before the checkpoint that it does not hold).
 */
function seedScratch(scratch: Ledger, c: Checkpoint): void {
  const s = connectionOf(scratch);
  s.transaction(() => {
    const bal = s.prepare('INSERT INTO balances (account, balance) VALUES (?, ?)');
    for (const [account, balance] of c.state.balances) bal.run(account, balance);
    const met = s.prepare('INSERT INTO meters (scope, name, value, last_seq) VALUES (?, ?, ?, ?)');
    for (const [scope, name, value] of c.state.meters) met.run(scope, name, value, c.seq);
    const bet = s.prepare('INSERT INTO round_bets (round_id, station, seq, amount, credit_before) VALUES (?, ?, ?, ?, ?)');
    for (const [roundId, station, seq, amount, before] of c.state.openBets) bet.run(roundId, station, seq, amount, before);
  })();
  internalsOf(scratch).setHead({ seq: c.seq, hash: c.hash });
}

/**
 * Copies into the scratch ledger the entries up to the checkpoint that the entries after it name
 * (the rest of their round and its record if it was closed, the escrow a credit resolves and
 * what resolved it, the handpay request a confirmation pays and earlier confirmations), so that
 * their replay is refused or accepted exactly as the live append was. Each reference is looked up
 * once: the cost follows the entries after the checkpoint.
 */
function historySeeder(db: Database.Database, s: Database.Database, upTo: number): (bodies: readonly (EntryBody | null)[]) => void {
  const rounds = new Set<string>();
  const escrows = new Set<number>();
  const requests = new Set<string>();
  const cols = 'seq, ts, tz_offset_min, type, tx_id, round_id, body, content_hash, prev_hash, hash';
  const q = {
    roundRows: db.prepare(`SELECT ${cols} FROM journal WHERE round_id = ? AND seq <= ?`),
    roundRecord: db.prepare('SELECT round_id, table_id, status, seq, ts, record FROM rounds WHERE round_id = ? AND seq <= ?'),
    bySeq: db.prepare(`SELECT ${cols} FROM journal WHERE seq = ?`),
    resolving: db.prepare(
      `SELECT ${cols} FROM journal WHERE type IN ('bill.credit', 'bill.return') AND seq <= ? AND json_extract(body, '$.payload.escrowSeq') = ?`,
    ),
    byTx: db.prepare(`SELECT ${cols} FROM journal WHERE tx_id = ? AND seq <= ?`),
    confirms: db.prepare(`SELECT ${cols} FROM journal WHERE type = 'handpay.confirm' AND seq <= ? AND json_extract(body, '$.payload.requestTxId') = ?`),
  };
  const insertRow = s.prepare(
    `INSERT OR IGNORE INTO journal (${cols}) VALUES (@seq, @ts, @tz_offset_min, @type, @tx_id, @round_id, @body, @content_hash, @prev_hash, @hash)`,
  );
  const insertRound = s.prepare(
    'INSERT OR IGNORE INTO rounds (round_id, table_id, status, seq, ts, record) VALUES (@round_id, @table_id, @status, @seq, @ts, @record)',
  );
  const copy = (rows: unknown[]) => {
    for (const r of rows) insertRow.run(r as JournalRow);
  };
  return (bodies) => {
    s.transaction(() => {
      for (const b of bodies) {
        const p = b?.payload as { roundId?: unknown; escrowSeq?: unknown; requestTxId?: unknown } | undefined;
        if (!p) continue;
        if (typeof p.roundId === 'string' && !rounds.has(p.roundId)) {
          rounds.add(p.roundId);
          copy(q.roundRows.all(p.roundId, upTo));
          const record = q.roundRecord.get(p.roundId, upTo);
          if (record) insertRound.run(record);
        }
        if (typeof p.escrowSeq === 'number' && p.escrowSeq <= upTo && !escrows.has(p.escrowSeq)) {
          escrows.add(p.escrowSeq);
          copy(q.bySeq.all(p.escrowSeq));
          copy(q.resolving.all(upTo, p.escrowSeq));
        }
        if (typeof p.requestTxId === 'string' && !requests.has(p.requestTxId)) {
          requests.add(p.requestTxId);
          copy(q.byTx.all(p.requestTxId, upTo));
          copy(q.confirms.all(upTo, p.requestTxId));
        }
      }
    })();
  };
}
