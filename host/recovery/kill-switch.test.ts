import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { AppendResult, Ledger, NewEntry } from '../../ledger/index.js';
import { installKillSwitch, type KillSwitchRecord } from './kill-switch.js';

/** A ledger that only appends: each entry of a round gets that round's id (a `round` field in the payload), a table input none. */
function fakeLedger(): Ledger {
  let seq = 0;
  const ledger = {
    appendMany: (entries: readonly NewEntry[]): AppendResult[] =>
      entries.map((e) => {
        const roundId = (e.payload as { round?: string }).round ?? null;
        return { status: 'appended', entry: { seq: ++seq, type: e.type, roundId } } as unknown as AppendResult;
      }),
  };
  return ledger as unknown as Ledger;
}

const input = { type: 'table.input', payload: {} } as unknown as NewEntry;
const of = (round: string, type = 'card.read') => ({ type, payload: { round } }) as unknown as NewEntry;

describe('the kill switch of the kill-and-restart tests', () => {
  it('fires after the transaction that holds the k-th round entry, and writes which round entries each transaction held', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kill-switch-'));
    try {
      const file = path.join(dir, 'kill-switch.json');
      const ledger = fakeLedger();
      let kills = 0;
      installKillSwitch(ledger, 4, file, () => kills++);
      // Two bets in one transaction, a card alone, then a group commit of two decisions and a card.
      ledger.appendMany([input, of('r1', 'bet.place'), of('r1', 'bet.place')]);
      ledger.appendMany([input, of('r1')]);
      ledger.appendMany([input]); // nothing of the round: not a transaction of it
      assert.equal(kills, 0);
      ledger.appendMany([input, of('r1', 'round.decision'), input, of('r1', 'round.decision'), of('r2')]);
      assert.equal(kills, 1, 'killed once, after the transaction that wrote entry 4 (and 5)');
      const record = JSON.parse(readFileSync(file, 'utf8')) as KillSwitchRecord;
      assert.deepEqual(record, { afterRoundEntry: 4, roundId: 'r1', transactions: [2, 1, 2] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
