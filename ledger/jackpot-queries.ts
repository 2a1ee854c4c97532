import { authorityReference } from '../terms/authority-reference.js';
import { newestEntriesOfType } from './journal-queries.js';
import type { EntryBody } from './derive.js';
import { account, type Payload } from './entries.js';
import { connectionOf, type Ledger } from './ledger.js';

// The progressive jackpot as the ledger holds it (Portugal rules 38–50): the pool of each level
// (its liability account) and the hits, newest first, with their rounds.

/** Each level's pool in minor units, levels ascending (none on a table without a progressive). */
export function jackpotPools(ledger: Ledger): { level: string; pool: number }[] {
  const rows = connectionOf(ledger).prepare("SELECT account, balance FROM balances WHERE account LIKE 'jackpot:%:pool' ORDER BY account").all() as {
    account: string;
    balance: number;
  }[];
  // The account is `jackpot:<level>:pool` (entries.ts `account.jackpotPool`); a level id has no colon.
  return rows.map((r) => ({ level: r.account.slice('jackpot:'.length, -':pool'.length), pool: -r.balance }));
}

export interface JackpotHitRecord {
  readonly seq: number;
  readonly ts: string;
  readonly roundId: string;
  readonly station: number;
  readonly seat: number;
  readonly hand: number;
  readonly combination: string;
  readonly level: string;
  readonly amount: number;
}

/** The newest `limit` hits (GLI-12 keeps the last 25), newest first, each with its round and its entry. */
export function jackpotHits(ledger: Ledger, limit = 25): JackpotHitRecord[] {
  const out: JackpotHitRecord[] = [];
  // Most settlements have no hit: read them in pages until enough hits (or none left).
  for (let page = 64, seen = 0; out.length < limit; page *= 4) {
    const entries = newestEntriesOfType(ledger, 'jackpot.settle', page);
    for (const e of entries.slice(seen)) {
      const p = (JSON.parse(e.body) as EntryBody).payload as Payload<'jackpot.settle'>;
      for (const h of [...p.hits].reverse()) if (out.length < limit) out.push({ seq: e.seq, ts: e.ts, roundId: p.roundId, ...h });
    }
    if (entries.length < page) break;
    seen = entries.length;
  }
  return out;
}

export interface JackpotMovement {
  readonly seq: number;
  readonly ts: string;
  /** The round whose settlement moved the pool; null for a reset. */
  readonly roundId: string | null;
  readonly level: string;
  readonly before: number;
  readonly contribution: number;
  readonly award: number;
  /** What the house added before the award so shared awards are rounded up (rule 50 b)); 0 when none. */
  readonly rounding: number;
  /** What the house added: a start value, a reset seed, a reset. */
  readonly seed: number;
  readonly after: number;
}

/** The newest movements of the pools (settlements with chips, resets), newest first, one per level each. */
export function jackpotMovements(ledger: Ledger, limit = 40): JackpotMovement[] {
  const out: JackpotMovement[] = [];
  for (const e of newestEntriesOfType(ledger, 'jackpot.settle', limit)) {
    const p = (JSON.parse(e.body) as EntryBody).payload as Payload<'jackpot.settle'>;
    for (const l of p.levels)
      out.push({
        seq: e.seq,
        ts: e.ts,
        roundId: p.roundId,
        level: l.level,
        before: l.before,
        contribution: l.contribution,
        award: l.award,
        rounding: l.rounding ?? 0,
        seed: l.funded + l.seed,
        after: l.after,
      });
  }
  for (const e of newestEntriesOfType(ledger, 'jackpot.reset', limit)) {
    const body = JSON.parse(e.body) as EntryBody;
    const p = body.payload as Payload<'jackpot.reset'>;
    // The pool's posting is −(what the house added): the pool before is `to` less that.
    const added = -(body.postings.find(([acct]) => acct === account.jackpotPool(p.level))?.[1] ?? 0);
    const before = p.to - added;
    out.push({ seq: e.seq, ts: e.ts, roundId: null, level: p.level, before, contribution: 0, award: 0, rounding: 0, seed: p.to - before, after: p.to });
  }
  return out.sort((a, b) => b.seq - a.seq).slice(0, limit);
}

/** A reset as the journal holds it: its entry, level, new pool and the reference as journalled. */
export interface JackpotResetRecord {
  readonly seq: number;
  readonly level: string;
  readonly to: number;
  readonly authorisation: string;
}

/**
 * The reset journalled under this authority's reference (rules 40, 44), the first if several (a
 * journal from before a reference was taken once), or null. The reference as a person types it:
 * full-width forms, the letters' case and blanks around it do not make another one
 * (`authorityReference`, terms/authority-reference.ts). Compared here, not in SQL: SQLite's upper()
 * folds ASCII letters only and knows no NFKC, and a journal written before the form holds references
 * as typed. Resets are a few a year, so reading each one's reference is cheap.
 */
export function jackpotResetUnder(ledger: Ledger, authorisation: string): JackpotResetRecord | null {
  const wanted = authorityReference(authorisation);
  if (!wanted) return null;
  const rows = connectionOf(ledger).prepare(`SELECT seq, body FROM journal WHERE type = 'jackpot.reset' ORDER BY seq`).all() as {
    seq: number;
    body: string;
  }[];
  for (const row of rows) {
    const p = (JSON.parse(row.body) as EntryBody).payload as Payload<'jackpot.reset'>;
    if (authorityReference(p.authorisation) === wanted) return { seq: row.seq, level: p.level, to: p.to, authorisation: p.authorisation };
  }
  return null;
}
