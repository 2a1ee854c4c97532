import type { KeyObject } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { SignedHead } from '../witness/wire.js';
import { signCheckpoint } from './sign.js';

/**
 * What the ledger witness gave (ledger/witness-link.ts `attach`): its key, the newest head it
 * signed for this terminal when asked, and how to have it sign a checkpoint. Verification checks
 * the journal against that head and the checkpoints against that key (ledger/witness-check.ts).
 */
export interface LedgerWitnessView {
  publicKey: KeyObject;
  keyId: string;
  keyStore: 'tpm' | 'file';
  /** Where the witness listens (for reports). */
  address: string;
  /** The newest head it signed for this terminal (null: none yet). */
  head: SignedHead | null;
  /**
   * Whether a witness without a head of this terminal is the first use (the host's start, which
   * then gives it the chain from genesis) or a problem (`etg ledger verify --witness`).
   */
  firstUse: boolean;
  /**
   * Has the witness sign the checkpoint of `state` (its exact text) at (seq, hash) (the host's link;
   * absent for verify). The witness signs it only when it holds the effects it folded itself.
   */
  signCheckpoint?: (seq: number, hash: string, state: string) => Promise<string>;
}

/**
 * How a checkpoint signed by the witness is stored in `checkpoints.signature`, before its base64:
 * `witness2:` for the v2 statement, signed only of a state the witness derived itself. The
 * `witness:` rows of before (v1, signed of any state at its head) are believed by nobody.
 */
export const WITNESS_SIGNATURE_PREFIX = 'witness2:';
/** The prefix every witness signature shares, old or new: never a key file's checkpoint. */
export const ANY_WITNESS_SIGNATURE_PREFIX = 'witness';

/** The table's folded state as of entry `seq`, for a checkpoint (opaque to the ledger). */
export interface TableSnapshot {
  seq: number;
  /** The game's identity the state was folded under. */
  identity: string;
  state: unknown;
}

/**
 * Entries between checkpoints unless the options say otherwise. A start verifies and folds the
 * table from the newest checkpoint: folding costs about 0.1–0.35 ms an entry of real play on the
 * build machine (idle to loaded), verifying about 0.05, so 2,000 entries bound a start's
 * journal-dependent part near 0.7 s even loaded; a checkpoint with the table's state is about
 * 15 KB, 2–3% of the journal it follows.
 */
export const CHECKPOINT_EVERY = 2_000;

/** What the checkpoints read of their ledger: its connection, terminal, clock, head and head mark. */
export interface CheckpointedLedger {
  readonly db: Database.Database;
  readonly terminalId: string;
  readonly clock: () => Date;
  head(): { seq: number; hash: string };
  /** Writes the head beside the database (the head mark), marked as checkpointed; nothing where no mark is kept. */
  markCheckpointed(): void;
  closed(): boolean;
}

/** How the checkpoints are signed: a key file's key, or the witness (`witnessed`); a checkpoint after `every` entries. */
export interface CheckpointSigning {
  readonly key: Buffer | null;
  readonly witnessed: boolean;
  readonly every: number;
}

interface CheckpointInternals {
  /** The checkpoint key file's key (null when witnessed, or none). */
  key: Buffer | null;
  /** Whether checkpoints are the witness's to sign. */
  witnessed: boolean;
  /** The witness attached, if any. */
  witness: LedgerWitnessView | null;
  useWitness(view: LedgerWitnessView): void;
  verified(): void;
}

// Set once by the class's static block, the one place that may read its private fields.
let reachInternals: (c: LedgerCheckpoints) => CheckpointInternals;

/** The key or witness and how verification vouches for the state, for ledger/'s own modules (through `internalsOf`). */
export function checkpointInternals(c: LedgerCheckpoints): CheckpointInternals {
  return reachInternals(c);
}

/**
 * A ledger's signed checkpoints (ledger/checkpoint.ts): the state after an entry (the head hash,
 * every balance, meter and open bet, and the table's folded state when it stands at that entry),
 * signed with the terminal's key file or by the witness, so that a start verifies and folds
 * from the newest one instead of from genesis. Nothing of the journal changes.
 */
export class LedgerCheckpoints {
  readonly #ledger: CheckpointedLedger;
  readonly #key: Buffer | null;
  readonly #witnessed: boolean;
  readonly #every: number;
  #witness: LedgerWitnessView | null = null;
  /** Checkpoints sent to the witness to sign and not yet stored. */
  readonly #signing = new Set<Promise<unknown>>();
  #last = 0;
  #tableSnapshot: (() => TableSnapshot | null) | null = null;
  /**
   * Whether this process may sign the state as it stands: the ledger was empty when opened, or
   * `verifyLedger` found it sound since (what this process appends after is derived from that).
   * Until then no checkpoint is written: a start appends (its power reset) before it verifies,
   * and a checkpoint written then would sign whatever the file held, tampering included, and
   * the verification would start after it.
   */
  #vouched: boolean;

  static {
    reachInternals = (c) => ({
      key: c.#key,
      witnessed: c.#witnessed,
      witness: c.#witness,
      useWitness: (view) => {
        c.#witness = view;
      },
      verified: () => {
        c.#vouched = true;
      },
    });
  }

  constructor(ledger: CheckpointedLedger, signing: CheckpointSigning) {
    this.#ledger = ledger;
    this.#witnessed = signing.witnessed;
    this.#every = signing.every;
    this.#vouched = ledger.head().seq === 0;
    // A database stopped before migration 5 (migration tests) has no checkpoints and writes none.
    const has = ledger.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'").get() !== undefined;
    this.#key = has ? signing.key : null;
    if (has) this.#last = (ledger.db.prepare('SELECT MAX(seq) AS seq FROM checkpoints').get() as { seq: number | null }).seq ?? 0;
  }

  /** Waits until every checkpoint sent to the witness is signed and stored (or refused). */
  async signed(): Promise<void> {
    while (this.#signing.size > 0) await Promise.allSettled([...this.#signing]);
  }

  /**
   * The table's state for checkpoints: `snapshot` answers the table's folded state and the seq it
   * stands at (null when it does not stand at a known seq). A checkpoint carries it only when that
   * seq is the head's. Returns the withdrawal.
   */
  provideTable(snapshot: () => TableSnapshot | null): () => void {
    this.#tableSnapshot = snapshot;
    return () => {
      if (this.#tableSnapshot === snapshot) this.#tableSnapshot = null;
    };
  }

  /**
   * Writes a checkpoint when `checkpointEvery` entries were journalled since the last one: with
   * the table's state when the table stands at the head, else (no table, or twice the interval
   * gone by without one standing still) without it. The ledger calls it after each commit, the
   * table's runtime again once it has applied what it journalled. Returns the seq written, or
   * null (none due, or the ledger not verified yet by this process).
   */
  writeIfDue(): number | null {
    if (this.#every <= 0 || !this.canSign() || !this.#vouched) return null;
    const head = this.#ledger.head();
    const since = head.seq - this.#last;
    if (since < this.#every) return null;
    const snap = this.#tableSnapshot?.() ?? null;
    const table = snap && snap.seq === head.seq ? snap : null;
    if (!table && this.#tableSnapshot && since < 2 * this.#every) return null;
    return this.write(table);
  }

  /**
   * Writes a signed checkpoint of the state after the head entry: the head hash, every balance,
   * meter and open bet, and the table's state when given (it must stand at the head). Returns the
   * seq, or null without a key or entries, or before this process verified the ledger (an empty
   * ledger needs none). Witnessed, the seq is returned at once and the row stored once signed.
   */
  write(table: TableSnapshot | null = null): number | null {
    const { seq, hash } = this.#ledger.head();
    if (!this.canSign() || seq === 0 || !this.#vouched) return null;
    if (table && table.seq !== seq) throw new Error(`the table's state stands at ${table.seq}, the head at ${seq}`);
    const db = this.#ledger.db;
    const at = this.#ledger.clock().toISOString();
    const state = this.stateText(seq, hash, at, table);
    const insert = (signature: string) =>
      db
        .prepare('INSERT OR IGNORE INTO checkpoints (seq, hash, written_at, has_table, state, signature) VALUES (?, ?, ?, ?, ?, ?)')
        .run(seq, hash, at, table ? 1 : 0, state, signature).changes > 0;
    const previous = this.#last;
    this.#last = seq;
    this.#ledger.markCheckpointed();
    const sign = this.#witness?.signCheckpoint;
    if (this.#witnessed && sign) {
      // The witness signs once its head reaches this entry (ledger/witness-link.ts); the row is
      // stored then. A refusal or a witness gone leaves no row: the next one due is tried again.
      const signing = sign(seq, hash, state).then(
        (signature) => {
          try {
            if (!this.#ledger.closed()) insert(`${WITNESS_SIGNATURE_PREFIX}${signature}`);
          } catch {
            /* a checkpoint not stored costs the next start time, never an entry */
          }
        },
        () => {
          if (this.#last === seq) this.#last = previous;
        },
      );
      this.#signing.add(signing);
      void signing.finally(() => this.#signing.delete(signing));
      return seq;
    }
    if (this.#key === null) return null;
    return insert(signCheckpoint(this.#key, this.#ledger.terminalId, seq, hash, state)) ? seq : null;
  }

  /** The checkpoint's signed text: the head, every balance, meter and open bet, and the table's state. */
  private stateText(seq: number, hash: string, at: string, table: TableSnapshot | null): string {
    const db = this.#ledger.db;
    const balances = db.prepare('SELECT account, balance FROM balances ORDER BY account').all() as { account: string; balance: number }[];
    const meters = db.prepare('SELECT scope, name, value FROM meters ORDER BY scope, name').all() as { scope: string; name: string; value: number }[];
    const openBets = db.prepare('SELECT round_id, station, seq, amount, credit_before FROM round_bets ORDER BY seq, round_id, station').all() as {
      round_id: string;
      station: number;
      seq: number;
      amount: number;
      credit_before: number;
    }[];
    return JSON.stringify({
      v: 1,
      terminal: this.#ledger.terminalId,
      seq,
      hash,
      at,
      balances: balances.map((r) => [r.account, r.balance]),
      meters: meters.map((r) => [r.scope, r.name, r.value]),
      openBets: openBets.map((r) => [r.round_id, r.station, r.seq, r.amount, r.credit_before]),
      table: table ? { identity: table.identity, state: table.state } : null,
    });
  }

  /** Whether this ledger can have a checkpoint signed now: its key, or an attached witness that signs. */
  private canSign(): boolean {
    return this.#witnessed ? this.#witness?.signCheckpoint !== undefined : this.#key !== null;
  }
}
