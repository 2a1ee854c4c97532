// SQLite's integrity_check of the whole ledger file, in a process of its own on a read-only connection,
// so that a running host's one thread is not held while it reads every page (about 15 s a
// million entries). The open checks the whole file only up to 32 MiB (ledger/db.ts), and beyond it
// the state tables; the schema check reads each index's SQL, not its rows. So an index rebuilt by
// hand to leave an entry out (every fold that reads by type: service accounts, peers, credentials,
// transfers) or the tx_id index swapped for one without a note's entry (that note credited again)
// passed the start and the default verify, witness or not (a review, 1 December). Comparing each
// index with its table's rows is what integrity_check does, and only it.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

export interface FileCheckResult {
  /** The check ran and found nothing. */
  ok: boolean;
  /** Whether the check ran to its end: one that could not (the file not there, the process ended) says nothing of the file. */
  ran: boolean;
  /** SQLite's words for each problem (at most `MAX_PROBLEMS`), or why the check could not run. */
  problems: string[];
}

const MAX_PROBLEMS = 20;
/** What the check's process may print: its one line of JSON (20 problems of SQLite's words), with room. */
const OUTPUT_MAX = 256 * 1024;

// Plain JavaScript in a process of its own (no loader there for TypeScript): the driver is the one
// this process resolves, passed as a path, so the same code runs from the sources and from the
// bundle. A process, not a worker thread: a CI run (1 December) died with V8's "FATAL ERROR:
// Error::New napi_get_last_error_info" when a worker was ended while it loaded better-sqlite3 (the
// driver's native code cannot be stopped halfway inside this process); a process is killed whole.
const CHECK = `
const [file, driver, max] = process.argv.slice(1);
let db;
let out;
try {
  const Database = require(driver);
  db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const rows = db.pragma('integrity_check(' + Number(max) + ')');
  out = { ran: true, problems: rows.map((r) => r.integrity_check).filter((s) => s !== 'ok') };
} catch (e) {
  // SQLite naming damage it met before any row (the header, the schema's pages) is a finding;
  // anything else (the file not there, the driver) says nothing of the file.
  const code = String((e && e.code) || '');
  const said = String((e && e.message) || e);
  out = /^SQLITE_(CORRUPT|NOTADB)/.test(code)
    ? { ran: true, problems: [code + ': ' + said] }
    : { ran: false, problems: ['the check could not run: ' + said] };
} finally {
  if (db) db.close();
}
process.stdout.write(JSON.stringify(out));
`;

/**
 * Checks every page, row and index of the file; resolves when done (never rejects). `signal` kills
 * the check's process (a host stopping does not wait for a check of a large file; the connection is
 * read-only, so nothing of the file is at stake).
 */
export function checkLedgerFile(file: string, signal?: AbortSignal): Promise<FileCheckResult> {
  return new Promise((resolve) => {
    let settled = false;
    let child: ReturnType<typeof spawn> | undefined;
    // The signal may outlive many checks (a host's watch, daily for months): each lets go of it.
    const stop = () => void child?.kill('SIGKILL');
    const done = (ran: boolean, problems: string[]) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', stop);
      resolve({ ok: ran && problems.length === 0, ran, problems });
    };
    // Stopped before it began (a start refused right after it): no process is made.
    if (signal?.aborted) return done(false, ['the check could not run: stopped before it began']);
    try {
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      // Under Electron the host's executable is Electron's, which runs a script as Node only so told.
      child = spawn(process.execPath, ['-e', CHECK, file, driver, String(MAX_PROBLEMS)], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      });
    } catch (e) {
      return done(false, [`the check could not run: ${e instanceof Error ? e.message : String(e)}`]);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout?.on('data', (b: Buffer) => {
      size += b.length;
      if (size <= OUTPUT_MAX) chunks.push(b);
    });
    let err = '';
    child.stderr?.on('data', (b: Buffer) => {
      if (err.length < 2_000) err += b.toString('utf8');
    });
    child.once('error', (e) => done(false, [`the check could not run: ${e.message}`]));
    child.once('close', (code, killedBy) => {
      if (killedBy !== null) return done(false, [`the check could not run: its process was ended (${killedBy})`]);
      const r = parsed(Buffer.concat(chunks).toString('utf8'));
      if (code === 0 && r) return done(r.ran, r.problems);
      done(false, [`the check could not run: its process ended (${code ?? 'no code'})${err ? `: ${err.trim().slice(0, 500)}` : ''}`]);
    });
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** The check's one line, read as what it must be, or null. */
function parsed(text: string): { ran: boolean; problems: string[] } | null {
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v !== 'object' || v === null || !('ran' in v) || !('problems' in v)) return null;
    const { ran, problems } = v;
    if (typeof ran !== 'boolean' || !Array.isArray(problems) || !problems.every((p) => typeof p === 'string')) return null;
    return { ran, problems: problems.slice(0, MAX_PROBLEMS) };
  } catch {
    return null;
  }
}
