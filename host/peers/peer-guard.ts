import { statSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Ledger } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';
import { PEERS_FILE, readPeers } from './peer-config.js';
import { PEER_CREDENTIALS_FILE, PeerCredentials } from './peer-credentials.js';
import { adoptPeers, auditPeers, type PeerFiles } from './peer-journal.js';

/** The key of the problem of files that cannot be read when the journal has no peer in force (no table's id: it never matches a peer). */
const UNREADABLE = '(files)' as TableId;

export interface PeerGuardOptions {
  readonly dataDir: string;
  /** This table (journalled as having no peers when its first start found none). */
  readonly self: string;
  readonly ledger: Ledger;
  readonly log: Logger;
  /** A peer refused: raised as the `peer-integrity` fault (journalled once while it is held). */
  readonly fault: (detail: string) => void;
}

/**
 * The peer files checked against the journal at start and again before every transfer step with
 * a peer (a link's hello and each of its messages, each message sent, each station's request, each
 * tick), issue 50 item 4. Before, the files were read once at start, so an edit while the host ran
 * was neither noticed nor refused. A check costs two `stat`s: the files are read and audited
 * again only when one of them changed (its inode, size, modification or change time; the change
 * time cannot be set back by whoever edits the file) or the host itself journalled a change.
 */
export class PeerGuard {
  private signature: string | null = null;
  private problems = new Map<TableId, string>();
  /** The problems already logged, so a problem held is logged once, not at every message. */
  private logged = new Set<string>();
  /** Peers whose change was journalled and its files not written (a full disk), with why: their problem says so. */
  private readonly unwritten = new Map<TableId, string>();

  constructor(private readonly o: PeerGuardOptions) {
    // The first start of a folder whose journal knows no peer adopts its files as found, or journals that it has none.
    const files = this.read();
    adoptPeers(o.ledger, files.ok ? files.files : null, TableId.parse(o.self));
    this.check();
  }

  /** The peers refused now, each with why (empty: the files are the journal's). */
  check(): ReadonlyMap<TableId, string> {
    const signature = this.stat();
    if (signature === this.signature) {
      // Raised again while a problem stays: a supervisor who cleared the fault sees it come back.
      if (this.problems.size > 0) this.raise();
      return this.problems;
    }
    this.signature = signature;
    const files = this.read();
    this.problems = files.ok ? auditPeers(this.o.ledger, files.files) : this.unreadable(files.error);
    // Unreadable files with no peer in force are a fault too: whatever they were meant to say is refused, not silently dropped.
    if (!files.ok && this.problems.size === 0) this.problems.set(UNREADABLE, `the peer files cannot be read (${files.error})`);
    for (const [t, why] of this.unwritten) {
      if (this.problems.has(t)) this.problems.set(t, why);
      else this.unwritten.delete(t);
    }
    for (const [peer, problem] of this.problems) {
      if (this.logged.has(problem)) continue;
      this.logged.add(problem);
      this.o.log.error({ peer, problem }, 'peer table refused: the data folder says what the journal does not');
    }
    if (this.problems.size > 0) this.raise();
    return this.problems;
  }

  /** Whether transfers with `table` may go on now. */
  allows(table: TableId): boolean {
    return !this.check().has(table);
  }

  /**
   * The host journalled a change to the peer `table` and wrote its files, or could not (`unwritten`:
   * why, worded as its problem while the files are not the journal's): the next check reads them
   * again whatever their times say.
   */
  invalidate(table?: TableId, unwritten?: string): void {
    this.signature = null;
    if (table === undefined) return;
    if (unwritten === undefined) this.unwritten.delete(table);
    else this.unwritten.set(table, unwritten);
  }

  private raise(): void {
    this.o.fault([...this.problems.values()].slice(0, 8).join('; '));
  }

  /** Files that do not parse refuse every peer the journal has in force (the audit of empty files names them). */
  private unreadable(error: string): Map<TableId, string> {
    const problems = auditPeers(this.o.ledger, { peers: [], theirs: new Map() });
    for (const t of problems.keys()) problems.set(t, `peer table ${t}: the peer files cannot be read (${error})`);
    return problems;
  }

  private read(): { ok: true; files: PeerFiles } | { ok: false; error: string } {
    try {
      const peers = readPeers(this.o.dataDir)?.peers ?? [];
      const theirs = PeerCredentials.inDataDir(this.o.dataDir).hashes();
      return { ok: true, files: { peers, theirs } };
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message.slice(0, 200) : String(e) };
    }
  }

  private stat(): string {
    return [PEERS_FILE, PEER_CREDENTIALS_FILE]
      .map((f) => {
        const s = statSync(path.join(this.o.dataDir, f), { bigint: true, throwIfNoEntry: false });
        return s ? `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : '-';
      })
      .join('|');
  }
}
