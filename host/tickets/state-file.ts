import { closeSync, existsSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
  if (!existsSync(file)) return { state: 'missing' };
  let json: unknown;
  try {
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
    if (options.keepPrevious === true && existsSync(file)) {
      rmSync(prevTmp, { force: true });
      linkSync(file, prevTmp);
      renameSync(prevTmp, `${file}.prev`);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    rmSync(prevTmp, { force: true });
    throw err;
  }
  syncFolder(path.dirname(file));
}

function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
