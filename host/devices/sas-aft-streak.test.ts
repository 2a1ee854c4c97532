// An AFT transfer out (0x72 type 80, the casino system takes the station's credit to the player's
// account) while the station holds an open winning-streak stake (Macau 2009 Art. 13 5)). The
// system asks, not the player at the station, and 0x72 has no field for a player's confirmation;
// the stake would stay held and be lost at the next round dealt without the station, and nobody
// at the station would have been told. So the host refuses it as it refuses one with bets in play:
// 87, unable to perform the transfer now (SAS 6.02 §8; docs/sas.md "AFT"), and 0x74 says no
// transfer from the station is available. The refusal is the host's wiring (sas-links.ts), over a
// real blackjack table's floor.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AFT_STATUS, AFT_TYPE } from '../../hardware/sas/aft.js';
import { entryCount, verifyLedger } from '../../ledger/index.js';
import { aftOutRefusal } from '../start/sas-links.js';
import { testTable, type TestTable } from '../testing/table-kit.js';
import { held, station2Round, STREAK, wonRoundWithStreak } from '../testing/streak-rounds.js';
import { aftRequest, fixedLocal } from '../testing/aft-request.js';
import { StationAft } from './sas-aft.js';

const ASSET = 77;

function aftAt(t: TestTable, station: number): StationAft {
  return new StationAft({
    ledger: t.ledger,
    station,
    assetNumber: ASSET,
    limit: 1_000_000,
    refuseIn: () => null,
    refuseOut: () => aftOutRefusal(t.floor, station),
    local: fixedLocal(2026, 12, 1),
  });
}

const out = (cashable: number, transactionId: string) => aftRequest({ type: AFT_TYPE.toHost, cashable, transactionId, assetNumber: ASSET, partial: true });

describe('AFT out with an open winning-streak stake held (Macau 2009 Art. 13 5)(2) vi))', () => {
  it('is refused 87 and 0x74 offers no transfer from the station; nothing is journalled', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      wonRoundWithStreak(t);
      const why = aftOutRefusal(t.floor, 1);
      assert.ok(why?.includes('5000') && why.includes('art.13 5)(2) vi)'), String(why));
      const aft = aftAt(t, 1);
      assert.equal(aft.status().availableTransfers & 0x02, 0, 'no transfer from the station offered');
      const entries = entryCount(t.ledger, ['aft.out', 'aft.in']);
      assert.equal(aft.transfer(out(105_000, 'OUT-1')).status, AFT_STATUS.unableNow);
      assert.equal(entryCount(t.ledger, ['aft.out', 'aft.in']), entries);
      assert.equal(t.ledger.credit(1), 105_000);
      assert.equal(held(t, 1), 5_000);
    } finally {
      t.close();
    }
  });

  it('a station holding nothing transfers as before; once the streak is over, so does the other', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      wonRoundWithStreak(t);
      assert.equal(aftOutRefusal(t.floor, 2), null);
      assert.equal(aftAt(t, 2).transfer(out(1_000, 'OUT-2')).status, AFT_STATUS.full);
      station2Round(t);
      assert.equal(held(t, 1), 0);
      const aft = aftAt(t, 1);
      assert.equal(aft.status().availableTransfers & 0x02, 0x02);
      assert.equal(aft.transfer(out(105_000, 'OUT-3')).status, AFT_STATUS.full);
      assert.equal(t.ledger.credit(1), 0);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});
