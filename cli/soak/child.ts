import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ledgerFile, openLedgerReader, type LedgerReader } from '../../ledger/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface HostChildOptions {
  dataDir: string;
  game: string;
  rules?: string;
  stations: number;
  seed: number;
  /** Extra host arguments (e.g. `--test-kill-after-round-entry=3`). */
  extra?: string[];
  /** The child's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /**
   * The script node runs (default bin/etg.js, which registers tsx): a test passes `etg` bundled
   * (tests/children/bundle.ts), the same command line without loading each TypeScript module.
   */
  etg?: string;
}

/** What the host child printed on start (`--json`): its origin and screen URLs. */
export interface HostStarted {
  origin: string;
  screens: Record<string, string>;
}

/**
 * The autoplay host as a child process (`etg start --headless --json --autoplay --test-timing`)
 * on a data dir, for the soak and the kill-and-restart tests: started, watched through its ledger,
 * killed with SIGKILL or stopped with SIGTERM.
 */
export class HostChild {
  readonly process: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly started: Promise<HostStarted | null>;
  private stderr = '';

  constructor(o: HostChildOptions) {
    const args = [
      o.etg ?? path.join(root, 'bin/etg.js'),
      'start',
      '--headless',
      '--json',
      '--autoplay',
      '--test-timing',
      `--data-dir=${o.dataDir}`,
      `--game=${o.game}`,
      `--stations=${o.stations}`,
      `--seed=${o.seed}`,
      ...(o.rules ? [`--rules=${o.rules}`] : []),
      ...(o.extra ?? []),
    ];
    this.process = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...(o.env ? { env: o.env } : {}) });
    this.process.stderr?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    this.exited = new Promise((resolve) => this.process.once('exit', (code, signal) => resolve({ code, signal })));
    this.started = new Promise((resolve) => {
      let out = '';
      const onData = (d: Buffer) => {
        out += d.toString();
        for (const line of out.split('\n')) {
          if (!line.startsWith('{"origin"')) continue;
          this.process.stdout?.off('data', onData);
          this.process.stdout?.resume();
          resolve(JSON.parse(line) as HostStarted);
          return;
        }
      };
      this.process.stdout?.on('data', onData);
      void this.exited.then(() => resolve(null));
    });
  }

  /** The last lines the child wrote on stderr (why it failed to start). */
  errors(): string {
    return this.stderr;
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill(signal);
    return this.exited;
  }
}

/**
 * Reads a data dir's ledger while the host writes it (SQLite WAL lets a reader in): how many
 * rounds closed, counted incrementally so that polling stays cheap however long the soak.
 */
export class LedgerWatch {
  private reader: LedgerReader | null = null;
  private seen = 0;
  private closed = 0;

  constructor(private readonly dataDir: string) {}

  /** Rounds settled or voided so far. */
  closedRounds(): number {
    if (!this.reader) {
      const file = ledgerFile(this.dataDir);
      if (!existsSync(file)) return 0;
      try {
        this.reader = openLedgerReader(file);
      } catch {
        return 0;
      }
    }
    try {
      const r = this.reader.roundsClosedAfter(this.seen);
      if (r.headSeq !== null) {
        this.seen = r.headSeq;
        this.closed += r.closed;
      }
    } catch {
      // The schema is not there yet (first start): nothing closed.
    }
    return this.closed;
  }

  /** The newest seq this watch has read up to (closedRounds moves it on). */
  get head(): number {
    return this.seen;
  }

  /**
   * How many tickets issued after `afterSeq` (up to `upToSeq`) are printing now (issued, not yet
   * ended); null while the ledger cannot be read (the first start, before its schema).
   */
  printing(afterSeq: number, upToSeq?: number): number | null {
    try {
      return this.reader ? this.reader.ticketsPrinting(afterSeq, upToSeq) : null;
    } catch {
      return null;
    }
  }

  close(): void {
    this.reader?.close();
    this.reader = null;
  }
}
