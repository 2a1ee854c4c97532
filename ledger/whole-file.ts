import { renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Writes `text` as `file` whole or not at all, readable by its owner only: a temporary file flushed
 * to disk, then renamed over it (a power cut leaves the old file or the new one). A write that
 * fails removes its temporary file: on a full disk a cut copy left behind kept the disk full (a
 * review: the receipt's and the peer files' `*.<pid>.tmp`).
 */
export function writeFileWhole(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600, flush: true });
    renameSync(tmp, file);
  } catch (e) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // A folder in its place: left for whoever put it there.
    }
    throw e;
  }
}
