// Test-only: a configuration order as the upstream signs it (host/floor/remote-config.ts's
// statement, Ed25519), and what the table journalled of the orders it was given.
import { sign, type KeyObject } from 'node:crypto';
import { PAYLOADS, type JournalEntry, type Ledger } from '../../ledger/index.js';
import { orderStatement } from '../floor/remote-config.js';

/** `o` as the upstream delivers it to `terminal`: its exact text and the signature over the statement. */
export function signOrder(o: Record<string, unknown>, key: KeyObject, terminal: string): { order: string; signature: string } {
  const text = JSON.stringify(o);
  return { order: text, signature: sign(null, Buffer.from(orderStatement(terminal, text), 'utf8'), key).toString('base64') };
}

/** Every entry of the journal, oldest first. */
export function journalOf(ledger: Ledger): JournalEntry[] {
  const out: JournalEntry[] = [];
  for (let seq = 1; seq <= ledger.headOf().seq; seq++) {
    const e = ledger.entry(seq);
    if (e) out.push(e);
  }
  return out;
}

/** The payloads of the journal's `config.refused` entries, read through their schema. */
export function configRefusals(ledger: Ledger) {
  return journalOf(ledger)
    .filter((e) => e.type === 'config.refused')
    .map((e) => PAYLOADS['config.refused'].parse(JSON.parse(e.body).payload));
}
