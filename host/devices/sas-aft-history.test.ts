// The casino system's 0x72 interrogation of a station's AFT history (docs/sas.md, "AFT"): every
// index (00, the positions 01–7F of the buffer that wraps every 127, and 81–FF counted from the
// newest) against a model of the transfers kept beside the ledger. A review found each deep or
// absolute index counted and summed every AFT entry of the journal for each of 127 rows (~2 s at
// 10,000 entries, in the port's data handler); the answers now come from migration 10's index
// (ledger/aft-index.ts), and must be the ones the count and the sum gave, for this station only,
// past the buffer's wrap, in both directions, and on a ledger whose index the migration rebuilt.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { AFT_STATUS, AFT_TYPE } from '../../hardware/sas/aft.js';
import type { AftRecord } from '../../hardware/sas/types.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger, verifyLedger } from '../../ledger/index.js';
import { aftRequest, fixedLocal } from '../testing/aft-request.js';
import { StationAft } from './sas-aft.js';

const STATION = 3;
const OTHER = 4;
const ASSET = 77;

interface Modelled {
  id: string;
  type: 'aft.in' | 'aft.out';
  amount: number;
  requested: number;
  ordinal: number;
  cumulative: number;
}

describe('AFT interrogation: every index answered from the index as the journal says', () => {
  let dir: string;
  let ledger: Ledger;
  const model: Modelled[] = [];
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sas-aft-history-'));
    ledger = Ledger.open({ file: path.join(dir, 'ledger.sqlite'), terminalId: 'T-AFTH' });
    ledger.append(billCredit(STATION, 1_000_000, 'note-1'));
    model.length = 0;
    const totals = { 'aft.in': 0, 'aft.out': 0 };
    // 300 transfers of this station (past two wraps of the buffer), each other one out, partial
    // every seventh; between them the other station's transfers and notes, which must not count.
    for (let i = 0; i < 300; i++) {
      const type = i % 3 === 1 ? 'aft.out' : 'aft.in';
      const amount = 100 + i;
      const requested = i % 7 === 0 ? amount + 50 : amount;
      totals[type] += amount;
      model.push({ id: `T${i}`, type, amount, requested, ordinal: i + 1, cumulative: totals[type] });
      ledger.appendMany([
        { type, payload: { station: STATION, transactionId: `T${i}`, amount, requested, assetNumber: ASSET }, txId: `aft:${STATION}:T${i}` },
        { type: 'aft.in', payload: { station: OTHER, transactionId: `T${i}`, amount: 5, requested: 5, assetNumber: ASSET }, txId: `aft:${OTHER}:T${i}` },
        ...(i % 10 === 0 ? [billCredit(OTHER, 100, `note-${i}`)] : []),
      ]);
    }
  });
  afterEach(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const station = (l: Ledger, at = STATION) =>
    new StationAft({
      ledger: l,
      station: at,
      assetNumber: ASSET,
      limit: 1_000_000,
      refuseIn: () => null,
      refuseOut: () => null,
      local: fixedLocal(2026, 1, 1),
    });

  /** A full in-house transfer of cashable credit with a key of zeros (no registration needed). */
  const inHouse = (transactionId: string, type: number, cashable: number) => aftRequest({ type, cashable, transactionId, assetNumber: ASSET });

  /** What the answer must be for the modelled transfer `t` reported at `position`. */
  const expected = (t: Modelled, position: number) => ({
    position,
    status: t.amount < t.requested ? AFT_STATUS.partial : AFT_STATUS.full,
    type: t.type === 'aft.in' ? AFT_TYPE.toMachine : AFT_TYPE.toHost,
    cashable: t.amount,
    transactionId: t.id,
    cumulative: t.cumulative,
  });
  const seen = (r: AftRecord | null) =>
    r && { position: r.position, status: r.status, type: r.type, cashable: r.cashable, transactionId: r.transactionId, cumulative: r.cumulative };
  const positionOf = (t: Modelled) => ((t.ordinal - 1) % 127) + 1;

  function assertEveryIndex(aft: StationAft): void {
    const newest = model[model.length - 1] as Modelled;
    assert.deepEqual(seen(aft.interrogate(0)), expected(newest, 0), 'index 00: the newest');
    for (let k = 0; k <= 0x7e; k++) {
      const t = model[model.length - 1 - k] as Modelled;
      assert.deepEqual(seen(aft.interrogate(0x81 + k)), expected(t, positionOf(t)), `index ${(0x81 + k).toString(16)}`);
    }
    for (let p = 1; p <= 127; p++) {
      const t = model.findLast((x) => positionOf(x) === p) as Modelled;
      assert.deepEqual(seen(aft.interrogate(p)), expected(t, p), `index ${p.toString(16)}`);
    }
  }

  it('00, 01–7F and 81–FF each name the transfer the model does, with its position and cumulative', () => {
    assertEveryIndex(station(ledger));
    assert.deepEqual(verifyLedger(ledger).problems, []);
  });

  it('a transfer decided by the station gets the next position and cumulative, and an empty history answers none', () => {
    const aft = station(ledger);
    const r = aft.transfer(inHouse('NEW', AFT_TYPE.toMachine, 900));
    const ins = model.filter((t) => t.type === 'aft.in');
    const cumulative = (ins[ins.length - 1]?.cumulative ?? 0) + 900;
    model.push({ id: 'NEW', type: 'aft.in', amount: 900, requested: 900, ordinal: 301, cumulative });
    assert.equal(r.cumulative, cumulative);
    assertEveryIndex(aft);
    const empty = station(ledger, 9);
    assert.deepEqual([empty.interrogate(0), empty.interrogate(1), empty.interrogate(0x81)], [null, null, null]);
    // Station 4's own 300 transfers of 5: at position 47 sit its 47th and 174th (301 is not yet), so the 174th.
    const other = station(ledger, OTHER);
    assert.deepEqual([other.interrogate(47)?.transactionId, other.interrogate(47)?.cumulative], ['T173', 174 * 5]);
  });

  it("after a clear of the station's meters, a transfer's cumulative counts from the clear, as meter A0/B8 does (0x2F); one before it keeps its own", () => {
    const aft = station(ledger);
    const before = aft.interrogate(0x81);
    ledger.append({ type: 'meter.clear', payload: { who: 'sup-1', authorisation: 'DICJ-2026-0007', scope: `station:${STATION}`, reason: 'board swap' } });
    // A clear of another station's meters, or of the table's, leaves this station's A0 as it was.
    ledger.append({ type: 'meter.clear', payload: { who: 'sup-1', authorisation: 'DICJ-2026-0008', scope: `station:${OTHER}`, reason: 'board swap' } });
    const transfer = (id: string, type: number, cashable: number) => aft.transfer(inHouse(id, type, cashable));
    const firstIn = transfer('AFTER-1', AFT_TYPE.toMachine, 700);
    const secondIn = transfer('AFTER-2', AFT_TYPE.toMachine, 40);
    const out = transfer('AFTER-3', AFT_TYPE.toHost, 25);
    const meters = ledger.meters(`station:${STATION}`);
    assert.deepEqual([firstIn.cumulative, secondIn.cumulative, out.cumulative], [700, 740, 25], 'each direction counts from the clear');
    assert.deepEqual([meters['aftInAmount'], meters['aftOutAmount']], [740, 25], "the station's meters A0 and B8 say the same");
    assert.deepEqual([aft.interrogate(0x81)?.cumulative, aft.interrogate(0x82)?.cumulative, aft.interrogate(0x83)?.cumulative], [25, 740, 700]);
    assert.equal(aft.interrogate(0x84)?.cumulative, before?.cumulative, 'a transfer from before the clear keeps the cumulative it was answered with');
    // Station 4's clear came after all its transfers: its history answers as before.
    assert.equal(station(ledger, OTHER).interrogate(0x81)?.cumulative, 300 * 5);
    assert.deepEqual(verifyLedger(ledger).problems, []);
  });
});
