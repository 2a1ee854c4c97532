import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { LedgerOpenError } from './db.js';

/** The mark's one line, padded to a fixed size so that every write overwrites the whole of it in place. */
const MARK_BYTES = 128;

/**
 * Refused at open: the database's journal ends before an entry this file once committed, or holds
 * another entry at its place. The write-ahead log (`-wal`) was lost or truncated after commits not
 * yet checkpointed into the main file, or an older copy of the database was put in its place.
 */
export class LedgerRollbackError extends LedgerOpenError {
  constructor(
    message: string,
    readonly mark: { seq: number; hash: string },
    readonly head: { seq: number; hash: string },
  ) {
    super(message);
    this.name = 'LedgerRollbackError';
  }
}

/**
 * The journal's head, kept outside the database in `<ledger>.head`: rewritten in place after every
 * commit, so that a start can tell when entries it committed are gone from the database (a lost
 * WAL: SQLite opens the main file alone and answers with an older journal, silently). It only ever
 * holds a committed head (written after the commit), so an intact database is never refused.
 *
 * It is written without an fsync of its own at each commit (the kernel keeps it through a kill of
 * the process; SQLite's fsync of the WAL is the commit's durability), and fsynced at every ledger
 * checkpoint and at close: after a power cut it may be older than the journal, never newer, so what
 * it misses then is a loss of entries younger than its last fsync (docs/ledger.md, "A lost WAL").
 */
export class HeadMark {
  private fd: number | null = null;

  readonly file: string;

  constructor(private readonly databaseFile: string) {
    this.file = `${databaseFile}.head`;
  }

  /** The mark of a database file (none for `:memory:`). */
  static of(databaseFile: string): HeadMark | null {
    return databaseFile === ':memory:' ? null : new HeadMark(databaseFile);
  }

  /** The last head written, or null when there is none (a new ledger, or a mark removed on purpose). */
  read(): { seq: number; hash: string } | null {
    if (!existsSync(this.file)) return null;
    const text = readFileSync(this.file, 'utf8');
    const [seqText, hash] = text.trim().split(' ');
    const seq = Number(seqText);
    // A mark torn by a power cut mid-write reads as none: it can only make a start less careful,
    // never refuse an intact journal.
    if (!Number.isSafeInteger(seq) || seq < 0 || hash === undefined || !/^[0-9a-f]{64}$/.test(hash)) return null;
    return { seq, hash };
  }

  /**
   * Refuses a journal that ends before the mark or holds another entry at its seq. `hashAt`: the
   * journal's hash of an entry (undefined when there is none). `mark`: the mark as read before the
   * journal was (a reader beside the host: the host writes it after its commit, so read first it
   * never names an entry the reader's snapshot lacks).
   */
  check(head: { seq: number; hash: string }, hashAt: (seq: number) => string | undefined, mark = this.read()): void {
    if (mark === null || mark.seq === 0) return;
    const at = mark.seq <= head.seq ? hashAt(mark.seq) : undefined;
    if (at === mark.hash) return;
    const why =
      mark.seq > head.seq
        ? `the journal ends at entry ${head.seq}, but entry ${mark.seq} was committed here before`
        : `entry ${mark.seq} of the journal is not the one committed here before`;
    throw new LedgerRollbackError(
      `ledger rollback: ${why}. The write-ahead log (${this.databaseFile}-wal) was lost or ` +
        `truncated, or an older copy of the database was put in place. Acknowledged entries are gone: the ` +
        `host will not run on this journal. Put the WAL back, or compare with the upstream's copy; ` +
        `removing ${this.file} accepts the loss (docs/ledger.md, "A lost WAL").`,
      mark,
      head,
    );
  }

  /** Overwrites the mark with `head` (in place: one write of the fixed-size line). */
  write(head: { seq: number; hash: string }, sync = false): void {
    this.fd ??= openSync(this.file, existsSync(this.file) ? 'r+' : 'w', 0o600);
    const line = `${head.seq} ${head.hash}`.padEnd(MARK_BYTES - 1, ' ') + '\n';
    writeSync(this.fd, line, 0, 'utf8');
    if (sync) fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd === null) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = null;
  }
}
