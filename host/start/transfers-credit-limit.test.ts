// Credit moved in from another table is held to the same room as every other credit in (docs/sas.md,
// "The station credit limit"): the station's credit and what it has been promised. A review found
// the receiver wired as the table starts it compared an offer with the credit alone: credit 60,000,
// a ticket of 30,000 approved and not yet stacked, limit 100,000; a move of 40,000 was taken and
// the station ended at 130,000 once the ticket stacked.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import { openLedger } from '../../ledger/index.js';
import { redeemApproved, redeemRequest, redeemStacked } from '../../ledger/ticket-fixtures.js';
import { TableId, type Transfer } from '../../terms/transfer-terms.js';
import { validationNumber } from '../../terms/validation-number.js';
import type { Outbound } from '../transfers/effects.js';
import { LedgerTransferJournal } from '../transfers/ledger-journal.js';
import { TransferHost } from '../transfers/transfer-host.js';

const LIMIT = 100_000;
const HOME = TableId.parse('home');
const BACC = TableId.parse('baccarat');
const aftIn = (station: number, id: string, amount: number) =>
  ({ type: 'aft.in', payload: { station, transactionId: id, amount, requested: amount, assetNumber: 7 }, txId: `aft:${station}:${id}` }) as const;

it('a move in is held to the room a ticket approved and not yet stacked leaves: refused credit-limit, the station within its limit', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'transfers-room-'));
  const ledger = openLedger(dir, 'SIM-BAC-01');
  t.after(() => (ledger.close(), rmSync(dir, { recursive: true, force: true })));
  ledger.append(aftIn(103, 'A1', 60_000));
  const v = validationNumber(31, 5);
  ledger.appendMany([redeemRequest('req-000001', v, 103), redeemApproved('req-000001', v, 103, 30_000)]);
  const sent: Outbound[] = [];
  const host = new TransferHost({
    self: BACC,
    currency: 'MOP',
    homes: { 103: HOME },
    journal: new LedgerTransferJournal(ledger),
    send: (o) => sent.push(o),
    alarm: () => undefined,
    creditLimit: () => LIMIT,
  });
  const offer = (serial: number, amount: number): Transfer => ({ id: { origin: HOME, serial }, currency: 'MOP', station: 103, from: HOME, to: BACC, amount });
  host.receive(HOME, { kind: 'offer', transfer: offer(1, 10_001) });
  // The room exactly (100,000 − 60,000 − 30,000) is taken.
  host.receive(HOME, { kind: 'offer', transfer: offer(2, 10_000) });
  assert.deepEqual(
    sent.map((s) => (s.message.kind === 'refused' ? `refused ${s.message.reason}` : s.message.kind)),
    ['refused credit-limit', 'taken'],
  );
  ledger.append(redeemStacked('req-000001', v, 103, 30_000));
  assert.equal(ledger.credit(103), LIMIT);
});
