import type Database from 'better-sqlite3';
import { checkpointKey } from './sign.js';

/**
 * The `meta` row naming the newest checkpoint a lost key signed: the key-file checkpoints up to it
 * were signed by a `ledger-checkpoint.key` that is gone (deleted, or a folder restored without it)
 * and can never be checked again; only those after it are the present key's.
 */
const LOST_KEY_UP_TO = 'checkpoint_key_lost_up_to';

/**
 * The writer's checkpoint key (`checkpointKey`), made when there is none (`create`). Made anew
 * beside checkpoints a lost key signed, it would find each of them "signature does not match" and
 * fail every start's verification, holding the table for good over an intact journal: so their
 * newest is first written down as signed by the lost key (before the key file, so that a kill
 * between the two leaves no key and the next open does both again), and the starts verify from
 * genesis until the new key signs one (docs/ledger.md, "Checkpoints"). A key file replaced rather
 * than removed is not this case: its checkpoints are still refused as a forgery's would be.
 */
export function checkpointKeyOf(db: Database.Database, file: string, create: boolean): Buffer | null {
  const key = checkpointKey(file, false);
  if (key || !create) return key;
  const newest = hasCheckpoints(db) ? (db.prepare('SELECT MAX(seq) AS seq FROM checkpoints').get() as { seq: number | null }).seq : null;
  if (newest !== null) {
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(LOST_KEY_UP_TO, String(newest));
  }
  return checkpointKey(file, true);
}

/** The newest checkpoint a lost key signed (0: none): a key-file checkpoint is believed only after it. */
export function lostKeyUpTo(db: Database.Database): number {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(LOST_KEY_UP_TO) as { value: string } | undefined;
  const seq = Number(row?.value ?? 0);
  return Number.isSafeInteger(seq) && seq > 0 ? seq : 0;
}

function hasCheckpoints(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'").get() !== undefined;
}
