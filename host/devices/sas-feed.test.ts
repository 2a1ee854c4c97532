// The journal's exceptions for one station (sas-exceptions.ts, sas-feed.ts), against a real ledger
// and the machine side's real queue, with a host that acknowledges what the general poll reports:
// the mapping of each journalled event, a backlog larger than the queue delivered whole and in
// order, a backlog past the feed's bound dropped as SAS's queue drops (its oldest, 70 once), and a
// restart after the host acknowledged a priority exception ahead of older queued ones that reports
// nothing twice, and a priority exception never acknowledged that no longer holds `through` (its
// key kept in the file's `pending`, which an edited file cannot turn into an invented exception).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ExceptionQueue } from '../../hardware/sas/exceptions.js';
import { bet, billCredit, settledRound } from '../../ledger/fixtures.js';
import { Ledger, type NewEntry } from '../../ledger/index.js';
import {
  ACKED_KEPT,
  FEED_SAVE_EVERY,
  FIFO_KEPT,
  journalFacts,
  PRIORITY_KEPT,
  REPORTED_FILE,
  ReportedStore,
  StationFeed,
  type ReportedLog,
} from './sas-feed.js';

const STATION = 1;

/** A station's machine as far as the feed sees it, and a host that reads and acknowledges. */
function machine(capacity = 20) {
  const q = new ExceptionQueue(capacity);
  let overflowed = false;
  return {
    exceptions: q,
    raise(code: number, tag?: string) {
      if (q.raise(code, tag) !== null) overflowed = true;
    },
    get overflowed() {
      return overflowed;
    },
  };
}

describe('SAS exceptions fed from the journal', () => {
  let dir: string;
  let ledger: Ledger;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sas-feed-'));
    ledger = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
    ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
  });
  afterEach(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (m = machine(), log?: ReportedLog) => {
    const feed = new StationFeed(STATION, { ledger, store: new ReportedStore(dir, log), machine: m, facts: journalFacts(ledger), log });
    const off = ledger.onAppended((e) => feed.appended(e));
    /** General polls, each acknowledged, until the queue is empty (at most `limit`). */
    const read = (limit = 1000): number[] => {
      const out: number[] = [];
      for (let code = m.exceptions.peek(); code !== 0 && out.length < limit; code = m.exceptions.peek()) {
        out.push(code);
        const done = m.exceptions.acknowledge(code);
        if (done?.tag !== undefined) feed.acknowledged(done.tag);
      }
      return out;
    };
    return { feed, read, off, m };
  };
  const append = (...entries: NewEntry[]) => entries.forEach((e) => ledger.append(e));

  it('maps each journalled event to Table A-1: doors, notes by face value, rounds once per station, handpays, tickets, faults', () => {
    const f = open();
    assert.deepEqual(f.read(), [0x17], 'the first run: power applied, no power lost');
    append(billCredit(STATION, 10_000, 'n1'), billCredit(STATION, 2_000, 'n2'), billCredit(STATION, 100_000, 'n3'), billCredit(2, 10_000, 'n4'));
    assert.deepEqual(f.read(), [0x4c, 0x4a, 0x4f], '100 → 0x4C, 20 → 0x4A, a 1000 note has no code of its own → 0x4F; station 2’s is not ours');
    // Two bets of station 1 in one round (a double), one of station 2: one game started; the settlement ends it.
    const { settle } = settledRound('r1', [STATION, 2], 1_000);
    append(bet(STATION, 'r1', 500, 'b1'), bet(2, 'r1', 1_000, 'b2'), bet(STATION, 'r1', 500, 'b3'), settle);
    assert.deepEqual(f.read(), [0x7e, 0x7f]);
    append(bet(2, 'r2', 1_000, 'b4'), {
      type: 'round.void',
      txId: 'r2:void',
      payload: { roundId: 'r2', tableId: 'T1', game: 'blackjack', profile: 'macau-2009', cards: [], decisions: [], reason: 'test', authorisedBy: ['sup-1'] },
    });
    assert.deepEqual(f.read(), [], 'a round station 1 did not bet in neither starts nor ends for it');
    append(
      { type: 'door.open', payload: { door: 'main', station: STATION } },
      { type: 'door.open', payload: { door: 'cashbox', station: STATION } },
      { type: 'door.close', payload: { door: 'cashbox', station: STATION } },
      { type: 'door.open', payload: { door: 'main' } },
      { type: 'door.close', payload: { door: 'main', station: STATION } },
    );
    assert.deepEqual(f.read(), [0x11, 0x19, 0x1a, 0x12], 'slot door, cashbox door; a door of the table is no station’s');
    append(
      { type: 'tilt.raise', payload: { kind: 'stacker-removed', station: STATION } },
      { type: 'tilt.raise', payload: { kind: 'bill-jam', station: 2 } },
      { type: 'tilt.raise', payload: { kind: 'shoe-lost' } },
      { type: 'tilt.raise', payload: { kind: 'sas-link-down', station: STATION } },
      { type: 'tilt.raise', payload: { kind: 'sas-play-disabled', station: STATION } },
      { type: 'tilt.raise', payload: { kind: 'printer-offline', station: STATION } },
      { type: 'tilt.raise', payload: { kind: 'printer-paper-out', station: STATION } },
      { type: 'tilt.raise', payload: { kind: 'printer-paper-out', station: 2 } },
    );
    const raised = ledger.entry(ledger.headOf().seq - 7)?.seq ?? 0;
    append({ type: 'tilt.clear', payload: { kind: 'stacker-removed', station: STATION, raisedSeq: raised, automatic: false, by: 'att-1', role: 'attendant' } });
    assert.deepEqual(
      f.read(),
      [0x1b, 0x20, 0x20, 0x60, 0x61, 0x1c],
      'cashbox removed, the table’s fault and the link’s as general tilts, the printer silent (60) and out of paper (61; station 2’s is not ours), cashbox installed',
    );
    append({ type: 'power.reset', payload: { clean: false, softwareVersion: '0.1.0' } });
    assert.deepEqual(f.read(), [0x18, 0x17], 'a run before: power lost, then applied');
  });

  it('a backlog larger than the queue comes whole and in journal order: the journal holds it, the queue never overflows', () => {
    const f = open();
    f.read();
    const doors: NewEntry[] = [];
    for (let i = 0; i < 40; i++) doors.push({ type: i % 2 === 0 ? 'door.open' : 'door.close', payload: { door: 'main', station: STATION } });
    append(...doors);
    assert.equal(f.m.exceptions.queued, 20, 'the queue holds its capacity');
    assert.equal(f.feed.outstanding, 40);
    const got = f.read();
    assert.deepEqual(
      got,
      doors.map((_, i) => (i % 2 === 0 ? 0x11 : 0x12)),
    );
    assert.ok(!f.m.overflowed, 'no exception lost, no 0x70');
  });

  it('the host acknowledges a priority exception ahead of older ones, the host restarts: the rest come once, nothing twice', () => {
    const first = open();
    append(billCredit(STATION, 10_000, 'n1'));
    first.read();
    append(
      { type: 'door.open', payload: { door: 'main', station: STATION } },
      { type: 'credit.cancel', txId: 'c1', payload: { station: STATION, amount: 500, reason: 'cash out by hand' } },
      { type: 'door.close', payload: { door: 'main', station: STATION } },
    );
    assert.deepEqual(first.read(1), [0x51], 'the handpay first (§2.2.1), though journalled after the door');
    first.off();
    // A kill: the queue is gone; what was acknowledged is in the data folder.
    const second = open();
    assert.deepEqual(second.read(), [0x11, 0x12]);
    second.off();
    const third = open();
    assert.deepEqual(third.read(), [], 'a restart after everything was acknowledged reports nothing');
    append({ type: 'handpay.confirm', txId: 'p1', payload: { station: STATION, requestTxId: 'c1', amount: 500, attendant: 'att-1' } });
    assert.deepEqual(third.read(), [0x52]);
  });

  it('priority exceptions keep the journal’s order among themselves (a reset never before its pending); one journalled twice is reported twice', () => {
    const f = open();
    append(billCredit(STATION, 10_000, 'n1'));
    f.read();
    append(
      { type: 'credit.cancel', txId: 'c1', payload: { station: STATION, amount: 500, reason: 'a' } },
      { type: 'handpay.confirm', txId: 'p1', payload: { station: STATION, requestTxId: 'c1', amount: 500, attendant: 'att-1' } },
      { type: 'credit.cancel', txId: 'c2', payload: { station: STATION, amount: 500, reason: 'b' } },
    );
    assert.deepEqual(f.read(), [0x51, 0x52, 0x51]);
  });

  /** `n` rounds of station 1, each a bet and its settlement: a game started (7E) and ended (7F) each. */
  const playRounds = (n: number, after?: () => void, from = 0): void => {
    for (let r = from; r < from + n; r++) {
      append(bet(STATION, `r${r}`, 1_000, `b${r}`), settledRound(`r${r}`, [STATION], 1_000).settle);
      after?.();
    }
  };

  it('a casino host that never general-polls: the feed keeps a bounded backlog, drops the oldest and reports 70 once; a restart reads no more (a review: the feed grew by 2 a round)', () => {
    const f = open();
    append(billCredit(STATION, 10_000, 'n1'));
    playRounds(2_000);
    assert.ok(f.feed.outstanding <= FIFO_KEPT, `at most ${FIFO_KEPT} kept (${f.feed.outstanding}; 2 a round before)`);
    assert.equal(f.m.exceptions.queued, 20, 'the machine’s FIFO holds its 20');
    assert.ok(f.m.exceptions.flagged(0x70), 'the overflow is flagged');
    assert.ok(!f.m.overflowed, 'the machine’s own FIFO never overflowed: the feed drops, as SAS’s queue would');
    const through = kept().stations[String(STATION)]?.through ?? 0;
    assert.ok(through >= ledger.headOf().seq - 2 * (FIFO_KEPT + FEED_SAVE_EVERY), `\`through\` follows the drops (${through}, head ${ledger.headOf().seq})`);
    f.off();
    // A restart on the same folder: the episode's 70 again (not acknowledged), then the newest kept, in journal order.
    const second = open();
    assert.ok(second.feed.outstanding <= FIFO_KEPT, `the restart keeps at most ${FIFO_KEPT} (${second.feed.outstanding})`);
    const got = second.read(10_000);
    assert.equal(got.filter((c) => c === 0x70).length, 1, 'one 70 for the episode');
    assert.equal(got[0], 0x70, 'reported first (a priority exception)');
    const rest = got.slice(1);
    assert.ok(rest.length > 0 && rest.length <= FIFO_KEPT, `${rest.length}`);
    assert.deepEqual(
      rest,
      rest.map((_, i) => ((rest.length - i) % 2 === 0 ? 0x7e : 0x7f)),
      'the newest games, started and ended, in order, ending with the last round’s 7F',
    );
    assert.equal(kept().stations[String(STATION)]?.overflow, undefined, 'the 70 acknowledged ends the episode in the file too');
    second.off();
    assert.deepEqual(open().read(), [], 'and a restart after it reports nothing again');
  });

  it('the casino host comes back after an overflow: 70 once, the machine’s queue, then the newest, and nothing after it is dropped', () => {
    const f = open();
    append(billCredit(STATION, 10_000, 'n1'));
    f.read();
    playRounds(1_000);
    const got = f.read(10_000);
    assert.equal(got.filter((c) => c === 0x70).length, 1, `one 70 (${got.length} read)`);
    assert.equal(got[0], 0x70);
    assert.ok(got.length <= 1 + 20 + FIFO_KEPT, `bounded: ${got.length}`);
    assert.equal(f.feed.outstanding, 0);
    playRounds(5, undefined, 1_000);
    assert.deepEqual(f.read(), [0x7e, 0x7f, 0x7e, 0x7f, 0x7e, 0x7f, 0x7e, 0x7f, 0x7e, 0x7f], 'the episode is over: no 70 again');
  });

  it('an honest casino host that acknowledges as it goes keeps every event, in order, and never a 70 (a backlog under the bound, larger than the queue, comes whole)', () => {
    const f = open();
    const got = f.read();
    append(billCredit(STATION, 10_000, 'n1'));
    // Read every 100 rounds: 200 waiting each time, ten times the machine's queue and under the feed's bound.
    let played = 0;
    playRounds(300, () => {
      if (++played % 100 === 0) got.push(...f.read());
    });
    assert.equal(got.length, 2 + 2 * 300);
    assert.deepEqual(got.slice(0, 4), [0x17, 0x4c, 0x7e, 0x7f]);
    assert.ok(
      got.slice(2).every((c, i) => c === (i % 2 === 0 ? 0x7e : 0x7f)),
      'every game started and ended',
    );
    assert.ok(!got.includes(0x70) && !f.m.overflowed);
    assert.equal(f.feed.outstanding, 0);
  });

  // A damaged file with no previous copy: the feed cannot know what was acknowledged, so it reads the run before this one again (duplicates, never a loss) and says so with 70.
  it('a reported-file that is not ours is not believed: the feed reads the earlier run again, after a 70, and logs an error', () => {
    append(billCredit(STATION, 10_000, 'old'));
    ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
    writeFileSync(path.join(dir, REPORTED_FILE), JSON.stringify({ v: 1, stations: { '1': { through: -5, acked: [] } } }));
    const { log, lines } = said();
    assert.deepEqual(open(machine(), log).read(), [0x70, 0x17, 0x4c, 0x18, 0x17], 'the note of the earlier run is reported (before: [0x18, 0x17], it was not)');
    assert.equal(lines.length, 1, JSON.stringify(lines));
  });

  it('a reported-file that is not JSON at all (cut, overwritten) is not believed either, and opens the feed', () => {
    append(billCredit(STATION, 10_000, 'old'));
    ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
    writeFileSync(path.join(dir, REPORTED_FILE), '{"v":1,"stations":{"1":{"through":99');
    assert.deepEqual(open(machine(), said().log).read(), [0x70, 0x17, 0x4c, 0x18, 0x17]);
  });
  /** `n` 1-cent AFT transfers to the station: one priority 69 each, the host's own to make. */
  const transfers = (n: number, from = 0): NewEntry[] =>
    Array.from({ length: n }, (_, i) => ({
      type: 'aft.in' as const,
      payload: { station: STATION, transactionId: `T${from + i}`, amount: 1, requested: 1, assetNumber: 7 },
      txId: `aft:${STATION}:T${from + i}`,
    }));
  /** A host that acknowledges the priority 69s as they come and never the FIFO's oldest. */
  const ackOnly69 = (f: ReturnType<typeof open>): number => {
    let n = 0;
    for (let code = f.m.exceptions.peek(); code === 0x69; code = f.m.exceptions.peek(), n++) {
      const done = f.m.exceptions.acknowledge(code);
      if (done?.tag !== undefined) f.feed.acknowledged(done.tag);
    }
    return n;
  };
  const kept = () =>
    JSON.parse(readFileSync(path.join(dir, REPORTED_FILE), 'utf8')) as {
      stations: Record<string, { through: number; acked: string[]; pending?: string[]; overflow?: true }>;
    };

  it('a host acknowledging its own priority 69s and never the oldest FIFO exception keeps the file bounded; after a restart the oldest is still reported (a review: F3)', () => {
    const first = open();
    first.read();
    append(billCredit(STATION, 10_000, 'n1')); // 0x4C: the FIFO's oldest, never acknowledged
    const extra = 200;
    for (let i = 0; i < ACKED_KEPT + extra; i += 300) ledger.appendMany(transfers(Math.min(300, ACKED_KEPT + extra - i), i));
    assert.equal(ackOnly69(first), ACKED_KEPT + extra);
    assert.equal(first.m.exceptions.peek(), 0x4c, 'the note still waits');
    const station = kept().stations[String(STATION)];
    assert.ok(station && station.acked.length <= ACKED_KEPT, `the file keeps at most ${ACKED_KEPT} keys (it kept ${station?.acked.length})`);
    assert.ok(statSync(path.join(dir, REPORTED_FILE)).size < 20 * ACKED_KEPT, 'and its size is bounded with them');
    first.off();
    // The restart: the note comes (never lost); only the acknowledgements the file let go come again.
    const second = open(machine(ACKED_KEPT + extra));
    const again = second.read(ACKED_KEPT + extra + 10);
    assert.ok(again.includes(0x4c), 'the note’s exception is reported after the restart');
    assert.equal(again.filter((c) => c === 0x69).length, extra, 'the oldest acknowledgements let go are reported again, no more');
  });

  it('a reported-file with more keys than the bound is read as far as it can be trusted, not dropped whole, and says so (a review: F3)', () => {
    const note = ledger.append(billCredit(STATION, 10_000, 'old')).entry.seq;
    ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
    const acked = Array.from({ length: 10_001 }, (_, i) => `${note + 100 + i}.0`);
    writeFileSync(
      path.join(dir, REPORTED_FILE),
      JSON.stringify({ v: 1, stations: { [String(STATION)]: { through: note - 1, acked }, '2': { through: 'x' } } }),
    );
    const said: string[] = [];
    const store = new ReportedStore(dir, { warn: (_o, msg) => said.push(msg), error: (_o, msg) => said.push(msg) });
    assert.equal(store.of(STATION)?.through, note - 1, 'its `through` is kept');
    assert.equal(store.of(STATION)?.acked.length, ACKED_KEPT);
    assert.equal(store.of(2), null, 'a station whose part is not ours is not believed');
    assert.equal(store.damaged(2), true, '… and its feed reads further back');
    assert.equal(said.length, 2, said.join('; '));
    const m = machine();
    new StationFeed(STATION, { ledger, store, machine: m, facts: journalFacts(ledger) });
    assert.equal(m.exceptions.peek() !== 0, true);
    const codes: number[] = [];
    for (let code = m.exceptions.peek(); code !== 0; code = m.exceptions.peek()) {
      codes.push(code);
      m.exceptions.acknowledge(code);
    }
    assert.ok(codes.includes(0x4c), `the earlier run’s note is reported (${codes.map((c) => c.toString(16)).join(' ')})`);
  });
  /** A system that general-polls and acknowledges the FIFO's exceptions and never a priority one (its flag stays set). */
  const ackQueued = (f: ReturnType<typeof open>, codes = [0x17, 0x4c, 0x7e, 0x7f, 0x11, 0x12]): number => {
    for (let n = 0; ; n++) {
      let done = null;
      for (const c of codes) if ((done = f.m.exceptions.acknowledge(c)) !== null) break;
      if (done === null) return n;
      if (done.tag !== undefined) f.feed.acknowledged(done.tag);
    }
  };
  const handpay = (txId: string): NewEntry => ({ type: 'credit.cancel', txId, payload: { station: STATION, amount: 500, reason: 'by hand' } });
  const said = (): { log: ReportedLog; lines: { detail: object; message: string }[] } => {
    const lines: { detail: object; message: string }[] = [];
    const push = (detail: object, message: string) => void lines.push({ detail, message });
    return { log: { warn: push, error: push }, lines };
  };

  it('a priority exception the system never acknowledges no longer holds `through`: its key is kept apart, a restart reads from `through` and reports it once, nothing acknowledged twice (a review: one handpay, 2,000 rounds)', () => {
    const first = open();
    append(billCredit(STATION, 10_000, 'n1'));
    ackQueued(first);
    const hp = ledger.append(handpay('c1')).entry.seq;
    playRounds(2_000, () => ackQueued(first));
    assert.equal(first.m.exceptions.peek(), 0x51, 'the handpay is still flagged, never acknowledged');
    assert.equal(first.m.exceptions.queued, 0, 'every ordinary exception acknowledged');
    const head = ledger.headOf().seq;
    const station = kept().stations[String(STATION)];
    assert.ok(station !== undefined);
    assert.equal(station.through, head, `\`through\` moved past the handpay (${station.through}; the handpay at ${hp}, the head ${head})`);
    assert.deepEqual(station.pending, [`${hp}.0`], 'the handpay kept by its key');
    assert.equal(station.acked.length, 0, `no acknowledged keys beyond \`through\` (${station.acked.length})`);
    first.off();
    // The restart: the handpay's entry by its key, then the journal after `through` (nothing).
    const second = open();
    assert.equal(second.feed.readAtStart, 0, `entries read at the restart (${second.feed.readAtStart})`);
    assert.equal(second.feed.outstanding, 1);
    const got = second.read(10_000);
    assert.deepEqual(got, [0x51], `the handpay once, and nothing acknowledged again (${got.length} reported)`);
    second.off();
    assert.deepEqual(open().read(), [], 'acknowledged now: a restart reports nothing');
    assert.equal(kept().stations[String(STATION)]?.pending, undefined, 'and the file keeps no pending key');
  });

  it('a reported-file of an earlier build (no `pending`) still loads: reported from its `through`, its acknowledged keys not again, and the next write keeps the waiting handpay apart', () => {
    append(billCredit(STATION, 10_000, 'n1'));
    const hp = ledger.append(handpay('c1')).entry.seq;
    const open1 = ledger.append({ type: 'door.open', payload: { door: 'main', station: STATION } }).entry.seq;
    const close1 = ledger.append({ type: 'door.close', payload: { door: 'main', station: STATION } }).entry.seq;
    writeFileSync(
      path.join(dir, REPORTED_FILE),
      JSON.stringify({ v: 1, stations: { [String(STATION)]: { through: hp - 1, acked: [`${open1}.0`, `${close1}.0`] } } }),
    );
    const first = open();
    assert.equal(first.feed.outstanding, 1, 'only the handpay: the doors were acknowledged');
    append({ type: 'door.open', payload: { door: 'main', station: STATION } });
    assert.equal(ackQueued(first), 1);
    const station = kept().stations[String(STATION)];
    assert.equal(station?.through, ledger.headOf().seq, '`through` moves past the handpay at the first write');
    assert.deepEqual(station?.pending, [`${hp}.0`]);
    assert.deepEqual(station?.acked, []);
    first.off();
    assert.deepEqual(open().read(), [0x51], 'the handpay once after a restart, the doors never again');
  });

  it('hostile `pending` keys are ignored and logged: an entry with no priority exception, another station’s, a part it has not, a seq past the journal or past `through`; a true one is reported once', () => {
    append(billCredit(2, 10_000, 'n2'));
    const note = ledger.append(billCredit(STATION, 10_000, 'n1')).entry.seq;
    const other = ledger.append({ type: 'credit.cancel', txId: 'c2', payload: { station: 2, amount: 500, reason: 'b' } }).entry.seq;
    const door = ledger.append({ type: 'door.open', payload: { door: 'main', station: STATION } }).entry.seq;
    const hp = ledger.append(handpay('c1')).entry.seq;
    const reset = ledger.append({ type: 'handpay.confirm', txId: 'p1', payload: { station: STATION, requestTxId: 'c1', amount: 500, attendant: 'att-1' } })
      .entry.seq;
    const bad = [`${note}.0`, `${other}.0`, `${door}.0`, `${hp}.1`, `${reset + 1_000}.0`, '0.0', `${reset}.0`];
    writeFileSync(
      path.join(dir, REPORTED_FILE),
      JSON.stringify({ v: 1, stations: { [String(STATION)]: { through: hp, acked: [], pending: [...bad, `${hp}.0`, `${hp}.0`] } } }),
    );
    const { log, lines } = said();
    const f = open(machine(), log);
    assert.deepEqual(f.read(), [0x51, 0x52], 'the true handpay once, its reset once (read from the journal, not from its key)');
    assert.equal(lines.length, 1, lines.map((l) => l.message).join('; '));
    assert.deepEqual((lines[0]?.detail as { ignored?: string[] }).ignored?.toSorted(), bad.toSorted());
    f.off();
    assert.deepEqual(open().read(), []);
  });

  it('a `pending` longer than the feed keeps is read down to its newest, and says so', () => {
    append(billCredit(STATION, 10_000, 'n1'));
    const hp = ledger.append(handpay('c1')).entry.seq;
    const pending = [`${hp}.0`, ...Array.from({ length: PRIORITY_KEPT + 10 }, (_, i) => `${hp + 10 + i}.0`)];
    writeFileSync(path.join(dir, REPORTED_FILE), JSON.stringify({ v: 1, stations: { [String(STATION)]: { through: hp + 20_000, acked: [], pending } } }));
    const { log, lines } = said();
    const store = new ReportedStore(dir, log);
    assert.equal(store.of(STATION)?.pending?.length, PRIORITY_KEPT);
    assert.ok(
      lines.some((l) => /pending/.test(l.message)),
      lines.map((l) => l.message).join('; '),
    );
  });
});
