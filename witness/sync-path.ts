import { closeSync, fsyncSync, openSync } from 'node:fs';

/** A file's bytes, or a folder's names (a rename into it), flushed to disk: not there after a power cut until they are. */
export function syncPath(file: string): void {
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
