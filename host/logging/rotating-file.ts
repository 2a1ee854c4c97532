import { closeSync, fstatSync, openSync, renameSync, statSync, unlinkSync } from 'node:fs';
import pino from 'pino';

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
 * process and keeps its own idea of the size; here each write is synchronous through pino's own
 * destination (SonicBoom: a fault is on disk before a crash that follows it), and:
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
  private readonly dest: pino.DestinationStream & {
    reopen(file?: string): void;
    fd: number;
    flushSync(): void;
    end(): void;
    once(event: 'close', listener: () => void): void;
  };
  private size: number;
  private followedAt = 0;

  constructor(
    readonly file: string,
    private readonly limits: RotationLimits = DEFAULT_ROTATION,
    private readonly now: () => number = Date.now,
  ) {
    this.dest = pino.destination({ dest: file, mkdir: true, sync: true, append: true }) as unknown as typeof this.dest;
    this.size = fstatSync(this.dest.fd).size;
  }

  write(line: string): void {
    // A line after close (a screen's socket whose close event comes after the host stopped) goes
    // to stderr: the stopped host must not throw from its log, and the line is still seen.
    if (this.closing) {
      process.stderr.write(line);
      return;
    }
    const bytes = Buffer.byteLength(line);
    if (this.now() - this.followedAt >= FOLLOW_MS) this.follow();
    if (this.size > 0 && this.size + bytes > this.limits.maxBytes) {
      this.follow();
      if (this.size > 0 && this.size + bytes > this.limits.maxBytes) this.rotate();
    }
    this.dest.write(line);
    this.size += bytes;
  }

  /** Opens the path again (after an outside rotation; SIGHUP). */
  reopen(): void {
    this.dest.reopen();
    this.size = this.sizeAtPath() ?? 0;
  }

  flush(): void {
    this.dest.flushSync();
  }

  /** Flushes and closes the file; settles once its descriptor is closed (SonicBoom closes it after an fsync). */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closing = new Promise((resolve) => this.dest.once('close', resolve));
    this.dest.end();
    return this.closing;
  }

  private closing: Promise<void> | null = null;

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
    const held = fstatSync(this.dest.fd);
    if (!atPath || atPath.ino !== held.ino) {
      this.dest.reopen();
      this.size = fstatSync(this.dest.fd).size;
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
      this.dest.reopen();
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
