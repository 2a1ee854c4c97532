import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import WebSocket from 'ws';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { verifyLedger } from '../../ledger/index.js';
import {
  amountOn,
  decodeHostMessage,
  PROTOCOL_VERSION,
  ViewComposer,
  type BetId,
  type StationState,
  type TableState,
  type ViewName,
  type ViewState,
} from '../../protocol/index.js';

/** A screen over WebSocket that keeps the latest snapshot and lets a test wait for a state. */
async function screen(running: RunningHost, view: ViewName) {
  const token = running.screens.urls.find((s) => s.view === view)?.token;
  assert.ok(token);
  const ws = new WebSocket(`${running.origin.replace('http', 'ws')}/ws`, { origin: running.origin });
  await new Promise((r) => ws.once('open', r));
  let state: ViewState | null = null;
  let version = 0;
  const errors: string[] = [];
  const waiters: { test: (s: ViewState) => boolean; resolve: (s: ViewState) => void }[] = [];
  // A station's own part and the public parts come apart: put together as the screen does.
  const composer = new ViewComposer(view);
  ws.on('message', (d) => {
    const m = decodeHostMessage(d.toString());
    assert.ok(m.ok, 'host message fails its schema');
    const composed = composer.take(m.message);
    if (composed) {
      const now = composed.state;
      state = now;
      version = composed.version;
      for (const w of [...waiters]) {
        if (!w.test(now)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(now);
      }
    } else if (m.message.type === 'error') errors.push(`${m.message.code}: ${m.message.detail} [${m.message.messageKey}]`);
  });
  ws.send(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token }));
  ws.send(JSON.stringify({ type: 'subscribe', id: 's', view }));
  let n = 0;
  return {
    errors,
    latest: () => state,
    until<T extends ViewState>(test: (s: T) => boolean, what: string, ms = 20_000): Promise<T> {
      if (state && test(state as T)) return Promise.resolve(state as T);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; last state ${JSON.stringify(state)}`)), ms);
        waiters.push({
          test: test as (s: ViewState) => boolean,
          resolve: (s) => {
            clearTimeout(timer);
            resolve(s as T);
          },
        });
      });
    },
    command(command: Record<string, unknown>) {
      ws.send(JSON.stringify({ type: 'command', id: `c${++n}`, view, version, command }));
    },
    close: () => ws.close(),
  };
}

/** Places a bet from a station's screen and waits until its spot shows it (again after a stale-version refusal). */
async function placeBet(s: Awaited<ReturnType<typeof screen>>, bet: BetId, amount: number): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const errors = s.errors.length;
    s.command({ name: 'place-bet', spot: { bet }, amount });
    for (let i = 0; i < 200; i++) {
      const st = s.latest() as StationState | null;
      if (amountOn(st?.betting.bets ?? [], { bet }) >= amount) return;
      if (s.errors.length > errors) break;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  assert.fail(`${bet} ${amount} never reached the spot: ${s.errors.join('; ')}`);
}

async function creditStation(running: RunningHost, station: number, note: number): Promise<void> {
  const sim = running.devices.billAcceptors.simulator(station);
  assert.ok(sim);
  for (let i = 0; i < 400 && running.devices.billAcceptors.statuses()[station - 1]?.state !== 'ready'; i++) await new Promise((r) => setTimeout(r, 25));
  sim.insertNote(note);
}

const quick = { bettingMs: 1000, decisionMs: 5000, resultsMs: 1000 };

describe('live baccarat rounds through the simulated shoe and bill acceptors', () => {
  let running: RunningHost;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'live-baccarat-'));
    running = await startHost({
      dataDir: dir,
      rendererDir: path.join(dir, 'none'),
      logger: pino({ level: 'silent' }),
      config: { ...simulatedTableConfig('baccarat'), timings: { ...quick, bettingMs: 4000 } },
      simulatedDealer: { dealMs: 5 },
      seed: 11,
    });
  });
  after(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('bets from two stations, deals a coup card by card, settles with rules and pays through the ledger', async () => {
    const one = await screen(running, 'station/1');
    const two = await screen(running, 'station/2');
    const table = await screen(running, 'table');
    await creditStation(running, 1, 500);
    await creditStation(running, 2, 1000);
    await one.until<StationState>((s) => s.credit === 50_000, 'station 1 credited');
    await two.until<StationState>((s) => s.credit === 100_000, 'station 2 credited');

    // Shoe start: the indicator card and its burns come before the first coup.
    await table.until<TableState>((s) => s.round?.cue === null && s.round.phase === 'betting', 'the shoe-start burn done');
    // A fresh window with time to place every bet (the host's clock is this machine's).
    await one.until<StationState>((s) => s.betting.open && (s.round?.endsAt ?? 0) - Date.now() > 2500, 'a fresh betting window');
    one.command({ name: 'place-bet', spot: { bet: 'banker' }, amount: 20_000 });
    await one.until<StationState>((s) => amountOn(s.betting.bets, { bet: 'banker' }) === 20_000 && s.credit === 30_000, 'banker bet on the spot');
    two.command({ name: 'place-bet', spot: { bet: 'player' }, amount: 10_000 });
    // Each command is made against the version it saw: wait for the answer before the next.
    await two.until<StationState>((s) => amountOn(s.betting.bets, { bet: 'player' }) === 10_000, 'player bet on the spot');
    two.command({ name: 'place-bet', spot: { bet: 'tie' }, amount: 10_000 });
    await two.until<StationState>((s) => amountOn(s.betting.bets, { bet: 'tie' }) === 10_000, 'tie bet on the spot');
    // Over the credit: refused, nothing trimmed.
    two.command({ name: 'place-bet', spot: { bet: 'player' }, amount: 90_000 });

    const done = await table.until<TableState>((s) => s.round?.phase === 'results' && (s.round.results?.length ?? 0) > 0, 'results');
    const results = done.round?.results ?? [];
    assert.deepEqual(
      results.map((l) => [l.seat, l.bet]),
      [
        [1, 'banker'],
        [2, 'player'],
        [2, 'tie'],
      ],
    );
    // Every line cites an article of the text (issue 33 item 1), never the regulation's bare name.
    for (const l of results) assert.match(l.rule, /^macau-baccarat art\.1[378]/);
    const hands = done.round?.hands ?? [];
    assert.deepEqual(
      hands.map((h) => h.owner),
      ['player', 'banker'],
    );
    assert.ok(hands.every((h) => h.cards.length >= 2 && h.cards.length <= 3));

    const net1 = results.filter((l) => l.seat === 1).reduce((a, l) => a + l.net, 0);
    const net2 = results.filter((l) => l.seat === 2).reduce((a, l) => a + l.net, 0);
    assert.equal(running.ledger.credit(1), 50_000 + net1);
    assert.equal(running.ledger.credit(2), 100_000 + net2);
    // Refused with the reason worded for the player, not a bare "refused".
    assert.ok(
      two.errors.some((e) => e.startsWith('rejected: not enough credit') && e.endsWith('[refusals.over-credit]')),
      two.errors.join('; '),
    );

    // The station is sent the shoe's coups and lays out its roads itself (protocol 6): they are the table display's.
    const laid = await table.until<TableState>((s) => (s.roads?.stats.coups ?? 0) >= 1, 'the coup on the table display’s roads');
    await one.until<StationState>((s) => isDeepStrictEqual(s.roads, laid.roads), 'the station’s roads laid out as the table display’s');

    const report = verifyLedger(running.ledger);
    assert.equal(report.ok, true, JSON.stringify(report));
    for (const c of [one, two, table]) c.close();
  });
});

describe('live casino war with a tie decided at the station', () => {
  let running: RunningHost;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'live-war-'));
    running = await startHost({
      dataDir: dir,
      rendererDir: path.join(dir, 'none'),
      logger: pino({ level: 'silent' }),
      config: { ...simulatedTableConfig('war'), timings: { ...quick, bettingMs: 4000 } },
      simulatedDealer: false,
    });
  });
  after(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('three stations: the tied seat is asked war or surrender and pays the raise from its credit, a tie bettor is paid 10:1, burns 3 and 3, settles Art. 7', async () => {
    const one = await screen(running, 'station/1');
    const two = await screen(running, 'station/2');
    const three = await screen(running, 'station/3');
    const table = await screen(running, 'table');
    await creditStation(running, 1, 500);
    await creditStation(running, 2, 500);
    await creditStation(running, 3, 500);
    for (const s of [one, two, three]) await s.until<StationState>((x) => x.credit === 50_000, 'credited');
    await one.until<StationState>((s) => s.betting.open && (s.round?.endsAt ?? 0) - Date.now() > 2500, 'a fresh betting window');
    await placeBet(one, 'main', 10_000);
    await placeBet(two, 'main', 10_000);
    await placeBet(two, 'tie', 10_000);
    await placeBet(three, 'main', 20_000);
    await table.until<TableState>((s) => s.round?.cue?.kind === 'card', 'the first card asked for');

    const shoe = running.devices.shoe?.simulator();
    assert.ok(shoe);
    const deal = async (card: string) => {
      // The shoe is locked between cues: wait for the gate to open, as a dealer's hand would.
      for (let i = 0; i < 500 && !(running.table.reads.expectsCard() && running.devices.shoe.gateOpen()); i++) await new Promise((r) => setTimeout(r, 10));
      const before = running.devices.shoe.cardsHandled;
      assert.notEqual(shoe.drawCard({ card: card as never }), null, `${card} drawn`);
      for (let i = 0; i < 500 && running.devices.shoe.cardsHandled === before; i++) await new Promise((r) => setTimeout(r, 10));
    };
    await deal('7S'); // seat 1
    await deal('7C'); // seat 2 (who also bet the tie)
    await deal('KS'); // seat 3
    await deal('7D'); // croupier: seats 1 and 2 tie
    const asked = await one.until<StationState>((s) => s.decision !== null, 'the war decision');
    assert.deepEqual(asked.decision?.legal, ['war', 'surrender']);
    assert.equal(asked.decision?.default, 'surrender', 'a timeout never stakes: Art. 7 n.4 1) (issue 51 item 3)');
    assert.equal(
      two.latest()?.kind === 'station' && (two.latest() as StationState).decision,
      null,
      'a seat with a tie bet has no choice (interpretation: main returned)',
    );
    one.command({ name: 'decide', action: 'war' });
    await one.until<StationState>((s) => s.decision === null && s.credit === 30_000, 'the raise taken from credit');
    for (const c of ['2C', '3C', '4C']) await deal(c); // burns before the seat's war card
    await deal('KH');
    for (const c of ['5C', '6C', '8C']) await deal(c); // burns before the croupier's
    await deal('QH');
    const done = await table.until<TableState>((s) => s.round?.phase === 'results', 'results');
    assert.deepEqual(
      done.round?.results?.map((l) => [l.seat, l.bet, l.stake, l.net, l.rule]),
      [
        [1, 'main', 20_000, 10_000, 'macau-war [art.7] n.5 al.1'],
        [2, 'main', 10_000, 0, 'macau-war interp:main-returned-with-tie-bet'],
        [2, 'tie', 10_000, 100_000, 'macau-war [art.7] n.3'],
        [3, 'main', 20_000, 20_000, 'macau-war [art.7] n.1'],
      ],
    );
    assert.deepEqual(
      [1, 2, 3].map((st) => running.ledger.credit(st)),
      [60_000, 150_000, 70_000],
    );
    assert.equal(verifyLedger(running.ledger).ok, true);
    for (const c of [one, two, three, table]) c.close();
  });
});

describe('live blackjack rounds (Macau 2009) through the simulated shoe', () => {
  let running: RunningHost;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'live-blackjack-'));
    running = await startHost({
      dataDir: dir,
      rendererDir: path.join(dir, 'none'),
      logger: pino({ level: 'silent' }),
      config: { ...simulatedTableConfig('blackjack'), timings: { ...quick, bettingMs: 3000 } },
      simulatedDealer: { dealMs: 5 },
      seed: 21,
    });
  });
  after(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('plays a round of three stations, each deciding at its own screen (the dealer holds one card, Art. 5 procedure 1), and settles by article', async () => {
    const stations = [await screen(running, 'station/1'), await screen(running, 'station/2'), await screen(running, 'station/3')];
    const table = await screen(running, 'table');
    for (const [i, s] of stations.entries()) {
      await creditStation(running, i + 1, 1000);
      await s.until<StationState>((x) => x.credit === 100_000, `station ${i + 1} credited`);
    }
    await stations[0]?.until<StationState>((s) => s.betting.open && (s.round?.endsAt ?? 0) - Date.now() > 1500, 'a fresh betting window');
    for (const s of stations) await placeBet(s, 'main', 10_000);
    await table.until<TableState>((s) => s.round?.phase === 'dealing', 'dealing');
    assert.deepEqual(
      stations.map((s) => amountOn((s.latest() as StationState).betting.bets, { bet: 'main' })),
      [10_000, 10_000, 10_000],
      "every station's bet plays",
    );

    const dealerWhileDeciding: string[][] = [];
    const decidedBy = new Set<number>();
    for (let i = 0; i < 60; i++) {
      // Whichever station the table waits on decides at its own screen; the others see no decision.
      const find = (): { at: number; state: StationState } | null => {
        for (const [at, s] of stations.entries()) {
          const st = s.latest() as StationState | null;
          if (st?.decision) return { at, state: st };
        }
        return null;
      };
      let deciding = find();
      for (let w = 0; w < 2000 && !deciding && (table.latest() as TableState | null)?.round?.phase !== 'results'; w++) {
        await new Promise((r) => setTimeout(r, 10));
        deciding = find();
      }
      if (!deciding) break;
      const d = deciding.state.decision;
      assert.ok(d);
      assert.equal(d.seat, deciding.at + 1, 'a station decides for its own seat only');
      assert.equal(stations.filter((s) => (s.latest() as StationState).decision !== null).length, 1, 'one decision at a time');
      decidedBy.add(d.seat);
      dealerWhileDeciding.push(deciding.state.round?.hands.find((h) => h.owner === 'dealer')?.cards ?? []);
      // Stand when allowed, as basic play would at worst; answer each decision once.
      stations[deciding.at]?.command({ name: 'decide', action: d.legal.includes('stand') ? 'stand' : d.default });
      await stations[deciding.at]?.until<StationState>((x) => x.decision === null || x.decision.endsAt !== d.endsAt, 'the decision taken');
    }
    const done = await table.until<TableState>((s) => s.round?.phase === 'results', 'results');
    const lines = done.round?.results ?? [];
    assert.deepEqual([...new Set(lines.map((l) => l.seat))].sort(), [1, 2, 3], 'every seat settled');
    for (const l of lines) assert.match(l.rule, /^macau-2009 art\./);
    // Macau 2009's default procedure 1 deals the dealer no hole card: one card while players decide.
    for (const cards of dealerWhileDeciding) assert.equal(cards.length, 1, JSON.stringify(cards));
    const dealer = done.round?.hands.find((h) => h.owner === 'dealer');
    assert.ok(dealer && !dealer.cards.includes('XX'));
    for (const seat of [1, 2, 3]) {
      const net = lines.filter((l) => l.seat === seat).reduce((a, l) => a + l.net, 0);
      assert.equal(running.ledger.credit(seat), 100_000 + net, `station ${seat} paid its own result`);
    }
    assert.equal(verifyLedger(running.ledger).ok, true);
    for (const c of [...stations, table]) c.close();
  });
});

describe('an extra card during a live round (a shoe without a gate)', () => {
  let running: RunningHost;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'live-extra-'));
    running = await startHost({
      dataDir: dir,
      rendererDir: path.join(dir, 'none'),
      logger: pino({ level: 'silent' }),
      // A one-way ASCII shoe cannot be locked, so a card can leave it while a seat decides.
      config: { ...simulatedTableConfig('war'), shoeProtocol: 'ascii', timings: { ...quick, bettingMs: 1500 } },
      simulatedDealer: false,
    });
  });
  after(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("holds the table with the card and its shoe sequence journalled; a void by two people returns both stations' bets", async () => {
    let notes = 0;
    for (const st of [1, 2])
      running.ledger.append({
        type: 'bill.credit',
        payload: { station: st, device: `BA-${st}`, denomination: 50_000, currency: 'MOP' },
        txId: `extra-note-${++notes}`,
      });
    for (let i = 0; i < 500 && !running.table.reads.station(1).betting.open; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(running.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
    assert.equal(running.table.commands.placeBet(2, { bet: 'main' }, 20_000).ok, true);
    for (let i = 0; i < 500 && !running.table.reads.expectsCard(); i++) await new Promise((r) => setTimeout(r, 10));
    const sim = running.devices.shoe.simulator();
    assert.ok(sim);
    const draw = async (card: string) => {
      const before = running.devices.shoe.cardsHandled;
      assert.equal(sim.drawCard({ card: card as never }), card);
      for (let i = 0; i < 500 && running.devices.shoe.cardsHandled === before; i++) await new Promise((r) => setTimeout(r, 10));
    };
    await draw('6S'); // seat 1
    await draw('JD'); // seat 2
    await draw('6H'); // croupier: seat 1 ties and must decide
    assert.ok(running.table.reads.station(1).decision);
    await draw('4C'); // the dealer draws on anyway
    assert.deepEqual([running.table.reads.view().phase, running.table.reads.view().hold], ['hold', 'out-of-turn']);
    const held = [...running.ledger.entries(1)]
      .filter((e) => e.type === 'misread')
      .map((e) => (JSON.parse(e.body) as { payload: { card?: string; shoeSequence?: number[]; roundId?: string } }).payload);
    const reads = [...running.ledger.entries(1)]
      .filter((e) => e.type === 'card.read')
      .map((e) => (JSON.parse(e.body) as { payload: { sequence?: number } }).payload.sequence as number);
    assert.equal(held.length, 1);
    assert.equal(held[0]?.card, '4C');
    assert.equal(held[0]?.roundId, running.table.reads.view().roundId);
    assert.ok((held[0]?.shoeSequence?.[0] ?? 0) > Math.max(...reads), 'the extra card has the next shoe sequence after the cards placed');
    assert.deepEqual(running.table.supervisor.voidRound('extra card while seat 1 decided', ['sup-1', 'wit-2']), { ok: true });
    assert.deepEqual([running.ledger.credit(1), running.ledger.credit(2)], [50_000, 50_000], 'every bet returned');
    assert.equal(verifyLedger(running.ledger).ok, true);
  });
});
