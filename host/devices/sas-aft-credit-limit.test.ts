// AFT and the station credit limit (docs/sas.md, "The station credit limit"): a transfer to the
// station that would take its credit past the table's `creditLimit` is refused `84` (above the
// machine's transfer limit, SAS 6.02 Table 8.3d) before anything is journalled, or moves only
// the room left when the system allows a partial transfer; 0x74 reports that room as the
// transfer limit. The system is a hostile peer within its protocol: it asks any amount 5 BCD
// digits can say, one unit either side of the room, and again after a win took the credit past.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { AFT_STATUS, AFT_TYPE } from '../../hardware/sas/aft.js';
import { billCredit } from '../../ledger/fixtures.js';
import { entryCount, Ledger } from '../../ledger/index.js';
import { aftRequest, fixedLocal } from '../testing/aft-request.js';
import { StationAft } from './sas-aft.js';

const STATION = 3;
const ASSET = 77;
/** MOP 1,000.00 of credit, a limit of 1,000.50: 50 units of room, under the transfer limit. */
const CREDIT = 100_000;
const LIMIT = 100_050;

describe('AFT at the station credit limit', () => {
  let dir: string;
  let ledger: Ledger;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'aft-limit-'));
    ledger = Ledger.open({ file: path.join(dir, 'ledger.sqlite'), terminalId: 'T-AFT' });
    ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
    ledger.append(billCredit(STATION, CREDIT, 'note-1'));
  });
  afterEach(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const station = () =>
    new StationAft({
      ledger,
      station: STATION,
      assetNumber: ASSET,
      limit: 5_000_000,
      creditLimit: () => LIMIT,
      refuseIn: () => null,
      refuseOut: () => null,
      local: fixedLocal(2026, 12, 1, 12),
    });
  const ask = (cashable: number, transactionId: string, partial = false, type: number = AFT_TYPE.toMachine) =>
    aftRequest({ type, cashable, transactionId, assetNumber: ASSET, partial });
  const room = LIMIT - CREDIT;

  it('one unit over the room, full only: 84, nothing journalled, nothing moved', () => {
    const r = station().transfer(ask(room + 1, 'OVER-1'));
    assert.equal(r.status, AFT_STATUS.overLimit);
    assert.equal(entryCount(ledger, ['aft.in']), 0);
    assert.equal(ledger.credit(STATION), CREDIT);
  });

  it('the room exactly, and one unit under it: taken in full', () => {
    assert.equal(station().transfer(ask(room - 1, 'UNDER-1')).status, AFT_STATUS.full);
    assert.equal(ledger.credit(STATION), LIMIT - 1);
    assert.equal(station().transfer(ask(1, 'EXACT-1')).status, AFT_STATUS.full);
    assert.equal(ledger.credit(STATION), LIMIT);
  });

  it('the most 5 BCD digits say, partial allowed: only the room moves (status 01), the limit reached exactly', () => {
    const r = station().transfer(ask(9_999_999_999, 'HUGE-1', true));
    assert.equal(r.status, AFT_STATUS.partial);
    assert.equal(r.cashable, room);
    assert.equal(ledger.credit(STATION), LIMIT);
    // At the limit, any amount is 84 (partial or not) and 0x74 says no transfer to the station.
    assert.equal(station().transfer(ask(1, 'ONE-1', true)).status, AFT_STATUS.overLimit);
    const s = station().status();
    assert.equal(s.transferLimit, 0);
    assert.equal(s.availableTransfers & 0x01, 0, 'bit 0: no transfer to the station');
    assert.equal(s.availableTransfers & 0x02, 0x02, 'bit 1: its credit may still go to the host');
    assert.equal(entryCount(ledger, ['aft.in']), 1);
  });

  it('0x74 reports the room left as the transfer limit, the configured limit when it is less', () => {
    assert.equal(station().status().transferLimit, room);
    assert.equal(station().status().availableTransfers & 0x01, 0x01);
  });

  it('credit above the limit (as a win leaves it): no transfer in, the transfer out takes it all', () => {
    ledger.append(billCredit(STATION, 1_000, 'note-2'));
    assert.equal(station().transfer(ask(1, 'IN-1', true)).status, AFT_STATUS.overLimit);
    assert.equal(station().status().transferLimit, 0);
    assert.equal(station().transfer(ask(CREDIT + 1_000, 'OUT-1', false, AFT_TYPE.toHost)).status, AFT_STATUS.full);
    assert.equal(ledger.credit(STATION), 0);
  });
});
