// A station closed to tickets (`ticket-in-closed`) clears only when it reopens, and only a station
// the configuration still has is ever watched reopening: a station removed from the configuration
// while closed kept its fault open for ever (on /healthz, in service mode, restored from the
// journal at each start; a review). The start that no longer has the station now clears it, with
// why in the journal.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { entriesOfTypes, openLedger, openTilts } from '../../ledger/index.js';
import { redeemRequest } from '../../ledger/ticket-fixtures.js';
import { ticketsInOpen } from '../../ledger/ticket-queries.js';
import { validationNumber } from '../../terms/validation-number.js';
import { refusingUntilReleased } from '../testing/refusing-ledger.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { silent } from '../testing/table-kit.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { ticketRegister as register } from './test-ticket-register.js';
import { TicketIn } from './ticket-in.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('ticket in closed at a station removed from the configuration', () => {
  it('a start without the station clears its fault, journalled with why', async (t) => {
    const base = simulatedTableConfig('war');
    assert.ok(base.stations.length >= 3, 'the simulated table has a station 3');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ticket-in-removed-'));
    const ledger = openLedger(dir, 'SIM-WAR-01');
    t.after(() => {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    });
    // The last run closed station 3 to tickets; this start's configuration has no station 3.
    new TiltManager({ ledger, log: silent }).raise('ticket-in-closed', { station: 3 });
    const config = TableConfig.parse({ ...base, stations: base.stations.filter((s) => s.station !== 3) });
    const tilts = new TiltManager({ ledger, log: silent });
    tilts.restore();
    new TicketIn({ config, ledger, log: silent, authority: register(), faults: tilts }).recover();
    await tick();
    assert.deepEqual(
      tilts.list().filter((f) => f.kind === 'ticket-in-closed'),
      [],
      'no closing fault left for a station no longer configured',
    );
    assert.deepEqual(openTilts(ledger), [], 'a further start restores none');
    const clears = [...entriesOfTypes(ledger, ['tilt.clear'])].map(
      (e) => (JSON.parse(e.body) as { payload: { kind: string; station?: number; automatic?: boolean; detail?: string; say?: { key: string } } }).payload,
    );
    assert.deepEqual(
      clears.map((c) => ({ kind: c.kind, station: c.station, automatic: c.automatic, say: c.say?.key })),
      [{ kind: 'ticket-in-closed', station: 3, automatic: true, say: 'tiltDetail.ticketInStationRemoved' }],
    );
    assert.match(clears[0]?.detail ?? '', /no longer in the configuration/);
  });

  // A review of 3 December: the start closes a removed station again when an open attempt's end is
  // refused there (a full disk); that fault's condition is the owed end, not the station's place in
  // the configuration, and it stays until the end is journalled.
  it('a removed station closed again by this start (an end refused) keeps its fault until the end is journalled', async (t) => {
    const base = simulatedTableConfig('war');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ticket-in-removed-owed-'));
    const ledger = openLedger(dir, 'SIM-WAR-01');
    t.after(() => {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const id = (n: number) => `b1c3a1d2-0000-4000-8000-${String(n).padStart(12, '0')}`;
    ledger.append(redeemRequest(id(1), validationNumber(31, 5), 2));
    ledger.append(redeemRequest(id(2), validationNumber(31, 6), 2));
    const config = TableConfig.parse({ ...base, stations: base.stations.filter((s) => s.station !== 2) });
    const tilts = new TiltManager({ ledger, log: silent });
    tilts.restore();
    const release = refusingUntilReleased(ledger, 'ticket.redeem.returned');
    new TicketIn({ config, ledger, log: silent, authority: register(), faults: tilts }).recover();
    await tick();
    // Both ends refused: the station has no acceptor to report its newest (ticket-in-removed-attempt.test.ts).
    assert.deepEqual(
      ticketsInOpen(ledger).map((p) => p.requestId),
      [id(1), id(2)],
      'the refused end is owed',
    );
    assert.deepEqual(
      tilts
        .list()
        .filter((f) => f.kind === 'ticket-in-closed')
        .map((f) => f.station),
      [2],
      'closed while its ends are owed',
    );
    release();
    // Each commit after the disk is freed journals the owed ends (retryOwed).
    ledger.append({ type: 'bill.credit', payload: { station: 1, device: 'BA-1', denomination: 10_000, currency: 'MOP' }, txId: 'a-commit' });
    await tick();
    assert.deepEqual(
      ticketsInOpen(ledger).map((p) => p.requestId),
      [],
      'the owed ends journalled at the next commit',
    );
    assert.deepEqual(
      tilts.list().filter((f) => f.kind === 'ticket-in-closed'),
      [],
      'then open again',
    );
  });
});
