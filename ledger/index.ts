// The ledger's public API for the table host and the tools. See docs/ledger.md.
import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ledgerFile, LedgerOpenError } from './db.js';
import { unreadableFileSaid } from './unreadable-file.js';
import { Ledger, type LedgerOptions } from './ledger.js';
import { readCredentials, type Credentials } from './sign.js';
import { SyncClient, type SyncOptions } from './sync-client.js';

export {
  CHECKPOINT_EVERY,
  Ledger,
  LedgerRefusal,
  type AppendResult,
  type EntryBody,
  type JournalEntry,
  type LedgerOptions,
  type LedgerWitnessView,
  type TableSnapshot,
} from './ledger.js';
export { WitnessClient, WitnessProtocolError, WitnessRefused, WitnessUnreachable, type WitnessIdentity } from './witness-client.js';
export { useWitnessForVerify, WitnessLink, type WitnessAlarm, type WitnessLimits, type WitnessLinkOptions, type WitnessStatus } from './witness-link.js';
export {
  account,
  BILL_REFUSALS,
  ENTRY_TYPES,
  MONEY_TYPES,
  PAYLOADS,
  type EntryType,
  type MeterDelta,
  type NewEntry,
  type Payload,
  type Posting,
} from './entries.js';
// Not `openDatabase`: a raw connection would make the schema public again.
export { LedgerOpenError, ledgerFile } from './db.js';
export { LedgerWriteLost, onLedgerWriteLost } from './write-check.js';
export { HeadMark, LedgerRollbackError } from './head-mark.js';
export { LATEST_VERSION, MIGRATIONS, NewerSchemaError } from './migrations.js';
export type { RoundRecord } from '../terms/round-record.js';
export { evidenceBundle, verifyEvidence, type EvidenceBundle } from './evidence.js';
export { verifyLedger, type VerifyOptions, type VerifyReport } from './verify.js';
export { checkLedgerFile, type FileCheckResult } from './file-check.js';
export { checkpointStats, latestCheckpoint, type Checkpoint, type CheckpointCheck, type CheckpointState } from './checkpoint.js';
export { outboxStats, readBatch, recordAck, syncAnchor, type SyncAnchor, type WireEntry } from './outbox.js';
export { Credentials, readCredentials, signRequest, SIGNATURE_HEADERS } from './sign.js';
export { SyncClient, syncErrorReason, type SyncErrorReason, type SyncLimits, type SyncOptions, type SyncStatus } from './sync-client.js';
export type { BadReceipt, ReceiptProblem, SyncAlarm } from './sync-alarm.js';
export { keepReceipt, readReceipt, Receipt, RECEIPT_FILE, receiptProblems, receiptSigned, receiptStatement } from './receipts.js';
export { HeadReceipt, ReceiptKey } from './wire.js';
export { askUpstreamHead } from './upstream-head.js';
export { canonicalJson, chainHash, genesisHash, sha256Hex } from './canonical.js';
export { entryCredits, roundProgress, tableJournal } from './table-journal.js';
export {
  answeredOrders,
  orderJournalled,
  newestOrderMade,
  configChanges,
  heldRead,
  heldStakeOf,
  heldStakes,
  lastNoteCredit,
  openTilts,
  pendingHandpays,
  unresolvedEscrows,
  noteLeftSince,
  escrowResolved,
  type UnresolvedEscrow,
  pendingTableHold,
  serviceDisabledDevices,
  type HeldRead,
  type LastNoteCredit,
  openServiceSessions,
  type JournalledConfigChange,
  type OpenServiceSession,
  type OpenTilt,
  type PendingHandpay,
  type PendingTableHold,
} from './floor-queries.js';
export { creditHeld, notesOnTheirWay } from './notes-on-their-way.js';
export {
  closedRoundCount,
  entriesOfTypes,
  entryCount,
  journalBodyBytes,
  newestEntriesOfType,
  programAt,
  roundEntriesOfTypes,
  ruleRecordAt,
  digestsOfReference,
  type RuleRecordEntry,
} from './journal-queries.js';
export { eventLog, type EventLogFilter } from './event-log.js';
export { currencyAt, type CurrencyAt } from './currency-at.js';
export { postingsAfter, type PostedEntry } from './postings-queries.js';
export { durability, type Durability } from './durability.js';
export { openLedgerReader, type LedgerReader } from './reader.js';

/** Opens (creating if needed) the ledger of `terminalId` in a data folder, with every check of `Ledger.open`. */
export function openLedger(dataDir: string, terminalId: string, options: Omit<LedgerOptions, 'dataDir' | 'file' | 'terminalId'> = {}): Ledger {
  return Ledger.open({ ...options, dataDir, terminalId });
}

/**
 * Opens an existing ledger whatever its terminal. `readonly`: the tools that only read it (verify,
 * export, evidence, recall, meters, status, backup), which leave it as they found it: never
 * migrated, its head mark read and not written (`LedgerOptions.readonly`). Without it, the writer's
 * open (the host, `ledger sync`, the service accounts' commands), which migrates.
 */
export function openExistingLedger(dataDir: string, options: { tailCheck?: boolean; readonly?: boolean } = {}): Ledger {
  const file = ledgerFile(dataDir);
  if (!existsSync(file)) throw new LedgerOpenError(`no ledger at ${file}`);
  const terminalId = terminalOf(file);
  if (!terminalId) throw new LedgerOpenError(`${file} names no terminal`);
  return Ledger.open({ dataDir, terminalId, ...options });
}

/** The terminal a ledger file names, or a clear error: a file that is not SQLite, or holds no ledger, is said so (before, both read as naming no terminal). */
function terminalOf(file: string): string | undefined {
  let probe: Database.Database | undefined;
  try {
    probe = new Database(file, { readonly: true, fileMustExist: true });
    return (probe.prepare("SELECT value FROM meta WHERE key = 'terminal_id'").get() as { value: string } | undefined)?.value;
  } catch (e) {
    const said = unreadableFileSaid(e, file);
    if (said !== null) throw new LedgerOpenError(said);
    const message = e instanceof Error ? e.message : String(e);
    if (/no such table: meta/.test(message))
      throw new LedgerOpenError(`${file} holds no ledger (no meta table): the wrong file, or one never written by the kiosk`);
    throw new LedgerOpenError(`${file} cannot be read: ${message}`);
  } finally {
    probe?.close();
  }
}

/** Where the kiosk keeps the credentials printed by `npm run upstream -- enroll`. */
export function credentialsFile(dataDir: string): string {
  return path.join(dataDir, 'upstream-credentials.json');
}

export interface StartSyncOptions extends Omit<SyncOptions, 'credentials' | 'url'> {
  ledger: Ledger;
  /** `--upstream URL` (defaults to the URL stored in the credentials file). */
  upstream?: string;
  /** `--terminal-id ID`: must match both the ledger and the credentials. */
  terminalId: string;
  /** The kiosk's data folder (credentials at `<dataDir>/upstream-credentials.json`), or… */
  dataDir?: string;
  /** … credentials given directly. */
  credentials?: Credentials;
}

/**
 * For `npm start -- --upstream URL --terminal-id ID`: reads the terminal's credentials, checks
 * they belong to this terminal and ledger, starts the sync client and returns it (call
 * `status()` for service mode, `kick()` after appends, `stop()` on shutdown).
 */
export function startLedgerSync(options: StartSyncOptions): SyncClient {
  const { ledger, upstream, terminalId, dataDir, credentials: given, ...rest } = options;
  let credentials = given;
  if (!credentials) {
    if (!dataDir) throw new Error('startLedgerSync needs credentials or dataDir');
    const file = credentialsFile(dataDir);
    if (!existsSync(file))
      throw new Error(`no upstream credentials at ${file}: run "npm run upstream -- enroll --terminal-id ${terminalId}" and save its output there`);
    credentials = readCredentials(file);
  }
  if (credentials.terminalId !== terminalId) throw new Error(`the credentials are for terminal ${credentials.terminalId}, not ${terminalId}`);
  if (ledger.terminalId !== terminalId) throw new Error(`the ledger belongs to terminal ${ledger.terminalId}, not ${terminalId}`);
  const url = upstream ?? credentials.upstream;
  if (!url) throw new Error('no upstream URL: pass --upstream');
  const client = new SyncClient(ledger, { ...rest, url, credentials, ...(dataDir ? { receiptsDir: dataDir } : {}) });
  client.start();
  return client;
}
export {
  copySqliteStore,
  migrateStore,
  openSqliteStore,
  StoreOpenError,
  storeSchemaProblems,
  storeVersion,
  type SqliteDb,
  type StoreMigration,
} from './sqlite-store.js';
export {
  jackpotHits,
  jackpotMovements,
  jackpotPools,
  jackpotResetUnder,
  type JackpotHitRecord,
  type JackpotMovement,
  type JackpotResetRecord,
} from './jackpot-queries.js';
export { DataFolderBusy, lockDataFolder, LOCK_FILE, HOLDER_FILE, type DataFolderLock } from './data-folder-lock.js';
export { rowsLost } from './rows-lost.js';
export { writeFileWhole } from './whole-file.js';
