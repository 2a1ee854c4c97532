import { checkpointStatement, statementSigned } from '../witness/statement.js';
import { chainHash, sha256Hex } from './canonical.js';
import { ANY_WITNESS_SIGNATURE_PREFIX, connectionOf, internalsOf, WITNESS_SIGNATURE_PREFIX, type Ledger, type LedgerWitnessView } from './ledger.js';
import { sameSignature, signCheckpoint } from './sign.js';
import { lostKeyUpTo } from './checkpoint-key.js';

// Checkpoints: a signed statement, every `checkpointEvery` entries and at every start, of the
// ledger's state after one entry — its seq and hash, every balance, meter and open bet, and the
// table's folded state when the table stood at that entry. A start verifies the newest
// checkpoint's signature and then only the entries after it (ledger/verify.ts), and folds the
// table from its state (host/table/recover.ts): the cost of a start follows the entries since
// the last checkpoint, not the journal's length. docs/ledger.md, "Checkpoints".

/** What a checkpoint states, exactly as signed (JSON, in this key order). */
export interface CheckpointState {
  v: 1;
  terminal: string;
  seq: number;
  hash: string;
  /** When it was written (UTC, ISO 8601). */
  at: string;
  /** Every account's balance after `seq`, as the `balances` projection had it. */
  balances: [account: string, balance: number][];
  meters: [scope: string, name: string, value: number][];
  /** The bets of rounds open after `seq`: [roundId, station, seq, amount, credit before]. */
  openBets: [roundId: string, station: number, seq: number, amount: number, creditBefore: number][];
  /** The table's folded state after `seq`, under a game's identity, when the table gave it. */
  table: { identity: string; state: unknown } | null;
}

export interface Checkpoint {
  seq: number;
  hash: string;
  state: CheckpointState;
}

export type CheckpointCheck =
  /** No checkpoint, or none this key can check (the key file missing): verify from genesis. */
  | { status: 'none'; reason: string }
  | { status: 'ok'; checkpoint: Checkpoint }
  /** A checkpoint whose signature, fields or journal entry do not match: the ledger was altered. */
  | { status: 'bad'; seq: number; problems: string[] };

interface CheckpointRow {
  seq: number;
  hash: string;
  written_at: string;
  has_table: number;
  state: string;
  signature: string;
}

/** Who signs checkpoints, and so which of them are believed: the key file's HMAC, or the witness's Ed25519. */
type Signer = { kind: 'key'; key: Buffer } | { kind: 'witness'; witness: LedgerWitnessView };

/**
 * The newest checkpoint (or the newest carrying the table's state), checked: its signature, its
 * fields against the signed state, and the journal entry it names (which must exist, hash to its
 * content and chain to the hash stated). A witnessed ledger believes only checkpoints the witness
 * signed (`witness:` signatures, under the key it gave); any other is not a starting point, since
 * the key file beside the database could have signed it. A ledger checked without its witness
 * believes only the key file's, and says so of the witness's.
 */
export function latestCheckpoint(ledger: Ledger, options: { withTable?: boolean } = {}): CheckpointCheck {
  const db = connectionOf(ledger);
  const internals = internalsOf(ledger);
  const signer: Signer | null = internals.witness
    ? { kind: 'witness', witness: internals.witness }
    : internals.key && !internals.witnessed
      ? { kind: 'key', key: internals.key }
      : null;
  const conditions = [
    ...(options.withTable ? ['has_table = 1'] : []),
    // Only the signer's own: a key-file checkpoint is no starting point for a witnessed ledger, nor one the witness signed for a key.
    // Of the witness's, only the v2 ones (a state it derived); v1 rows (any state at its head) are no starting point.
    ...(signer ? [signer.kind === 'witness' ? `signature LIKE '${WITNESS_SIGNATURE_PREFIX}%'` : `signature NOT LIKE '${ANY_WITNESS_SIGNATURE_PREFIX}%'`] : []),
    // Of the key file's, none a lost key signed (ledger/checkpoint-key.ts): those no key here can check.
    ...(signer?.kind === 'key' ? [`seq > ${lostKeyUpTo(db)}`] : []),
  ];
  const row = db
    .prepare(
      `SELECT seq, hash, written_at, has_table, state, signature FROM checkpoints ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT 1`,
    )
    .get() as CheckpointRow | undefined;
  const what = options.withTable ? 'holds the table' : '';
  if (!signer) {
    if (!row) return { status: 'none', reason: options.withTable ? 'no checkpoint holds the table' : 'no checkpoint' };
    return {
      status: 'none',
      reason: internals.witnessed ? 'no witness attached to check the checkpoints with' : 'no checkpoint key to check the checkpoints with',
    };
  }
  if (!row) {
    const by = signer.kind === 'witness' ? 'signed by the witness' : "signed by the checkpoint key (the witness's are not checked without it)";
    return { status: 'none', reason: `no checkpoint ${what ? `that ${what}, ` : ''}${by}` };
  }
  return checkRow(ledger, signer, row);
}

function signatureHolds(ledger: Ledger, signer: Signer, row: CheckpointRow): boolean {
  if (signer.kind === 'key') return sameSignature(signCheckpoint(signer.key, ledger.terminalId, row.seq, row.hash, row.state), row.signature);
  if (!row.signature.startsWith(WITNESS_SIGNATURE_PREFIX)) return false;
  const statement = checkpointStatement(ledger.terminalId, row.seq, row.hash, sha256Hex(row.state));
  return statementSigned(signer.witness.publicKey, statement, row.signature.slice(WITNESS_SIGNATURE_PREFIX.length));
}

function checkRow(ledger: Ledger, signer: Signer, row: CheckpointRow): CheckpointCheck {
  const problems: string[] = [];
  const where = `checkpoint ${row.seq}`;
  if (!signatureHolds(ledger, signer, row)) problems.push(`${where}: signature does not match${signer.kind === 'witness' ? " the witness's key" : ''}`);
  let state: CheckpointState | null = null;
  try {
    state = JSON.parse(row.state) as CheckpointState;
  } catch {
    problems.push(`${where}: state is not JSON`);
  }
  if (state) {
    if (state.v !== 1 || state.terminal !== ledger.terminalId || state.seq !== row.seq || state.hash !== row.hash || state.at !== row.written_at) {
      problems.push(`${where}: its columns disagree with its signed state`);
    }
    if ((state.table !== null) !== (row.has_table === 1)) problems.push(`${where}: has_table disagrees with its signed state`);
  }
  const entry = ledger.entry(row.seq);
  if (!entry) problems.push(`${where}: names entry ${row.seq}, which the journal does not hold`);
  else if (entry.hash !== row.hash) problems.push(`${where}: entry ${row.seq}'s hash differs from the checkpoint's`);
  else if (sha256Hex(entry.body) !== entry.contentHash || chainHash(entry.prevHash, entry.contentHash) !== entry.hash) {
    problems.push(`${where}: entry ${row.seq} does not match its hash chain`);
  }
  if (problems.length > 0 || !state) return { status: 'bad', seq: row.seq, problems };
  return { status: 'ok', checkpoint: { seq: row.seq, hash: row.hash, state } };
}

/** How many checkpoints the ledger holds, and the newest's seq (status, tests). */
export function checkpointStats(ledger: Ledger): { count: number; lastSeq: number | null } {
  const r = connectionOf(ledger).prepare('SELECT COUNT(*) AS n, MAX(seq) AS last FROM checkpoints').get() as { n: number; last: number | null };
  return { count: r.n, lastSeq: r.last };
}
