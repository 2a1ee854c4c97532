// Test-only: what someone with the kiosk user's file access does to the data folder, with the
// ledger's own code and every file in the folder (docs/security.md, "The ledger witness"). Nothing
// here reaches the witness's folder: its key and record are out of this attacker's reach.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { HeadMark, Ledger, ledgerFile, openExistingLedger, type EntryBody, type JournalEntry } from '../../ledger/index.js';

/**
 * Rebuilds the whole journal with the ledger's own append code, every entry as it was (its type,
 * transaction id, payload and time) but for what `edit` changes; signs a checkpoint with the key
 * file beside the database (making one if the folder has none: the folder is the attacker's);
 * puts the new database in place of the old (its WAL gone) and rewrites the head mark to its head.
 * Returns the new head.
 */
export function reforge(
  dataDir: string,
  edit: (entry: JournalEntry, payload: Record<string, unknown>) => Record<string, unknown>,
  options: { upTo?: number; terminalId?: string } = {},
): { seq: number; hash: string } {
  const source = openExistingLedger(dataDir, { tailCheck: false });
  const entries = [...source.entries(1, options.upTo)];
  // Under another terminal id: a chain the witness has never seen, so takes from genesis.
  const terminalId = options.terminalId ?? source.terminalId;
  source.close();
  const keyFile = path.join(dataDir, 'ledger-checkpoint.key');
  if (!existsSync(keyFile)) writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  const key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
  const file = path.join(dataDir, 'forged.sqlite');
  let i = 0;
  const forged = Ledger.open({ file, terminalId, clock: () => new Date(entries[i]?.ts ?? Date.now()), checkpointKey: key, checkpointEvery: 0 });
  for (; i < entries.length; i++) {
    const e = entries[i] as JournalEntry;
    const body = JSON.parse(e.body) as EntryBody;
    const payload = edit(e, structuredClone(body.payload) as Record<string, unknown>);
    forged.append({ type: e.type, ...(body.txId !== undefined ? { txId: body.txId } : {}), payload } as Parameters<Ledger['append']>[0]);
  }
  forged.checkpoints.write();
  const head = forged.headOf();
  forged.close();
  const target = ledgerFile(dataDir);
  for (const suffix of ['-wal', '-shm']) rmSync(target + suffix, { force: true });
  renameSync(file, target);
  rmSync(`${file}.head`, { force: true });
  const mark = new HeadMark(target);
  mark.write(head, true);
  mark.close();
  return head;
}

/**
 * The newest `count` entries gone, and nothing else amiss: the journal rebuilt with the ledger's own
 * code up to the entry before them (its outbox, projections and checkpoint consistent), the mark
 * rewritten — what a careful hand deleting entries leaves, or an older copy put in place.
 */
export function dropNewest(dataDir: string, count: number): { seq: number; hash: string } {
  const source = openExistingLedger(dataDir, { tailCheck: false });
  const head = source.headOf().seq;
  source.close();
  return reforge(dataDir, (_e, p) => p, { upTo: head - count });
}

/** Rewrites the head mark to the journal's own head (what someone hiding lost or deleted entries does). */
export function rewriteMark(dataDir: string): { seq: number; hash: string } {
  const l = openExistingLedger(dataDir, { tailCheck: false });
  const head = l.headOf();
  l.close();
  const mark = new HeadMark(ledgerFile(dataDir));
  mark.write(head, true);
  mark.close();
  return head;
}
