import { connectionOf, type Ledger } from './ledger.js';

/** The settings a durable commit depends on, as SQLite reports them on this connection. */
export interface Durability {
  journalMode: string;
  /** 2 is FULL, the only level that survives a power cut in WAL mode (docs/ledger.md "Opening"). */
  synchronous: number;
  foreignKeys: boolean;
}

/** Read back from the connection rather than remembered from the open, so a report cannot flatter it. */
export function durability(ledger: Ledger): Durability {
  const db = connectionOf(ledger);
  return {
    journalMode: String(db.pragma('journal_mode', { simple: true })),
    synchronous: Number(db.pragma('synchronous', { simple: true })),
    foreignKeys: db.pragma('foreign_keys', { simple: true }) === 1,
  };
}
