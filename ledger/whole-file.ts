import { closeSync, existsSync, fsyncSync, linkSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface WholeFileOptions {
  /**
   * The file being replaced stays as `<file>.prev` (a second name for it, then renamed: never a cut
   * copy), for a reader whose file is damaged to fall back on. At best: a previous copy that cannot
   * be kept (a folder in its place, a full disk) leaves the older one, and the file is written all
   * the same (before, a folder at `.prev` kept the file itself from ever being written again).
   */
  keepPrevious?: boolean;
  /** The folder flushed after the rename (the rename is not on disk until it is). */
  syncFolder?: boolean;
}

/**
 * Writes `text` as `file` whole or not at all, readable by its owner only: a temporary file flushed
 * to disk, then renamed over it (a power cut leaves the old file or the new one). A write that
 * fails removes its temporary files: on a full disk a cut copy left behind kept the disk full (a
 * review: the receipt's and the peer files' `*.<pid>.tmp`).
 */
export function writeFileWhole(file: string, text: string, options: WholeFileOptions = {}): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const prevTmp = `${file}.prev.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600, flush: true });
    if (options.keepPrevious === true && existsSync(file)) keepPrevious(file, prevTmp);
    renameSync(tmp, file);
  } catch (e) {
    removeQuietly(tmp);
    removeQuietly(prevTmp);
    throw e;
  }
  if (options.syncFolder === true) syncFolder(path.dirname(file));
}

function keepPrevious(file: string, prevTmp: string): void {
  try {
    removeQuietly(prevTmp);
    linkSync(file, prevTmp);
    renameSync(prevTmp, `${file}.prev`);
  } catch {
    removeQuietly(prevTmp);
  }
}

/** Removes a temporary file, whatever is in the way: its leftover is not worth the write that failed. */
function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // A folder in its place: left for whoever put it there.
  }
}

function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
