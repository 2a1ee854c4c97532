import type { Ledger } from '../../ledger/index.js';

/** The process was killed at this write: nothing after it reaches the disk. */
export class Killed extends Error {
  constructor(
    readonly write: number,
    readonly committed: boolean,
    /** The types of the entries of the write it hit. */
    readonly types: readonly string[],
  ) {
    super(`killed at journal write ${write} (${committed ? 'after' : 'before'} its commit: ${types.join(', ')})`);
    this.name = 'Killed';
  }
}

/** The error SQLite gives on a full disk or an I/O failure, as the ledger would pass it on. */
export class StorageError extends Error {
  constructor(readonly code: 'SQLITE_FULL' | 'SQLITE_IOERR') {
    super(code === 'SQLITE_FULL' ? 'SQLITE_FULL: database or disk is full' : 'SQLITE_IOERR: disk I/O error');
    this.name = 'SqliteError';
  }
}

/** A fault armed on the journal's writes, by the number of the write it hits (counted from 1 in this process). */
export type WriteFault =
  { kind: 'kill'; at: number; committed: boolean } | { kind: 'storage'; from: number; count: number; code: 'SQLITE_FULL' | 'SQLITE_IOERR' };

/**
 * Puts the fault injector in front of one ledger's writes: every write (`append` goes through
 * `appendMany`) is counted, and an armed fault refuses it (a full disk: the transaction is never
 * begun, exactly as SQLite rolls it back) or kills the process before or after its commit. Once
 * killed the ledger takes nothing more: the harness then drops the whole host and recovers from
 * the file. Reads are untouched.
 */
export class FaultyLedger {
  writes = 0;
  /** The types of the entries of each write, in order (the kill campaign names its kill points by them). */
  readonly written: (readonly string[])[] = [];
  killed: Killed | null = null;
  /** Writes refused by a storage fault, by code. */
  readonly refused = { SQLITE_FULL: 0, SQLITE_IOERR: 0 };

  private faults: readonly WriteFault[];

  constructor(
    readonly ledger: Ledger,
    faults: readonly WriteFault[],
  ) {
    this.faults = faults;
    const appendMany = ledger.appendMany.bind(ledger);
    ledger.appendMany = (entries, then) => {
      if (this.killed) throw this.killed;
      const n = ++this.writes;
      this.written.push(entries.map((e) => e.type));
      for (const f of this.faults) {
        if (f.kind === 'storage' && n >= f.from && n < f.from + f.count) {
          this.refused[f.code]++;
          throw new StorageError(f.code);
        }
        if (f.kind === 'kill' && f.at === n && !f.committed)
          throw (this.killed = new Killed(
            n,
            false,
            entries.map((e) => e.type),
          ));
      }
      const out = appendMany(entries, then);
      // What the transaction wrote, `then`'s entries (made from these as written) included.
      const types = out.map((r) => r.entry.type);
      this.written[this.written.length - 1] = types;
      for (const f of this.faults) if (f.kind === 'kill' && f.at === n && f.committed) throw (this.killed = new Killed(n, true, types));
      return out;
    };
    // A dead process writes no checkpoint either (the runtime, told its write failed, would
    // otherwise checkpoint a state that is not the journal's fold: a harness artifact, not a kill).
    const checkpoint = ledger.checkpoints.write.bind(ledger.checkpoints);
    ledger.checkpoints.write = (table) => {
      if (this.killed) throw this.killed;
      return checkpoint(table);
    };
    const checkpointIfDue = ledger.checkpoints.writeIfDue.bind(ledger.checkpoints);
    ledger.checkpoints.writeIfDue = () => {
      if (this.killed) throw this.killed;
      return checkpointIfDue();
    };
  }

  /** A kill armed on the write `after` writes from now (the ticket floor arms them during play, not only at a start). */
  armKill(after: number, committed: boolean): void {
    this.faults = [...this.faults, { kind: 'kill', at: this.writes + after, committed }];
  }

  /** The faults stop (the end of a run): writes go through again. */
  disarm(): void {
    this.faults = [];
    this.killed = null;
  }
}
