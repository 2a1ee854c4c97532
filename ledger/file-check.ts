// SQLite's integrity_check of the whole ledger file, in a worker thread on a read-only connection of
// its own, so that a running host's one thread is not held while it reads every page (about 15 s a
// million entries). The open checks the whole file only up to 32 MiB (ledger/db.ts), and beyond it
// the state tables; the schema check reads each index's SQL, not its rows. So an index rebuilt by
// hand to leave an entry out (every fold that reads by type: service accounts, peers, credentials,
// transfers) or the tx_id index swapped for one without a note's entry (that note credited again)
// passed the start and the default verify, witness or not (a review, 1 December). Comparing each
// index with its table's rows is what integrity_check does, and only it.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface FileCheckResult {
  /** The check ran and found nothing. */
  ok: boolean;
  /** Whether the check ran to its end: one that could not (the file not there, the worker ended) says nothing of the file. */
  ran: boolean;
  /** SQLite's words for each problem (at most `MAX_PROBLEMS`), or why the check could not run. */
  problems: string[];
}

const MAX_PROBLEMS = 20;

// Plain JavaScript in the worker (no loader there for TypeScript): the driver is the one this
// process resolves, passed as a path, so the same code runs from the sources and from the bundle.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
let db;
try {
  const Database = require(workerData.driver);
  db = new Database(workerData.file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const rows = db.pragma('integrity_check(' + workerData.max + ')');
  parentPort.postMessage({ ran: true, problems: rows.map((r) => r.integrity_check).filter((s) => s !== 'ok') });
} catch (e) {
  parentPort.postMessage({ ran: false, problems: ['the check could not run: ' + String((e && e.message) || e)] });
} finally {
  if (db) db.close();
}
`;

/**
 * Checks every page, row and index of the file; resolves when done (never rejects). `signal` ends
 * the worker (a host stopping does not wait for a check of a large file).
 */
export function checkLedgerFile(file: string, signal?: AbortSignal): Promise<FileCheckResult> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (ran: boolean, problems: string[]) => {
      if (settled) return;
      settled = true;
      resolve({ ok: ran && problems.length === 0, ran, problems });
    };
    // Stopped before it began (a start refused right after it): no worker is made.
    if (signal?.aborted) return done(false, ['the check could not run: stopped before it began']);
    let worker: Worker;
    try {
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      worker = new Worker(WORKER, { eval: true, workerData: { file, driver, max: MAX_PROBLEMS } });
    } catch (e) {
      return done(false, [`the check could not run: ${e instanceof Error ? e.message : String(e)}`]);
    }
    worker.once('message', (m: { ran: boolean; problems: string[] }) => done(m.ran, m.problems));
    worker.once('error', (e) => done(false, [`the check could not run: ${e.message}`]));
    worker.once('exit', (code) => done(false, [`the check could not run: its worker ended (${code})`]));
    signal?.addEventListener('abort', () => void worker.terminate(), { once: true });
  });
}
