// The admin token of an embedded upstream (`--data-dir D`) when none is given: made once, random,
// into D/admin-token (owner-only), and read from there on every later start. The rule stays: no
// admin route without a token; this only spares a newcomer from having to invent one. A file that
// someone else could read, or write, is refused rather than trusted.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from './common.js';

export const ADMIN_TOKEN_FILE = 'admin-token';

export interface DataDirToken {
  readonly token: string;
  readonly file: string;
  /** Whether this start made it (first run). */
  readonly made: boolean;
}

export function dataDirAdminToken(dataDir: string): DataDirToken {
  const file = path.join(dataDir, ADMIN_TOKEN_FILE);
  if (existsSync(file)) {
    const st = statSync(file);
    if (!st.isFile()) throw new UsageError(`${file} is not a file`);
    if ((st.mode & 0o077) !== 0) {
      throw new UsageError(`${file} can be read or written by others (mode ${(st.mode & 0o777).toString(8)}): make it owner-only (chmod 0600) or remove it`);
    }
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) throw new UsageError(`${file} belongs to another user (uid ${st.uid})`);
    const token = readFileSync(file, 'utf8').trim();
    if (token.length < 24) throw new UsageError(`${file} holds a token shorter than 24 characters`);
    return { token, file, made: false };
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  // 'wx': never overwrite a token another start made meanwhile; 0600 from the first byte.
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  return { token, file, made: true };
}
