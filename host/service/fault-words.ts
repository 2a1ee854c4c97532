import type { ServiceNotice } from '../../protocol/index.js';

/** What the person at the service screen is told of an exception a service action threw: its kind, worded in every locale. */
const FAULT_KEYS = {
  diskFull: 'service.failed.fault.diskFull',
  busy: 'service.failed.fault.busy',
  readOnly: 'service.failed.fault.readOnly',
  other: 'service.failed.fault.other',
} as const;
export type FaultKind = keyof typeof FAULT_KEYS;

const KIND_OF_CODE: Readonly<Record<string, FaultKind>> = {
  SQLITE_FULL: 'diskFull',
  ENOSPC: 'diskFull',
  EDQUOT: 'diskFull',
  SQLITE_BUSY: 'busy',
  SQLITE_LOCKED: 'busy',
  SQLITE_READONLY: 'readOnly',
  EROFS: 'readOnly',
};

/**
 * The kind of an exception, by its code (better-sqlite3's SqliteError and Node's system errors carry
 * one; an extended SQLite code such as SQLITE_READONLY_DBMOVED by its primary part), else by words
 * SQLite and the system use; anything else is `other`.
 */
export function faultKind(e: unknown): FaultKind {
  const code = typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : '';
  const primary = /^SQLITE_[A-Z]+/.exec(code)?.[0] ?? code;
  const byCode = KIND_OF_CODE[primary];
  if (byCode) return byCode;
  const words = e instanceof Error ? e.message : String(e);
  if (/disk is full|no space left/i.test(words)) return 'diskFull';
  if (/database is (locked|busy)/i.test(words)) return 'busy';
  if (/read-?only (database|file system)/i.test(words)) return 'readOnly';
  return 'other';
}

/** The screen's notice of an exception a service action threw: its kind only (the exception's English is the log's). */
export function faultNotice(e: unknown): ServiceNotice {
  return { ok: false, key: FAULT_KEYS[faultKind(e)] };
}

/** A fault kind as a code the catalogues name by a noun (`service.faultName.*`; a said parameter `failure`, locales/said.ts). */
export const FAULT_CODES: Readonly<Record<FaultKind, string>> = { diskFull: 'disk-full', busy: 'busy', readOnly: 'read-only', other: 'other' };
