// The ticket-in attempts with no end (ticketsInOpen, ticketInEscrow), read as the journal grows:
// each read walks only the requests journalled since the last one and the attempts then still open
// (an end is never taken back), so the answers must stay those of the whole journal, whoever
// appended and whenever the reads come.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { billCredit } from './fixtures.js';
import { connectionOf, Ledger } from './ledger.js';
import { redeemApproved, redeemRequest, redeemReturned, redeemStacked } from './ticket-fixtures.js';
import { ticketInEscrow, ticketsInOpen, ticketsInOpenWalked } from './ticket-queries.js';
import { validationNumber, type ValidationNumber } from '../terms/validation-number.js';

const rid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const STATIONS = [1, 2, 3];

type Op =
  | { op: 'ask'; station: number; ticket: number }
  | { op: 'approve' | 'stack' | 'return'; pick: number }
  | { op: 'note'; station: number }
  | { op: 'read'; station: number | null };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('ask' as const), station: fc.constantFrom(...STATIONS), ticket: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ op: fc.constantFrom('approve' as const, 'stack' as const, 'return' as const), pick: fc.nat(20) }),
  fc.record({ op: fc.constant('note' as const), station: fc.constantFrom(...STATIONS) }),
  fc.record({ op: fc.constant('read' as const), station: fc.option(fc.constantFrom(...STATIONS)) }),
);

interface Attempt {
  requestId: string;
  validation: ValidationNumber;
  station: number;
  approved: boolean;
  open: boolean;
}

/** Plays the ops on the ledger and on a model of the attempts; at each read, the ledger's answers against the model's. */
function play(ledger: Ledger, ops: readonly Op[], appender: Ledger = ledger): void {
  const attempts: Attempt[] = [];
  const stacked = new Set<string>();
  let n = 0;
  const expectOpen = (station: number | null) =>
    attempts.filter((a) => a.open && (station === null || a.station === station)).map((a) => [a.requestId, a.station, a.approved]);
  for (const o of ops) {
    if (o.op === 'ask') {
      const a = { requestId: rid(++n), validation: validationNumber(9, o.ticket), station: o.station, approved: false, open: true };
      attempts.push(a);
      appender.append(redeemRequest(a.requestId, a.validation, a.station));
    } else if (o.op === 'note') appender.append(billCredit(o.station, 100, `note-${++n}`));
    else if (o.op === 'read') {
      const got = ticketsInOpen(ledger, o.station ?? undefined).map((p) => [p.requestId, p.station, p.approved !== null]);
      assert.deepEqual(got, expectOpen(o.station));
      for (const s of STATIONS) {
        const newest = attempts.filter((a) => a.open && a.station === s).at(-1);
        assert.equal(ticketInEscrow(ledger, s)?.requestId ?? null, newest?.requestId ?? null);
      }
    } else {
      const open = attempts.filter((a) => a.open && (o.op === 'approve' ? !a.approved : o.op === 'stack' ? a.approved && !stacked.has(a.validation) : true));
      const a = open[o.pick % Math.max(1, open.length)];
      if (!a) continue;
      if (o.op === 'approve') {
        appender.append(redeemApproved(a.requestId, a.validation, a.station, 500));
        a.approved = true;
      } else if (o.op === 'stack') {
        appender.append(redeemStacked(a.requestId, a.validation, a.station, 500));
        stacked.add(a.validation);
        a.open = false;
      } else {
        appender.append(redeemReturned(a.requestId, a.validation, a.station, 'unknown'));
        a.open = false;
      }
    }
  }
  assert.deepEqual(
    ticketsInOpen(ledger).map((p) => p.requestId),
    expectOpen(null).map(([r]) => r),
  );
}

describe('ticket-in attempts with no end, read as the journal grows', () => {
  it('are those of the whole journal at every read, whatever was asked, approved, stacked or returned between reads', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 80 }), (ops) => {
        const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-OPEN' });
        try {
          play(ledger, ops);
        } finally {
          ledger.close();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('are those of the whole journal when a second process appends to the file', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ticket-in-open-'));
    try {
      fc.assert(
        fc.property(fc.array(op, { minLength: 1, maxLength: 60 }), fc.nat(1_000_000), (ops, k) => {
          const file = path.join(dir, `l-${k}-${Math.random().toString(36).slice(2)}.db`);
          const reader = Ledger.open({ file, terminalId: 'T-OPEN' });
          const writer = Ledger.open({ file, terminalId: 'T-OPEN' });
          try {
            play(reader, ops, writer);
          } finally {
            writer.close();
            reader.close();
          }
        }),
        { numRuns: 30 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a read inside a transaction that is rolled back leaves nothing behind', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-OPEN' });
    try {
      const [v1, v2] = [validationNumber(9, 1), validationNumber(9, 2)];
      ledger.append(redeemRequest(rid(1), v1, 1));
      assert.deepEqual(
        ticketsInOpen(ledger).map((p) => p.requestId),
        [rid(1)],
      );
      // Seqs 2 and 3 read (3 an open request), then rolled back: the seqs are journalled again as other entries.
      assert.throws(() =>
        connectionOf(ledger).transaction(() => {
          ledger.append(billCredit(2, 100, 'note-a'));
          ledger.append(redeemRequest(rid(2), v2, 2));
          assert.equal(ticketsInOpen(ledger).length, 2);
          throw new Error('rolled back');
        })(),
      );
      ledger.append(redeemRequest(rid(3), v2, 2));
      ledger.append(billCredit(2, 100, 'note-b'));
      assert.deepEqual(
        ticketsInOpen(ledger).map((p) => p.requestId),
        [rid(1), rid(3)],
      );
    } finally {
      ledger.close();
    }
  });

  it('walks only the requests since the last read and those then open, not the whole journal', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-OPEN' });
    try {
      for (let i = 1; i <= 300; i++) {
        const v = validationNumber(9, i);
        ledger.appendMany([redeemRequest(rid(i), v, 1 + (i % 3)), redeemReturned(rid(i), v, 1 + (i % 3), 'unknown')]);
      }
      ledger.append(redeemRequest(rid(301), validationNumber(9, 301), 2));
      assert.equal(ticketsInOpenWalked(ledger).walked, 301);
      ledger.append(redeemRequest(rid(302), validationNumber(9, 302), 3));
      ledger.append(billCredit(1, 100, 'note'));
      const second = ticketsInOpenWalked(ledger);
      assert.deepEqual(
        second.open.map((p) => p.requestId),
        [rid(301), rid(302)],
      );
      // The open one (301) and the new one (302).
      assert.equal(second.walked, 2);
    } finally {
      ledger.close();
    }
  });
});
