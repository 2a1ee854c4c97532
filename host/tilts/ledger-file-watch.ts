import type { Logger } from 'pino';
import { tiltDetailSaid } from '../../locales/said.js';
import { checkLedgerFile, type FileCheckResult } from '../../ledger/index.js';
import type { Timers } from '../table/timers.js';
import type { TiltManager } from './tilt-manager.js';

/** Once a gaming day's length after the last check ended: about 15 s of one core a million entries. */
export const LEDGER_FILE_CHECK_EVERY_MS = 24 * 3_600_000;

export interface LedgerFileWatchOptions {
  /** The ledger's file; `:memory:` is never checked (tests). */
  file: string;
  tilts: TiltManager;
  log: Logger;
  timers: Timers;
  everyMs?: number;
  /** The check itself (ledger/file-check.ts); a test may give its own. */
  check?: (file: string, signal: AbortSignal) => Promise<FileCheckResult>;
}

/**
 * The whole ledger file checked in the background (ledger/file-check.ts) at the start and then
 * every `everyMs`: an index rebuilt by hand, or a page gone bad, past the 32 MiB the open checks
 * whole, halts the table through the `ledger-integrity` fault, as a failed verification does. The
 * table plays meanwhile: the check reads a snapshot on a connection of its own, off the host's thread.
 */
export class LedgerFileWatch {
  private timer: unknown = null;
  private running: Promise<FileCheckResult> | null = null;
  private stopped = false;
  private readonly abort = new AbortController();
  /** The first check's result (tests wait on it). */
  readonly first: Promise<FileCheckResult>;
  private resolveFirst: (r: FileCheckResult) => void = () => undefined;

  constructor(private readonly o: LedgerFileWatchOptions) {
    this.first = new Promise((resolve) => (this.resolveFirst = resolve));
  }

  start(): void {
    if (this.o.file === ':memory:') return this.resolveFirst({ ok: true, ran: true, problems: [] });
    void this.once();
  }

  /** No check after this; one running is ended, and waited for (its process holds the file open). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    if (this.timer !== null) this.o.timers.clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private async once(): Promise<void> {
    const started = this.o.timers.now();
    this.running = (this.o.check ?? checkLedgerFile)(this.o.file, this.abort.signal);
    const r = await this.running;
    this.running = null;
    if (this.stopped) return this.resolveFirst(r);
    const ms = this.o.timers.now() - started;
    if (r.ok) this.o.log.info({ ms }, 'ledger file checked: every page, row and index');
    // A check that could not run says nothing of the file: said in the log, tried again at the next.
    else if (!r.ran) this.o.log.error({ ms, problems: r.problems }, 'ledger file check could not run');
    else {
      this.o.log.error({ ms, problems: r.problems }, 'ledger file check failed');
      this.o.tilts.raise('ledger-integrity', { detail: r.problems.slice(0, 5).join('; ').slice(0, 300), say: tiltDetailSaid('ledgerFileCheck') });
    }
    this.resolveFirst(r);
    this.timer = this.o.timers.setTimeout(() => void this.once(), this.o.everyMs ?? LEDGER_FILE_CHECK_EVERY_MS);
  }
}
