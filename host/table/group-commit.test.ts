// Group commit: station commands arriving within a few milliseconds share one durable commit, and
// each is answered only after that commit returned (journalled before acknowledged). A commit the
// ledger refuses answers nothing as taken: taken again one by one, only what the ledger takes is.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { parseCard } from '../../engine/cards/card.js';
import type { Outcome } from '../../engine/table/game.js';
import { verifyLedger, type NewEntry } from '../../ledger/index.js';
import { decodeHostMessage, PROTOCOL_VERSION, stationView, type HostMessage } from '../../protocol/index.js';
import { LaunchTokens } from '../screens/launch-tokens.js';
import { ScreenSession } from '../screens/screen-session.js';
import { credit, testTable, type TestTable } from '../testing/table-kit.js';

const WINDOW = { windowMs: 2 };

/** The bets each durable commit carried (its `table.input` entries of kind place-bet), in order. */
function watchCommits(t: TestTable, fail: (entries: readonly NewEntry[]) => boolean = () => false) {
  const commits: number[][] = [];
  const appendMany = t.ledger.appendMany.bind(t.ledger);
  t.ledger.appendMany = (entries, then) => {
    if (fail(entries)) throw new Error('injected: the disk refused the commit');
    const r = appendMany(entries, then);
    const bets = entries.flatMap((e) => {
      const station = e.type === 'table.input' && e.payload.input.kind === 'place-bet' ? e.payload.input.station : null;
      return typeof station === 'number' ? [station] : [];
    });
    if (bets.length > 0) commits.push(bets);
    return r;
  };
  return commits;
}

/** A bet submitted to the group commit: with a window, its outcome always comes later. */
const bet = (t: TestTable, station: number, amount = 10_000): Promise<Outcome> => {
  const r = t.table.submit({ kind: 'place-bet', station, spot: { bet: 'banker' }, amount });
  assert.ok(r instanceof Promise, 'a bet waits for its group commit');
  return r;
};
const settled = async (ps: Promise<Outcome>[]) => {
  const out: (Outcome | 'waiting')[] = ps.map(() => 'waiting');
  ps.forEach((p, i) => void p.then((o) => (out[i] = o)));
  await new Promise((r) => setImmediate(r));
  return out;
};

function open(): TestTable {
  const t = testTable({ game: 'baccarat', groupCommit: WINDOW, config: { remoteStations: 20 } });
  for (let s = 101; s <= 110; s++) credit(t.ledger, s, 100_000);
  return t;
}

describe('group commit of station commands', () => {
  it('commits the bets of one window together, and answers none before that commit returned', async () => {
    const t = open();
    try {
      const commits = watchCommits(t);
      const head = t.ledger.headOf().seq;
      const bets = [101, 102, 103, 104, 105].map((s) => bet(t, s));
      assert.deepEqual(await settled(bets), ['waiting', 'waiting', 'waiting', 'waiting', 'waiting'], 'nothing answered within the window');
      assert.equal(t.ledger.headOf().seq, head, 'nothing journalled yet');
      assert.equal(t.hub.state('station/101').kind === 'station' && t.table.reads.hasBets(101), true, 'reading the table commits what waits first');
      assert.deepEqual(commits, [[101, 102, 103, 104, 105]], 'one durable commit for the five');
      assert.deepEqual(
        (await Promise.all(bets)).map((o) => o.ok),
        [true, true, true, true, true],
      );
      // The next window's bets: committed when the window's time is out.
      const later = [106, 107].map((s) => bet(t, s));
      t.clock.advance(WINDOW.windowMs);
      assert.deepEqual(
        (await Promise.all(later)).map((o) => o.ok),
        [true, true],
      );
      assert.deepEqual(commits, [
        [101, 102, 103, 104, 105],
        [106, 107],
      ]);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('steps each command against the ones before it: a bet over what the first left of the credit is refused alone', async () => {
    const t = open();
    try {
      const commits = watchCommits(t);
      const ps = [bet(t, 101, 60_000), bet(t, 101, 60_000), bet(t, 102, 10_000)];
      t.clock.advance(WINDOW.windowMs);
      const out = await Promise.all(ps);
      assert.deepEqual(
        out.map((o) => o.ok),
        [true, false, true],
      );
      assert.equal(!out[1]?.ok && out[1]?.refusal, 'over-credit');
      assert.deepEqual(commits, [[101, 102]], 'the refused bet is not journalled');
    } finally {
      t.close();
    }
  });

  it('answers nothing as taken when the commit fails: each taken again alone, and a disk that refuses all holds the table with no bet in it', async () => {
    const t = open();
    try {
      // The group's commit fails once; alone, each is taken.
      let failures = 1;
      const commits = watchCommits(t, (entries) => entries.filter((e) => e.type === 'table.input').length > 1 && failures-- > 0);
      const ps = [101, 102, 103].map((s) => bet(t, s));
      t.clock.advance(WINDOW.windowMs);
      assert.deepEqual(
        (await Promise.all(ps)).map((o) => o.ok),
        [true, true, true],
      );
      assert.deepEqual(commits, [[101], [102], [103]], 'committed one by one after the group failed');
    } finally {
      t.close();
    }
    const u = open();
    try {
      let refusing = true;
      const commits = watchCommits(u, (entries) => refusing && entries.some((e) => e.type === 'table.input' && e.payload.input.kind === 'place-bet'));
      const ps = [104, 105].map((s) => bet(u, s));
      u.clock.advance(WINDOW.windowMs);
      const out = await Promise.all(ps);
      refusing = false;
      assert.deepEqual(
        out.map((o) => o.ok),
        [false, false],
        'none acknowledged',
      );
      assert.deepEqual(commits, []);
      assert.equal(u.table.reads.hasBets(104) || u.table.reads.hasBets(105), false, 'no bet stands that the ledger does not hold');
      assert.equal(u.table.state.hold?.reason, 'ledger', 'the table holds, as for any refused journal write');
    } finally {
      u.close();
    }
  });

  it('commits the waiting bets before a cash-out is checked: a bet sent first keeps the cash-out out', async () => {
    const t = open();
    try {
      watchCommits(t);
      const p = bet(t, 101);
      const cashOut = t.hub.commands.apply('station/101', t.hub.version('station/101'), { name: 'cash-out' });
      assert.equal(cashOut.ok, false);
      assert.equal(!cashOut.ok && cashOut.error.refusal, 'bets-in-play');
      assert.equal((await p).ok, true);
      assert.equal(t.ledger.credit(101), 100_000, 'no credit cancelled');
    } finally {
      t.close();
    }
  });

  it('steps a waiting bet against a credit the ledger changed meanwhile (a cash-out journalled by another writer), not the one it saw', async () => {
    const t = open();
    try {
      const commits = watchCommits(t);
      const p = bet(t, 102, 50_000);
      // Another writer cancels the credit in the window (as a cash-out does), before the bet's commit.
      t.ledger.append({ type: 'credit.cancel', payload: { station: 102, amount: 100_000, reason: 'cash-out by handpay' }, txId: 'T:cashout:102:test' });
      t.clock.advance(WINDOW.windowMs);
      const out = await p;
      assert.equal(out.ok, false);
      assert.equal(!out.ok && out.refusal, 'over-credit');
      assert.deepEqual(commits, []);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('acknowledges a screen’s bet only after its commit returned, and a refused commit with a refusal, never an ack', async () => {
    const t = open();
    try {
      const committed = new Set<string>();
      let refuse = false;
      const appendMany = t.ledger.appendMany.bind(t.ledger);
      t.ledger.appendMany = (entries, then) => {
        if (refuse && entries.some((e) => e.type === 'table.input')) throw new Error('injected: the disk refused the commit');
        const r = appendMany(entries, then);
        for (const e of entries)
          if (e.type === 'table.input' && e.payload.input.kind === 'place-bet')
            committed.add(`${String(e.payload.input.station)}:${String(e.payload.input.amount)}`);
        return r;
      };
      // Remote stations greet with their credential on the LAN; launch tokens naming their views stand in here.
      const views = [101, 102, 103].map((s) => stationView(s));
      const tokens = new LaunchTokens(views);
      const sent: { station: number; m: HostMessage; committedThen: Set<string> }[] = [];
      const sessions = views.map((view, i) => {
        const station = 101 + i;
        const s = new ScreenSession(
          t.hub,
          tokens,
          {
            send: (text) => {
              const d = decodeHostMessage(text);
              assert.ok(d.ok);
              sent.push({ station, m: d.message, committedThen: new Set(committed) });
            },
            close: () => undefined,
          },
          pino({ level: 'silent' }),
          { incoming: null },
        );
        s.receive(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: tokens.tokenFor(view) }));
        s.receive(JSON.stringify({ type: 'subscribe', id: 's', view }));
        return s;
      });
      const place = (s: ScreenSession, i: number, amount: number, id: string) => {
        const view = views[i] ?? stationView(101);
        s.receive(JSON.stringify({ type: 'command', id, view, version: t.hub.version(view), command: { name: 'place-bet', spot: { bet: 'banker' }, amount } }));
      };
      sessions.forEach((s, i) => place(s, i, 10_000 * (i + 1), `b${i}`));
      assert.equal(sent.filter((x) => x.m.type === 'ack').length, 0, 'no ack within the window');
      t.clock.advance(WINDOW.windowMs);
      await new Promise((r) => setImmediate(r));
      const acks = sent.filter((x) => x.m.type === 'ack');
      assert.equal(acks.length, 3);
      for (const a of acks) assert.ok(a.committedThen.has(`${a.station}:${10_000 * (a.station - 100)}`), `station ${a.station}'s ack came after its commit`);
      // Now the disk refuses: the bets are answered with a refusal, never an ack.
      refuse = true;
      sessions.forEach((s, i) => place(s, i, 10_000, `c${i}`));
      t.clock.advance(WINDOW.windowMs);
      await new Promise((r) => setImmediate(r));
      const answers = sent.filter((x) => (x.m.type === 'ack' || x.m.type === 'error') && 'ref' in x.m && String(x.m.ref).startsWith('c'));
      assert.deepEqual(
        answers.map((x) => x.m.type),
        ['error', 'error', 'error'],
      );
      for (const s of sessions) s.dispose();
    } finally {
      t.close();
    }
  });
});

describe('group commit and the version a command was made against', () => {
  // A station's command names the version of its own part it was made against: a second command
  // against the same version is stale once the first moved the part (a screen that resends a bet
  // after a drop, a double tap, a hostile station replaying its own command). One at a time, the
  // hub refuses it; within one group-commit window the two must not both be staked.
  const submit = (t: TestTable, version: number, amount: number) =>
    t.hub.commands.submit(stationView(101), version, { name: 'place-bet', spot: { bet: 'banker' }, amount });
  const answer = async (r: ReturnType<typeof submit>) => {
    const x = await r;
    return x.ok ? 'ok' : x.error.code;
  };

  it('refuses the second of two bets made against the same version in one window as stale: one bet staked, not two', async () => {
    const t = open();
    try {
      const commits = watchCommits(t);
      const v = t.hub.version(stationView(101));
      const first = submit(t, v, 10_000);
      const second = submit(t, v, 10_000);
      // The first's window, then the second's (it waits for the first's answer).
      t.clock.advance(WINDOW.windowMs);
      await new Promise((r) => setImmediate(r));
      t.clock.advance(WINDOW.windowMs);
      assert.deepEqual([await answer(first), await answer(second)], ['ok', 'stale-version']);
      assert.deepEqual(commits.flat(), [101], 'one bet journalled');
      assert.ok(t.hub.version(stationView(101)) > v, 'the first moved the view');
    } finally {
      t.close();
    }
  });

  it('judges the second against the state the first left: after a refused first, the second made against the same version is taken', async () => {
    const t = open();
    try {
      const v = t.hub.version(stationView(101));
      // More than the station's credit: refused, and the view does not move.
      const first = submit(t, v, 1_000_000);
      const second = submit(t, v, 10_000);
      // The first's window, then the second's (it waits for the first's answer).
      t.clock.advance(WINDOW.windowMs);
      await new Promise((r) => setImmediate(r));
      t.clock.advance(WINDOW.windowMs);
      assert.deepEqual([await answer(first), await answer(second)], ['rejected', 'ok']);
    } finally {
      t.close();
    }
  });
});

describe('group commit with a live round', () => {
  it('deals on after a window of bets: the close commits what waits first', async () => {
    const t = open();
    try {
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      const ps = [101, 102].map((s) => bet(t, s));
      // The betting countdown ends before the window: the close steps after the bets that came first.
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.deepEqual(
        (await Promise.all(ps)).map((o) => o.ok),
        [true, true],
      );
      assert.equal(t.table.reads.view().phase, 'dealing');
      assert.equal(t.ledger.credit(101), 90_000, 'staked at the close');
    } finally {
      t.close();
    }
  });
});
