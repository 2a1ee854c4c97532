import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { z } from 'zod';

// The host's small state files in its data folder (the SAS files: docs/security.md lists them).
// Here because host/tickets imports nothing of the host and host/devices may import it (the SAS
// validation id's store is this folder's, the exception feed's and the validation reads' are devices').
// None grants credit: each is read back only when it is ours, and written so that a power cut
// leaves the old file or the new one, never a cut one.

/** The file's value if it exists and is ours (JSON of `schema`); null when absent, cut by a power loss, overwritten or not ours. */
export function readStateFile<T>(file: string, schema: z.ZodType<T>): T | null {
  if (!existsSync(file)) return null;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** Writes `value` as JSON, readable by the kiosk user only, flushed to a temporary file and renamed into place. */
export function writeStateFile(file: string, value: unknown): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(value), { mode: 0o600, flush: true });
  renameSync(tmp, file);
}
