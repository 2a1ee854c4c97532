// Benchmark-only: `verifyLedger` as it was before checkpoints (one scratch SQLite transaction and
// one postings query per entry), kept callable so that bench/ledger-checkpoint.bench.ts prints the
// old figure beside the new one in the same run. It shares the recall projection (ledger/recall.ts).
import type Database from 'better-sqlite3';
import { canonicalJson, chainHash, genesisHash, sha256Hex } from '../canonical.js';
import { ENTRY_TYPES, type EntryType, type NewEntry } from '../entries.js';
import { connectionOf, Ledger, type EntryBody } from '../ledger.js';
import { syncAnchor } from '../outbox.js';

interface VerifyReport {
  ok: boolean;
  terminalId: string;
  entries: number;
  headSeq: number;
  headHash: string;
  /** Human-readable mismatches, at most 100 listed. */
  problems: string[];
  checked: string[];
}

/**
 * Everything `npm run ledger -- verify` promises: SQLite's integrity check, the hash chain, the
 * postings against the bodies and their balance, and a full replay of the journal through the
 * same derivation code into a scratch in-memory ledger whose every body must come out byte for
 * byte identical — then balances, meters and recall rows of the scratch copy must equal the
 * stored ones. Finally the sync anchor must name a hash this chain holds.
 */
export function verifyLedgerBefore(ledger: Ledger): VerifyReport {
  const problems: string[] = [];
  const add = (p: string) => {
    if (problems.length < 100) problems.push(p);
    else if (problems.length === 100) problems.push('… more problems not listed');
  };
  const db = connectionOf(ledger);
  const checked: string[] = [];

  const integrity = db.pragma('integrity_check') as { integrity_check: string }[];
  if (integrity.length !== 1 || integrity[0]?.integrity_check !== 'ok') add(`integrity_check: ${integrity.map((r) => r.integrity_check).join('; ')}`);
  const fk = db.pragma('foreign_key_check') as unknown[];
  if (fk.length) add(`foreign_key_check: ${fk.length} violations`);
  checked.push('sqlite integrity_check and foreign_key_check');

  // The replay writes each entry at its journalled time (the machine's time zone, as the
  // benchmarks' ledgers were written here), one transaction each, as the verification did.
  let at = new Date(0);
  const scratch = Ledger.open({ file: ':memory:', terminalId: ledger.terminalId, clock: () => at, checkpointKey: null });
  const postingsOf = db.prepare('SELECT account, amount FROM postings WHERE seq = ? ORDER BY line');
  let prev = genesisHash(ledger.terminalId);
  let expected = 1;
  let count = 0;
  try {
    for (const e of ledger.entries(1)) {
      count++;
      const where = `seq ${e.seq}`;
      if (e.seq !== expected) add(`${where}: expected seq ${expected} (gap)`);
      expected = e.seq + 1;
      if (sha256Hex(e.body) !== e.contentHash) add(`${where}: content hash does not match the body`);
      if (e.prevHash !== prev) add(`${where}: prev_hash does not link to the previous entry`);
      if (chainHash(prev, e.contentHash) !== e.hash) add(`${where}: hash does not chain`);
      prev = e.hash;
      let body: EntryBody;
      try {
        body = JSON.parse(e.body) as EntryBody;
      } catch {
        add(`${where}: body is not JSON`);
        continue;
      }
      if (canonicalJson(body) !== e.body) add(`${where}: body is not canonical`);
      if (body.seq !== e.seq || body.type !== e.type || body.terminal !== ledger.terminalId || (body.txId ?? null) !== e.txId || body.ts !== e.ts) {
        add(`${where}: body disagrees with its row`);
      }
      const rows = postingsOf.all(e.seq) as { account: string; amount: number }[];
      if (canonicalJson(rows.map((r) => [r.account, r.amount])) !== canonicalJson(body.postings)) add(`${where}: postings table differs from the body`);
      if (rows.reduce((a, r) => a + r.amount, 0) !== 0) add(`${where}: postings do not balance`);
      if (!ENTRY_TYPES.includes(body.type)) {
        add(`${where}: unknown type ${String(body.type)}`);
        continue;
      }
      try {
        at = new Date(body.ts);
        const again = scratch.append({ type: body.type as EntryType, payload: body.payload, ...(body.txId ? { txId: body.txId } : {}) } as NewEntry).entry;
        if (again.body !== e.body) add(`${where}: replaying the payload derives other postings/meters/credits`);
      } catch (err) {
        add(`${where}: replay refused: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    checked.push('hash chain from genesis, canonical bodies, postings balance per entry');
    checked.push('replay of every payload reproduces every body byte for byte');

    sameProjections(db, connectionOf(scratch), add, checked);
    checkOutbox(ledger, count, add);
    checked.push('sync anchor and outbox');
  } finally {
    scratch.close();
  }
  const head = ledger.headOf();
  return { ok: problems.length === 0, terminalId: ledger.terminalId, entries: count, headSeq: head.seq, headHash: head.hash, problems, checked };
}

/** The stored projections against the scratch ledger's, and the balances' sum. */
function sameProjections(db: Database.Database, scratch: Database.Database, add: (p: string) => void, checked: string[]): void {
  const same = (what: string, sql: string) => {
    const a = canonicalJson(db.prepare(sql).all() as never);
    const b = canonicalJson(scratch.prepare(sql).all() as never);
    if (a !== b) add(`${what}: stored and recomputed differ`);
    checked.push(`${what} recomputed from the journal`);
  };
  same('balances', 'SELECT account, balance FROM balances WHERE balance <> 0 ORDER BY account');
  same('meters', 'SELECT scope, name, value FROM meters ORDER BY scope, name');
  same('recall', 'SELECT round_id, table_id, status, seq, ts, record FROM rounds ORDER BY seq');
  same('recall index', 'SELECT round_id, station, seq FROM round_stations ORDER BY station, seq, round_id');
  same('open rounds', 'SELECT round_id, station, seq, amount, credit_before FROM round_bets ORDER BY seq');
  const total = db.prepare('SELECT COALESCE(SUM(balance), 0) AS t FROM balances').get() as { t: number };
  if (total.t !== 0) add(`balances sum to ${total.t}, not 0`);
}

/** The sync anchor names an entry of the chain (`count` long), and the outbox holds exactly the entries not acknowledged. */
function checkOutbox(ledger: Ledger, count: number, add: (p: string) => void): void {
  const anchor = syncAnchor(ledger);
  if (anchor.ackedSeq > count) add(`sync anchor acked seq ${anchor.ackedSeq} beyond the journal (${count})`);
  else if (anchor.ackedSeq > 0 && ledger.entry(anchor.ackedSeq)?.hash !== anchor.ackedHash) add(`sync anchor hash differs from entry ${anchor.ackedSeq}`);
  const outbox = connectionOf(ledger).prepare('SELECT COUNT(*) AS n, MIN(seq) AS lo, MAX(seq) AS hi FROM outbox').get() as {
    n: number;
    lo: number | null;
    hi: number | null;
  };
  const pending = count - anchor.ackedSeq;
  if (outbox.n !== pending || (pending > 0 && (outbox.lo !== anchor.ackedSeq + 1 || outbox.hi !== count))) {
    add(`outbox holds ${outbox.n} entries, ${pending} are unacknowledged`);
  }
}
