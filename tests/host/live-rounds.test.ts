import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import WebSocket from 'ws';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { verifyLedger } from '../../ledger/index.js';
import { decodeHostMessage, type StationState, type TableState, type ViewName, type ViewState } from '../../protocol/index.js';

/** A screen over WebSocket that keeps the latest snapshot and lets a test wait for a state. */
async function screen(running: RunningHost, view: ViewName) {
  const token = running.screens.find((s) => s.view === view)?.token;
  assert.ok(token);
  const ws = new WebSocket(`${running.origin.replace('http', 'ws')}/ws`, { origin: running.origin });
  await new Promise((r) => ws.once('open', r));
  let state: ViewState | null = null;
  let version = 0;
  const errors: string[] = [];
  const waiters: { test: (s: ViewState) => boolean; resolve: (s: ViewState) => void }[] = [];
  ws.on('message', (d) => {
    const m = decodeHostMessage(d.toString());
    assert.ok(m.ok, 'host message fails its schema');
    if (m.message.type === 'snapshot') {
      state = m.message.state;
      version = m.message.version;
      for (const w of [...waiters]) {
        if (!w.test(m.message.state)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m.message.state);
      }
    } else if (m.message.type === 'error') errors.push(`${m.message.code}: ${m.message.detail} [${m.message.messageKey}]`);
  });
  ws.send(JSON.stringify({ type: 'hello', id: 'h', protocol: 1, token }));
  ws.send(JSON.stringify({ type: 'subscribe', id: 's', view }));
  let n = 0;
  return {
    errors,
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

async function creditStation(running: RunningHost, station: number, note: number): Promise<void> {
  const sim = running.billAcceptors.simulator(station);
  assert.ok(sim);
  for (let i = 0; i < 400 && running.billAcceptors.statuses()[station - 1]?.state !== 'ready'; i++) await new Promise((r) => setTimeout(r, 25));
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
    one.command({ name: 'place-bet', bet: 'banker', amount: 20_000 });
    await one.until<StationState>((s) => s.betting.bets.banker === 20_000 && s.credit === 30_000, 'banker bet on the spot');
    two.command({ name: 'place-bet', bet: 'player', amount: 10_000 });
    // Each command is made against the version it saw: wait for the answer before the next.
    await two.until<StationState>((s) => s.betting.bets.player === 10_000, 'player bet on the spot');
    two.command({ name: 'place-bet', bet: 'tie', amount: 10_000 });
    await two.until<StationState>((s) => s.betting.bets.tie === 10_000, 'tie bet on the spot');
    // Over the credit: refused, nothing trimmed.
    two.command({ name: 'place-bet', bet: 'player', amount: 90_000 });

    const done = await table.until<TableState>((s) => s.round?.phase === 'results' && (s.round.results?.length ?? 0) > 0, 'results');
    const results = done.round?.results ?? [];
    assert.deepEqual(results.map((l) => [l.seat, l.bet]), [[1, 'banker'], [2, 'player'], [2, 'tie']]);
    for (const l of results) assert.match(l.rule, /^macau-baccarat /);
    const hands = done.round?.hands ?? [];
    assert.deepEqual(hands.map((h) => h.owner), ['player', 'banker']);
    assert.ok(hands.every((h) => h.cards.length >= 2 && h.cards.length <= 3));

    const net1 = results.filter((l) => l.seat === 1).reduce((a, l) => a + l.net, 0);
    const net2 = results.filter((l) => l.seat === 2).reduce((a, l) => a + l.net, 0);
    assert.equal(running.ledger.credit(1), 50_000 + net1);
    assert.equal(running.ledger.credit(2), 100_000 + net2);
    // Refused with the reason worded for the player, not a bare "refused".
    assert.ok(two.errors.some((e) => e.startsWith('rejected: not enough credit') && e.endsWith('[refusals.over-credit]')), two.errors.join('; '));

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
      config: { ...simulatedTableConfig('war'), timings: quick },
      simulatedDealer: false,
    });
  });
  after(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks the tied seat war or surrender, takes the raise from its credit, burns 3 and 3, pays Art. 7 n.5', async () => {
    const one = await screen(running, 'station/1');
    const table = await screen(running, 'table');
    await creditStation(running, 1, 500);
    await one.until<StationState>((s) => s.credit === 50_000 && s.betting.open, 'credited, betting open');
    one.command({ name: 'place-bet', bet: 'main', amount: 10_000 });
    await table.until<TableState>((s) => s.round?.cue?.kind === 'card', 'the first card asked for');

    const shoe = running.shoe?.simulator();
    assert.ok(shoe);
    const deal = async (card: string) => {
      const before = JSON.stringify((await table.until<TableState>(() => true, 'any')).round?.cue);
      assert.notEqual(shoe.drawCard({ card: card as never }), null);
      await table.until<TableState>((s) => JSON.stringify(s.round?.cue) !== before || s.round?.phase !== 'dealing', `after ${card}`);
    };
    await deal('7S'); // seat 1
    await deal('7D'); // croupier: a tie
    const asked = await one.until<StationState>((s) => s.decision !== null, 'the war decision');
    assert.deepEqual(asked.decision?.legal, ['war', 'surrender']);
    assert.equal(asked.decision?.default, 'war');
    one.command({ name: 'decide', action: 'war' });
    await one.until<StationState>((s) => s.decision === null && s.credit === 30_000, 'the raise taken from credit');
    for (const c of ['2C', '3C', '4C']) await deal(c); // burns before the seat's war card
    await deal('KS');
    for (const c of ['5C', '6C', '8C']) await deal(c); // burns before the croupier's
    await deal('QH');
    const done = await table.until<TableState>((s) => s.round?.phase === 'results', 'results');
    assert.deepEqual(done.round?.results, [{ seat: 1, bet: 'main', stake: 20_000, net: 10_000, rule: 'macau-war art.7 n.5 al.1', owner: 'seat' }]);
    assert.equal(running.ledger.credit(1), 60_000);
    assert.equal(verifyLedger(running.ledger).ok, true);
    one.close();
    table.close();
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

  it('plays a round with the station deciding (the dealer holds one card, Art. 5 procedure 1), and settles by article', async () => {
    const one = await screen(running, 'station/1');
    const table = await screen(running, 'table');
    await creditStation(running, 1, 1000);
    await one.until<StationState>((s) => s.credit === 100_000, 'credited');
    await one.until<StationState>((s) => s.betting.open && (s.round?.endsAt ?? 0) - Date.now() > 1500, 'a fresh betting window');
    one.command({ name: 'place-bet', bet: 'main', amount: 10_000 });
    await table.until<TableState>((s) => s.round?.phase === 'dealing', 'dealing');

    const dealerWhileDeciding: string[][] = [];
    for (let i = 0; i < 20; i++) {
      const s = await one.until<StationState>((x) => x.decision !== null || x.round?.phase === 'results', 'a decision or the results');
      if (!s.decision) break;
      dealerWhileDeciding.push(s.round?.hands.find((h) => h.owner === 'dealer')?.cards ?? []);
      // Stand when allowed, as basic play would at worst; answer each decision once.
      one.command({ name: 'decide', action: s.decision.legal.includes('stand') ? 'stand' : s.decision.default });
      await one.until<StationState>((x) => x.decision === null || x.decision.endsAt !== s.decision?.endsAt, 'the decision taken');
    }
    const done = await table.until<TableState>((s) => s.round?.phase === 'results', 'results');
    const lines = done.round?.results ?? [];
    assert.ok(lines.length >= 1);
    for (const l of lines) assert.match(l.rule, /^macau-2009 art\./);
    // Macau 2009's default procedure 1 deals the dealer no hole card: one card while players decide.
    for (const cards of dealerWhileDeciding) assert.equal(cards.length, 1, JSON.stringify(cards));
    const dealer = done.round?.hands.find((h) => h.owner === 'dealer');
    assert.ok(dealer && !dealer.cards.includes('XX'));
    const net = lines.reduce((a, l) => a + l.net, 0);
    assert.equal(running.ledger.credit(1), 100_000 + net);
    assert.equal(verifyLedger(running.ledger).ok, true);
    one.close();
    table.close();
  });
});
