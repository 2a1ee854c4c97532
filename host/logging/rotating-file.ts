import { closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

export interface RotationLimits {
  /** The live file never grows past this (a single longer line is written whole to a fresh file). */
  maxBytes: number;
  /** Rotated files kept beside it: `host.log.1` (newest) … `host.log.<keep>`. */
  keep: number;
}

/** 20 MiB per file, five old ones: 120 MiB of logs at most, weeks of a quiet table. */
export const DEFAULT_ROTATION: RotationLimits = { maxBytes: 20 * 1024 * 1024, keep: 5 };

/** How often a writer looks whether another process rotated the file, or wrote to it. */
const FOLLOW_MS = 1000;

/**
 * A log file with a size cap, shared by two processes (the table host and Electron's main
 * process write the same `host.log`). pino-roll rotates by size too, but numbers its files per
 * process and keeps its own idea of the size; here each write is synchronous (`writeSync` on a
 * descriptor opened to append: a fault is on disk before a crash that follows it), never throws
 * (a line the disk refuses is counted, `write`), and:
 *
 * - before a write that would pass `maxBytes`, the file is rotated: `host.log.(k-1)` → `host.log.k`
 *   …, `host.log` → `host.log.1`, and a fresh `host.log` is opened; a lock file keeps two writers
 *   from rotating at once;
 * - at most once a second (and before rotating) a writer compares the file at the path with the
 *   one it holds open: if another writer (or logrotate) moved it, it reopens; it also takes the
 *   file's real size, so the other writer's lines count towards the cap;
 * - `reopen()` (on SIGHUP) opens the path again, for an outside logrotate.
 */
export class RotatingFile {
  private fd: number;
  private size: number;
  private followedAt = 0;
  /** Lines the disk refused since the last one it took: counted, and said by the next line written. */
  private lost: { lines: number; since: string; error: string } | null = null;

  constructor(
    readonly file: string,
    private readonly limits: RotationLimits = DEFAULT_ROTATION,
    private readonly now: () => number = Date.now,
  ) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.fd = openSync(file, 'a');
    this.size = fstatSync(this.fd).size;
  }

  /**
   * Writes one line (synchronously: a fault is on disk before a crash that follows it), and never
   * throws: a line the disk refuses (full, failing) is dropped and counted, not kept in memory,
   * and the first line written after says how many were lost and why. Before, the write threw
   * out of the log call wherever it was made (pino's destination had no 'error' listener): a
   * handler that only logs a failure threw instead, and a timer that logs ended the process.
   */
  write(line: string): void {
    // A line after close (a screen's socket whose close event comes after the host stopped) goes
    // to stderr: the stopped host must not throw from its log, and the line is still seen.
    if (this.closing) {
      process.stderr.write(line);
      return;
    }
    try {
      const bytes = Buffer.byteLength(line);
      if (this.now() - this.followedAt >= FOLLOW_MS) this.follow();
      if (this.size > 0 && this.size + bytes > this.limits.maxBytes) {
        this.follow();
        if (this.size > 0 && this.size + bytes > this.limits.maxBytes) this.rotate();
      }
      if (this.lost) {
        this.append(lostLine(this.lost, appOf(line)));
        this.lost = null;
      }
      this.append(line);
    } catch (e) {
      this.refused(e);
    }
  }

  /** Opens the path again (after an outside rotation; SIGHUP). */
  reopen(): void {
    try {
      this.reopenFd();
      this.size = this.sizeAtPath() ?? 0;
    } catch (e) {
      this.refused(e, 0);
    }
  }

  /** The lines are the kernel's once written; this asks the disk to keep them (before an exit). */
  flush(): void {
    if (this.closing) return;
    try {
      fsyncSync(this.fd);
    } catch {
      // A disk that refuses the sync refused lines too: they are counted already.
    }
  }

  /** Syncs and closes the file; later lines go to stderr. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.flush();
    try {
      closeSync(this.fd);
    } catch {
      // Closed whatever the disk says: nothing more is written through it.
    }
    this.closing = Promise.resolve();
    return this.closing;
  }

  private closing: Promise<void> | null = null;

  /** The whole of `text` at the file's end; one the disk cuts short is cut off again, so the file holds whole lines only. */
  private append(text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    let done = 0;
    try {
      while (done < bytes.length) {
        const n = writeSync(this.fd, bytes, done, bytes.length - done);
        if (!(n > 0)) throw Object.assign(new Error(`${this.file}: a write took nothing`), { code: 'EIO' });
        done += n;
      }
    } catch (e) {
      if (done > 0) this.cutOff(done);
      throw e;
    }
    this.size += bytes.length;
  }

  /** Takes back the `written` bytes of a line the disk refused the rest of (the file is opened to append: they are its last). */
  private cutOff(written: number): void {
    try {
      ftruncateSync(this.fd, Math.max(0, fstatSync(this.fd).size - written));
    } catch {
      // Left torn: a reader skips a line that does not parse.
    }
  }

  /** A line the disk refused: counted; the first of a run is said on stderr (the journal), once. */
  private refused(e: unknown, lines = 1): void {
    const error = e instanceof Error ? `${(e as NodeJS.ErrnoException).code ?? e.name}: ${e.message}` : String(e);
    if (!this.lost) {
      this.lost = { lines: 0, since: new Date(this.now()).toISOString(), error };
      try {
        process.stderr.write(`${this.file}: the disk refused a log line (${error}); lines are counted, not kept, until it takes them again\n`);
      } catch {
        // stderr gone too: the count is still said in the file once it takes lines again.
      }
    }
    this.lost.lines += lines;
  }

  private reopenFd(): void {
    const fd = openSync(this.file, 'a');
    const old = this.fd;
    this.fd = fd;
    closeSync(old);
  }

  private sizeAtPath(): number | null {
    try {
      return statSync(this.file).size;
    } catch {
      return null;
    }
  }

  /** Reopens if the path is no longer the file held open; takes the real size either way. */
  private follow(): void {
    this.followedAt = this.now();
    let atPath: { ino: number; size: number } | null;
    try {
      atPath = statSync(this.file);
    } catch {
      atPath = null;
    }
    const held = fstatSync(this.fd);
    if (!atPath || atPath.ino !== held.ino) {
      this.reopenFd();
      this.size = fstatSync(this.fd).size;
    } else this.size = atPath.size;
  }

  private rotate(): void {
    const lock = `${this.file}.lock`;
    let fd: number;
    try {
      fd = openSync(lock, 'wx');
    } catch {
      // Another writer is rotating (or died doing so): a stale lock is taken over after 10 s.
      try {
        if (this.now() - statSync(lock).mtimeMs < 10_000) return this.follow();
        unlinkSync(lock);
        fd = openSync(lock, 'wx');
      } catch {
        return this.follow();
      }
    }
    try {
      for (let k = this.limits.keep - 1; k >= 1; k--) renameQuiet(`${this.file}.${k}`, `${this.file}.${k + 1}`);
      if (this.limits.keep >= 1) renameQuiet(this.file, `${this.file}.1`);
      else unlinkQuiet(this.file);
      this.reopenFd();
      this.size = 0;
    } finally {
      closeSync(fd);
      unlinkQuiet(lock);
    }
  }
}

function renameQuiet(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

function unlinkQuiet(file: string): void {
  try {
    unlinkSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/** The line that says what the disk refused, in the log's own shape (pino's error level). */
function lostLine(lost: { lines: number; since: string; error: string }, app: string | undefined): string {
  const said = { level: 50, time: new Date().toISOString(), ...(app === undefined ? {} : { app }), msg: 'log lines lost: the disk refused them' };
  return `${JSON.stringify({ ...said, lost: lost.lines, since: lost.since, error: lost.error })}\n`;
}

/**
 * The process a line is from (its `app`): the file is shared by the host and Electron's main
 * process, and the lost lines are the writer's own, so they are said under the name of the line
 * that follows them from the same writer.
 */
function appOf(line: string): string | undefined {
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null && 'app' in v && typeof v.app === 'string' ? v.app : undefined;
  } catch {
    return undefined;
  }
}
