import { raiseAlarm } from './alarm.js';
import type { Sql } from './sql.js';

// A ticket the upstream knows from its table's word alone (POST /v1/tickets/issue) until the
// table's journal brings its `ticket.issue`. An honest table journals the ticket before it prints
// it and tells the upstream after, so once its synced journal has gone past the ticket's time, the
// entry should be there: a ticket still known only by the word was never debited from a station's
// credit in that journal — made by a table's credentials, not by its cash-out. It is alarmed, not
// voided: a journal restored from an older copy loses tickets that exist on paper.

/** Migration 11. Tickets registered before it are taken as journalled. */
export const TICKET_WORD_ONLY_SQL = `
  ALTER TABLE tickets ADD COLUMN word_only boolean NOT NULL DEFAULT false;
  ALTER TABLE tickets ADD COLUMN unjournalled_alarmed boolean NOT NULL DEFAULT false;
  CREATE INDEX tickets_word_only ON tickets (terminal_id, issued_at) WHERE word_only AND NOT unjournalled_alarmed;
`;

/** How far the journal must have gone past a ticket's time before its absence is an alarm (the table's clock against itself; a step of NTP between). */
export const JOURNAL_GRACE_MS = 60_000;

/**
 * After a batch of `terminal`'s journal up to `journalTs` (its newest entry's time): the tickets
 * it registered on its word alone, issued more than the grace before, are alarmed, each once.
 */
export async function alarmUnjournalled(tx: Sql, terminal: string, journalTs: string | null): Promise<void> {
  if (journalTs === null || !Number.isFinite(Date.parse(journalTs))) return;
  const r = await tx.query<{ validation: string; amount: string; state: string }>(
    `UPDATE tickets SET unjournalled_alarmed = true
     WHERE terminal_id = $1 AND word_only AND NOT unjournalled_alarmed AND issued_at < $2::timestamptz - $3::interval
     RETURNING validation, amount, state`,
    [terminal, journalTs, `${JOURNAL_GRACE_MS} milliseconds`],
  );
  for (const t of r.rows)
    await raiseAlarm(tx, terminal, 'ticket-disagreement', {
      validation: t.validation,
      amount: Number(t.amount),
      state: t.state,
      what: 'registered on the table’s word and never in its journal',
    });
}

/** The newest of a batch's entry times (ISO instants), or null. */
export function newestTs(ts: readonly string[]): string | null {
  let best: string | null = null;
  let bestMs = -Infinity;
  for (const t of ts) {
    const ms = Date.parse(t);
    if (ms > bestMs) [best, bestMs] = [t, ms];
  }
  return best;
}
