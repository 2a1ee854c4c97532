import { readFileSync, statSync } from 'node:fs';
import type { z } from 'zod';
import { writeFileWhole } from '../../ledger/index.js';

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

/** Where a state file found damaged is said (the host's log). */
export interface StateFileLog {
  error(detail: object, message: string): void;
}

/**
 * The file's value if it exists and is ours, else null; one found and not believed is logged as an
 * error naming the file, why, and `consequence` (what the table does without it). A first use
 * (no file) says nothing.
 */
export function readStateFileSaid<T>(file: string, schema: z.ZodType<T>, log: StateFileLog | undefined, consequence: string): T | null {
  const read = readStateFileChecked(file, schema);
  if (read.state === 'damaged') log?.error({ file, why: read.why }, `state file damaged, not believed: ${consequence}`);
  return read.state === 'ok' ? read.value : null;
}

/** The file's value if it exists and is ours (JSON of `schema`); null when absent, cut by a power loss, overwritten or not ours. */
export function readStateFile<T>(file: string, schema: z.ZodType<T>): T | null {
  const read = readStateFileChecked(file, schema);
  return read.state === 'ok' ? read.value : null;
}

/**
 * Writes `value` as JSON, readable by the kiosk user only, whole or not at all, then the folder
 * flushed (ledger/whole-file.ts). `keepPrevious`: the file being replaced stays as `<file>.prev`,
 * for a reader whose file is damaged to fall back on.
 */
export function writeStateFile(file: string, value: unknown, options: { keepPrevious?: boolean } = {}): void {
  writeFileWhole(file, JSON.stringify(value), { keepPrevious: options.keepPrevious === true, syncFolder: true });
}
