// The bound on a link's refusals at the credit limit, per day (review finding L2). Before, the
// count was the link's whole life: a station often full (a player pressing Move again and again,
// a technician lowering the credit limit) wore an honest link out after 1,000 more refusals than
// moves taken, and from then on, across restarts, every offer at the limit went unanswered and the
// player's money waited on a recall, then sat in flight. Now the bound is per UTC day, stamped on
// each refusal (`day`) and folded from the journal; a lying link still adds at most the bound a day,
// and a technician is told once a day when a link reaches 80% of it (docs/transfers.md).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TableId, type Transfer } from '../../terms/transfer-terms.js';
import { billCredit } from '../../ledger/fixtures.js';
import { entriesOfTypes, Ledger, verifyLedger } from '../../ledger/index.js';
import { LedgerTransferJournal } from './ledger-journal.js';
import { AT_LIMIT_SPARE } from './receiver.js';
import { ALARM_WINDOW_MS, AT_LIMIT_BUDGET, TransferHost } from './transfer-host.js';
import type { TransferAlarm } from './effects.js';
import { fold } from './state.js';

const HOME = TableId.parse('home');
const BACC = TableId.parse('baccarat');
const HOMES = { 103: HOME, 104: HOME };
const LIMIT = 100_000;
const DAY_MS = 86_400_000;
/** 1 December 2026, 00:00 UTC. */
const DAY_1 = Date.UTC(2026, 11, 1);
/** Offers this far apart stay within the host's budget of refusals at the limit a minute. */
const PACE_MS = ALARM_WINDOW_MS / AT_LIMIT_BUDGET;

const offer = (serial: number, amount: number): Transfer => ({ id: { origin: HOME, serial }, currency: 'MOP', station: 103, from: HOME, to: BACC, amount });

/** A baccarat table whose station 103 is full (its credit at the limit), over a ledger that outlives a host (a restart). */
class Floor {
  readonly ledger = Ledger.open({ file: ':memory:', terminalId: 'bacc' });
  readonly clock = { ms: DAY_1 };
  readonly answers: string[] = [];
  readonly alarms: TransferAlarm[] = [];
  host: TransferHost;
  serial = 0;
  constructor() {
    this.ledger.append(billCredit(103, LIMIT, 'b1'));
    this.host = this.start();
  }
  start(): TransferHost {
    return new TransferHost({
      now: () => this.clock.ms,
      self: BACC,
      currency: 'MOP',
      homes: HOMES,
      journal: new LedgerTransferJournal(this.ledger),
      send: (o) => this.answers.push(o.message.kind === 'refused' ? `refused ${o.message.reason}` : o.message.kind),
      alarm: (a) => this.alarms.push(a),
      creditLimit: () => LIMIT,
    });
  }
  /** The host killed and started again over its ledger. */
  restart(): void {
    this.host.sumUpAll();
    this.host = this.start();
  }
  /** `n` offers of 1 at the full station, paced as an honest player's presses (within the budget a minute); how many were answered. */
  pressMove(n: number): number {
    const before = this.answers.length;
    for (let i = 0; i < n; i++) {
      this.host.receive(HOME, { kind: 'offer', transfer: offer(++this.serial, 1) });
      this.clock.ms += PACE_MS;
    }
    return this.answers.length - before;
  }
  atDay(day: number, hour = 1): void {
    this.clock.ms = DAY_1 + (day - 1) * DAY_MS + hour * 3_600_000;
  }
  refusalsJournalled(): number {
    return [...entriesOfTypes(this.ledger, ['transfer.refuse'])].length;
  }
  /** The technician's warning that the link nears its bound (a `credit-limit` alarm before the bound, said of an offer that was answered). */
  nearBound(): TransferAlarm[] {
    return this.alarms.filter((a) => a.reason === 'credit-limit' && /nears the bound/.test(a.detail));
  }
}

describe('transfers: the bound on refusals at the credit limit, per day', () => {
  it(`an honest link refused at the limit on three days, 700 a day (2,100 in all, more than ${AT_LIMIT_SPARE} beyond no move taken): every offer answered`, () => {
    const f = new Floor();
    const answered: number[] = [];
    for (const day of [1, 2, 3]) {
      f.atDay(day);
      answered.push(f.pressMove(700));
    }
    assert.deepEqual(answered, [700, 700, 700]);
    assert.equal(f.refusalsJournalled(), 2_100);
    assert.ok(f.answers.every((a) => a === 'refused credit-limit'));
    assert.deepEqual(verifyLedger(f.ledger).problems, []);
  });

  it(`a lying link flooding offers at the limit all day: at most ${AT_LIMIT_SPARE} refusals journalled that day beyond the moves taken, the rest the alarm only`, () => {
    const f = new Floor();
    f.atDay(1, 0);
    // 1,500 offers at the pace of the budget a minute: 75 minutes, all within the first day.
    assert.equal(f.pressMove(1_500), AT_LIMIT_SPARE);
    assert.equal(f.refusalsJournalled(), AT_LIMIT_SPARE);
    f.atDay(1, 20);
    assert.equal(f.pressMove(100), 0);
    // A move taken from the link (to station 104, empty) allows one more refusal, and no more.
    f.host.receive(HOME, { kind: 'offer', transfer: { ...offer(++f.serial, 1), station: 104 } });
    assert.equal(f.answers.at(-1), 'taken');
    assert.equal(f.pressMove(5), 1);
    assert.equal(f.refusalsJournalled(), AT_LIMIT_SPARE + 1);
    assert.ok(f.alarms.filter((a) => a.reason === 'credit-limit').length >= 100);
    assert.deepEqual(verifyLedger(f.ledger).problems, []);
  });

  it(`the same liar the next day: ${AT_LIMIT_SPARE} more and no more (at most the bound a day)`, () => {
    const f = new Floor();
    f.atDay(1, 0);
    assert.equal(f.pressMove(1_500), AT_LIMIT_SPARE);
    f.atDay(2, 0);
    assert.equal(f.pressMove(1_500), AT_LIMIT_SPARE);
    assert.equal(f.refusalsJournalled(), 2 * AT_LIMIT_SPARE);
  });

  it('a restart mid-day keeps the day: the count folded from the journal, the bound still reached at the same refusal', () => {
    const f = new Floor();
    f.atDay(1);
    assert.equal(f.pressMove(900), 900);
    f.atDay(2);
    assert.equal(f.pressMove(600), 600);
    f.restart();
    assert.equal(f.pressMove(AT_LIMIT_SPARE - 600), AT_LIMIT_SPARE - 600);
    f.restart();
    assert.equal(f.pressMove(10), 0);
    assert.equal(f.refusalsJournalled(), 900 + AT_LIMIT_SPARE);
    // The next day, after another restart, answered again.
    f.atDay(3);
    f.restart();
    assert.equal(f.pressMove(10), 10);
    // The live state is the journal's fold (the day read from each entry's stamp, no clock).
    assert.deepEqual(fold(BACC, 'MOP', HOMES, new LedgerTransferJournal(f.ledger).entries()), f.host.state);
  });

  it('the technician is told once a day, when a link reaches 80% of its bound; a restart does not say it again; the next day it is said again', () => {
    const f = new Floor();
    const near = Math.ceil((AT_LIMIT_SPARE * 4) / 5);
    f.atDay(1);
    f.pressMove(near - 1);
    assert.deepEqual(f.nearBound(), []);
    f.pressMove(1);
    assert.equal(f.nearBound().length, 1);
    assert.equal(f.nearBound()[0]?.link, HOME);
    f.pressMove(50);
    f.restart();
    f.pressMove(50);
    assert.equal(f.nearBound().length, 1);
    // Journalled as any alarm (within the link's budget), so the upstream sees it too.
    const journalled = [...entriesOfTypes(f.ledger, ['transfer.alarm'])].map((e) => e.body);
    assert.equal(journalled.filter((b) => b.includes('nears the bound')).length, 1);
    f.atDay(2);
    f.pressMove(near);
    assert.equal(f.nearBound().length, 2);
  });
});
