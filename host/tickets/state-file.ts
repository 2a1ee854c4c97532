import { closeSync, existsSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';

// The host's small state files in its data folder (the SAS files: docs/security.md lists them).
// Here because host/tickets imports nothing of the host and host/devices may import it (the SAS
// validation id's store is this folder's, the exception feed's and the validation reads' are devices').
// None grants credit: each is read back only when it is ours, and written so that a power cut
// leaves the old file or the new one, never a cut one.

/** What reading a state file found: a file never written is first use; one there and not ours is damage its reader may want to say. */
export type StateRead<T> = { state: 'ok'; value: T } | { state: 'missing' } | { state: 'damaged'; why: string };

/** The file's value, told apart: absent; ours (JSON of `schema`); or there and not believed (unreadable, a folder, not JSON, not ours), with why. */
export function readStateFileChecked<T>(file: string, schema: z.ZodType<T>): StateRead<T> {
  let json: unknown;
  try {
    // Missing is "no such file" only: a file whose metadata cannot be read (EIO, a loop) is damage,
    // never a first use (existsSync said false for any error).
    if (statSync(file, { throwIfNoEntry: false }) === undefined) return { state: 'missing' };
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return { state: 'damaged', why: err instanceof Error ? err.message : String(err) };
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? { state: 'ok', value: parsed.data } : { state: 'damaged', why: `not ours: ${parsed.error.issues[0]?.message ?? 'schema'}` };
}

/** The file's value if it exists and is ours (JSON of `schema`); null when absent, cut by a power loss, overwritten or not ours. */
export function readStateFile<T>(file: string, schema: z.ZodType<T>): T | null {
  const read = readStateFileChecked(file, schema);
  return read.state === 'ok' ? read.value : null;
}

/**
 * Writes `value` as JSON, readable by the kiosk user only, flushed to a temporary file and renamed
 * into place, then the folder flushed (the rename is not on disk until it is). A write that fails
 * removes its temporary file: a disk that refuses writes must not fill up with them.
 * `keepPrevious`: the file being replaced stays as `<file>.prev` (a second name for it, then
 * renamed: never a cut copy), for a reader whose file is damaged to fall back on.
 */
export function writeStateFile(file: string, value: unknown, options: { keepPrevious?: boolean } = {}): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const prevTmp = `${file}.prev.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(value), { mode: 0o600, flush: true });
    if (options.keepPrevious === true && existsSync(file)) keepPrevious(file, prevTmp);
    renameSync(tmp, file);
  } catch (err) {
    removeQuietly(tmp);
    removeQuietly(prevTmp);
    throw err;
  }
  syncFolder(path.dirname(file));
}

/**
 * The file about to be replaced kept as `<file>.prev`, at best: a previous copy that cannot be kept
 * (a folder in its place, a full disk) leaves the older one, and the file is written all the same
 * (before, a folder at `.prev` kept the file itself from ever being written again).
 */
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
