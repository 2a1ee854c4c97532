// A transfer in the casino system sends by AFT (0x72 type 00) and the station refuses (docs/sas.md,
// "AFT: the cashless wallet"): the player waiting at that station for money from the cage or a
// kiosk is told why it did not come, and how much it was; no other station is told anything. Only
// refusals a player can act on are said (over the credit limit, over the most one transfer brings,
// the station unable to take credit now); the system's own faults (another asset, an id seen
// before, a bad id, restricted credit) say nothing. The system is hostile within its protocol: it
// floods refusals, and the station's screen holds one notice, the newest, however many come.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { AFT_STATUS, AFT_TYPE } from '../../hardware/sas/aft.js';
import type { StationState } from '../../protocol/index.js';
import { aftRequest, fixedLocal } from '../testing/aft-request.js';
import { credit, testTable, type TestTable } from '../testing/table-kit.js';
import { StationAft } from '../devices/sas-aft.js';

const ASSETS: Record<number, number> = { 1: 101, 2: 102 };
/** Station 1 holds MOP 1,000.00 under a credit limit of 1,000.50: 50 avos of room. */
const CREDIT = 100_000;
const CREDIT_LIMIT = 100_050;
/** The most one transfer may bring (`aft.limit`). */
const TRANSFER_LIMIT = 50_000;

describe('a transfer in refused by the station: its player is told, no one else', () => {
  let t: TestTable;
  let refuseIn: string | null;
  beforeEach(() => {
    t = testTable({ game: 'war', config: { creditLimit: CREDIT_LIMIT } });
    credit(t.ledger, 1, CREDIT);
    credit(t.ledger, 2, 20_000);
    refuseIn = null;
  });
  afterEach(() => t.close());

  const aftAt = (station: number) =>
    new StationAft({
      ledger: t.ledger,
      station,
      assetNumber: ASSETS[station] ?? 0,
      limit: TRANSFER_LIMIT,
      creditLimit: () => t.config.creditLimit,
      refuseIn: () => refuseIn,
      refuseOut: () => null,
      local: fixedLocal(2026, 12, 2, 12),
      notice: t.floor.aftNotices.at(station),
    });
  const askIn = (station: number, cashable: number, transactionId: string, partial = false) =>
    aftRequest({ type: AFT_TYPE.toMachine, cashable, transactionId, assetNumber: ASSETS[station] ?? 0, partial });
  const view = (station: number) => t.hub.state(`station/${station}`) as StationState;

  it('over the credit limit (84): station 1 says so with the amount; station 2 says nothing', () => {
    const r = aftAt(1).transfer(askIn(1, 5_000, 'CAGE-1'));
    assert.equal(r.status, AFT_STATUS.overLimit);
    const said = view(1).cashout?.aftIn;
    assert.ok(said, 'station 1 carries the refusal');
    assert.equal(said.state, 'refused');
    assert.equal(said.reason, 'credit-limit');
    assert.equal(said.amount, 5_000);
    assert.equal(view(2).cashout?.aftIn, undefined, 'station 2 is told nothing');
    assert.ok(!JSON.stringify(view(2)).includes('aftIn'), "nothing of station 1's transfer in station 2's view");
  });

  it('the room left, partial allowed, at the limit already: 84 said with the amount asked', () => {
    assert.equal(aftAt(1).transfer(askIn(1, 50, 'FILL-1')).status, AFT_STATUS.full);
    assert.equal(view(1).cashout?.aftIn, undefined, 'a transfer that moved says no refusal');
    assert.equal(aftAt(1).transfer(askIn(1, 7_000, 'MORE-1', true)).status, AFT_STATUS.overLimit);
    assert.deepEqual(view(1).cashout?.aftIn && { reason: view(1).cashout?.aftIn?.reason, amount: view(1).cashout?.aftIn?.amount }, {
      reason: 'credit-limit',
      amount: 7_000,
    });
  });

  it('above the most one transfer may bring (84, under the credit limit): said as the transfer limit', () => {
    assert.equal(aftAt(2).transfer(askIn(2, TRANSFER_LIMIT + 1, 'BIG-1')).status, AFT_STATUS.overLimit);
    assert.equal(view(2).cashout?.aftIn?.reason, 'transfer-limit');
    assert.equal(view(2).cashout?.aftIn?.amount, TRANSFER_LIMIT + 1);
    assert.equal(view(1).cashout?.aftIn, undefined);
  });

  it('the station unable to take credit now (87: a handpay waiting, a fault): said', () => {
    refuseIn = 'a handpay waiting';
    assert.equal(aftAt(2).transfer(askIn(2, 3_000, 'KIOSK-1')).status, AFT_STATUS.unableNow);
    assert.equal(view(2).cashout?.aftIn?.reason, 'unable-now');
    assert.equal(view(2).cashout?.aftIn?.amount, 3_000);
    assert.equal(view(1).cashout?.aftIn, undefined);
  });

  it("the system's own faults say nothing at the station: another asset, an id seen before, a bad id, restricted credit, a transfer out", () => {
    const aft = aftAt(1);
    assert.equal(aft.transfer({ ...askIn(1, 5_000, 'X-1'), assetNumber: ASSETS[2] ?? 0 }).status, AFT_STATUS.assetMismatch);
    assert.equal(aft.transfer(askIn(1, 10, 'ONCE-1')).status, AFT_STATUS.full);
    assert.equal(aft.transfer(askIn(1, 5_000, 'ONCE-1')).status, AFT_STATUS.notUnique);
    assert.equal(aft.transfer(askIn(1, 5_000, 'bad\u0001id')).status, AFT_STATUS.idNotValid);
    assert.equal(aft.transfer({ ...askIn(1, 5_000, 'R-1'), restricted: 100 }).status, AFT_STATUS.notValidAmount);
    assert.equal(
      aft.transfer(aftRequest({ type: AFT_TYPE.toHost, cashable: 9_999_999, transactionId: 'OUT-1', assetNumber: ASSETS[1] ?? 0 })).status,
      AFT_STATUS.notValidAmount,
    );
    assert.equal(view(1).cashout?.aftIn, undefined);
    assert.equal(view(2).cashout?.aftIn, undefined, "station 2's asset named at station 1's line: station 2 is told nothing either");
  });

  it('a transfer that moves after a refusal takes the refusal away', () => {
    const aft = aftAt(1);
    aft.transfer(askIn(1, 5_000, 'TOO-MUCH'));
    assert.equal(view(1).cashout?.aftIn?.reason, 'credit-limit');
    assert.equal(aft.transfer(askIn(1, 40, 'FITS')).status, AFT_STATUS.full);
    assert.equal(view(1).cashout?.aftIn, undefined);
  });

  it('a screen that fails to be told never keeps the answer from the system: the refusal and the transfer answered, the failure logged', () => {
    const failures: unknown[] = [];
    const aft = new StationAft({
      ledger: t.ledger,
      station: 1,
      assetNumber: ASSETS[1] ?? 0,
      limit: TRANSFER_LIMIT,
      creditLimit: () => t.config.creditLimit,
      refuseIn: () => null,
      refuseOut: () => null,
      local: fixedLocal(2026, 12, 2, 12),
      notice: {
        refused: () => {
          throw new Error('listener');
        },
        moved: () => {
          throw new Error('listener');
        },
      },
      onNoticeError: (err) => failures.push(err),
    });
    assert.equal(aft.transfer(askIn(1, 5_000, 'T-1')).status, AFT_STATUS.overLimit);
    assert.equal(aft.transfer(askIn(1, 50, 'T-2')).status, AFT_STATUS.full);
    assert.equal(t.ledger.credit(1), CREDIT_LIMIT);
    assert.equal(failures.length, 2);
  });

  it('a hostile system floods 10,000 refusals: one notice, the newest, replaced each time; the other station untouched', () => {
    const aft = aftAt(1);
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) aft.transfer(askIn(1, 1_000 + i, `FLOOD-${i}`));
    const ms = performance.now() - started;
    const said = view(1).cashout?.aftIn;
    assert.equal(said?.amount, 1_000 + 9_999, 'the newest refusal');
    assert.equal(t.floor.aftNotices.size(), 1, 'one notice kept, for the one station refused');
    assert.equal(view(2).cashout?.aftIn, undefined);
    // 5 BCD digits' most: a number the schema carries as it is.
    aft.transfer(askIn(1, 9_999_999_999, 'HUGE'));
    assert.equal(view(1).cashout?.aftIn?.amount, 9_999_999_999);
    // Past what 5 BCD digits say (a caller other than the 0x72 parser): not kept, the view stays one its schema carries.
    t.floor.aftNotices.at(1).refused('credit-limit', 10_000_000_000);
    t.floor.aftNotices.at(1).refused('credit-limit', 0.5);
    assert.equal(view(1).cashout?.aftIn?.amount, 9_999_999_999);
    console.log(`# 10,000 refused transfers and their notices: ${ms.toFixed(0)} ms`);
  });
});
