// Table host figures (issue 7): a card read → the new state sent on every screen session,
// p50/p99 over 1,000 reads, with simulated players at 7 stations; the journal write of each card
// (card.read, synchronous=FULL); rounds per hour with simulated players and instant simulated
// dealing per game, where the timers (a 30 ms betting window) and the players' round trips set the
// figure; and the ceiling: rounds per hour with a clock that runs only when told (no timer ever
// waits), so the figure is the work of the host's rounds, the engine, the ledger and the eight
// views' snapshots alone. Prints figures only; nothing here asserts a timing.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { parseCard } from '../engine/cards/card.js';
import { simulatedTableConfig } from '../host/config/table-config.js';
import { BaccaratGame } from '../host/games/baccarat.js';
import { BlackjackGame } from '../host/games/blackjack.js';
import { WarGame } from '../host/games/war.js';
import { TableHost } from '../host/screens/table-host.js';
import { startHost } from '../host/start-host.js';
import { RoundController } from '../host/table/round-controller.js';
import { manualTimers } from '../host/testing/manual-timers.js';
import { shuffledShoe } from '../hardware/shoe/simulator.js';
import { closedRoundCount, openLedger } from '../ledger/index.js';
import type { ViewName } from '../protocol/index.js';

const READS = 1000;
const silent = pino({ level: 'silent' });
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN).toFixed(2);
};

async function cardToScreens(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-host-'));
  const config = simulatedTableConfig('blackjack');
  const running = await startHost({
    dataDir: dir, rendererDir: path.join(dir, 'none'), logger: silent, config, seed: 7,
    autoplay: true, timings: { bettingMs: 60, decisionMs: 200, resultsMs: 5 }, simulatedDealer: false,
  });
  // One observer session per screen, as the table display and the seven stations would have.
  const views: ViewName[] = ['table', ...config.stations.map((s) => `station/${s.station}` as const)];
  const lastSent = new Map<ViewName, number>();
  for (const view of views) {
    const session = running.openSession({ send: (text) => text.includes('"snapshot"') && lastSent.set(view, performance.now()), close: () => undefined });
    session.receive(JSON.stringify({ type: 'hello', id: 'h', protocol: 1, token: running.screens.find((s) => s.view === view)!.token }));
    session.receive(JSON.stringify({ type: 'subscribe', id: 's', view }));
  }
  // When the engine was handed each card (the shoe driver's read, after the simulated wire).
  let handed = 0;
  const onCard = running.rounds.onCard.bind(running.rounds);
  running.rounds.onCard = (card, sequence) => {
    handed = performance.now();
    onCard(card, sequence);
  };
  const writes: number[] = [];
  const appendMany = running.ledger.appendMany.bind(running.ledger);
  running.ledger.appendMany = (entries) => {
    const t = performance.now();
    const r = appendMany(entries);
    if (entries.length === 1 && entries[0]?.type === 'card.read') writes.push(performance.now() - t);
    return r;
  };
  const sim = running.shoe.simulator()!;
  const fromDraw: number[] = [];
  const fromEngine: number[] = [];
  while (fromDraw.length < READS) {
    const cue = running.rounds.cue();
    if (cue?.kind === 'shuffle') {
      sim.loadShoe();
      await sleep(20);
      continue;
    }
    if (cue?.kind !== 'card') {
      await sleep(1);
      continue;
    }
    // The shoe is locked between cues and unlocked on each: draw once the gate is open.
    if (!running.shoe.gateOpen()) {
      await new Promise((r) => setImmediate(r));
      continue;
    }
    const before = running.shoe.cardsHandled;
    const t0 = performance.now();
    if (sim.drawCard() === null) {
      sim.loadShoe();
      await sleep(20);
      continue;
    }
    while (running.shoe.cardsHandled === before || views.some((v) => (lastSent.get(v) ?? 0) < handed)) await new Promise((r) => setImmediate(r));
    const sent = Math.max(...views.map((v) => lastSent.get(v) ?? 0));
    fromDraw.push(sent - t0);
    fromEngine.push(sent - handed);
  }
  console.log(`card read → state sent to ${views.length} screens, ${READS} reads (blackjack, 7 stations):`);
  console.log(`  from the shoe handing the card to the engine: p50 ${q(fromEngine, 0.5)} ms, p99 ${q(fromEngine, 0.99)} ms, max ${q(fromEngine, 1)} ms`);
  console.log(`  from the dealer pulling it (simulated wire, driver included): p50 ${q(fromDraw, 0.5)} ms, p99 ${q(fromDraw, 0.99)} ms, max ${q(fromDraw, 1)} ms`);
  console.log(`  of which the card.read journal write (synchronous=FULL): p50 ${q(writes, 0.5)} ms, p99 ${q(writes, 0.99)} ms over ${writes.length} writes`);
  await running.close();
  rmSync(dir, { recursive: true, force: true });
}

async function roundsPerHour(game: 'blackjack' | 'baccarat' | 'war', rounds: number): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-rph-'));
  const timings = { bettingMs: 30, decisionMs: 100, resultsMs: 0 };
  const running = await startHost({
    dataDir: dir, rendererDir: path.join(dir, 'none'), logger: silent, config: simulatedTableConfig(game), seed: 3,
    autoplay: true, timings, simulatedDealer: { dealMs: 0 },
  });
  const closed = () => closedRoundCount(running.ledger);
  // Let the players' first notes arrive and the shoe-start burns pass before timing.
  while (closed() < 3) await sleep(20);
  const from = closed();
  const t0 = performance.now();
  while (closed() - from < rounds) await sleep(20);
  const hours = (performance.now() - t0) / 3_600_000;
  console.log(`rounds per hour, ${game}, 7 simulated players, instant dealing, betting window ${timings.bettingMs} ms (the timers set this): ${Math.round(rounds / hours)} (${rounds} rounds)`);
  await running.close();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The ceiling: the round controller, the engine, the ledger (synchronous=FULL) and the table host
 * building every changed view's snapshot (8 views, serialised as a session would send them),
 * driven with a manual clock: 7 stations bet at once, every countdown is run out at once, each card
 * comes from a seeded shoe as soon as it is asked for, each decision is the stated default at once.
 */
async function ceiling(game: 'blackjack' | 'baccarat' | 'war', rounds: number): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-ceiling-'));
  const config = simulatedTableConfig(game);
  const ledger = openLedger(dir, config.tableId);
  const live = game === 'baccarat' ? new BaccaratGame(config.profile) : game === 'war' ? new WarGame(config.profile) : new BlackjackGame(config.profile);
  const clock = manualTimers();
  const rounds$ = new RoundController({ config, game: live, ledger, log: silent, timers: clock.timers, timings: config.timings });
  const host = new TableHost(config, 'bench', (s) => ledger.credit(s));
  host.attachRounds(rounds$);
  let sent = 0;
  host.onChange((view) => {
    sent += JSON.stringify(host.state(view)).length > 0 ? 1 : 0;
  });
  for (const s of config.stations) ledger.append({ type: 'bill.credit', payload: { station: s.station, device: `BA-${s.station}`, denomination: 1_000_000_000, currency: 'MOP' }, txId: `ceiling-${s.station}` });
  rounds$.start();
  let shoe = shuffledShoe(live.decks, 1);
  let pos = 0;
  let seq = 0;
  let seed = 1;
  // Rounds closed (settled or voided: both show results), counted as the table changes, so the timed
  // loop runs no query of its own over a growing journal.
  let closedRounds = 0;
  let lastClosed = '';
  rounds$.onChange(() => {
    const v = rounds$.view();
    if (v.phase === 'results' && v.roundId !== lastClosed) {
      lastClosed = v.roundId;
      closedRounds++;
    }
  });
  const closed = () => closedRounds;
  const step = (): void => {
    const v = rounds$.view();
    if (v.hold) throw new Error(`held: ${v.hold}`);
    const cue = rounds$.cue();
    if (cue?.kind === 'shuffle' || (cue?.kind === 'card' && pos >= shoe.length)) {
      shoe = shuffledShoe(live.decks, ++seed);
      pos = 0;
      rounds$.onNewShoe(++seq);
      return;
    }
    if (cue?.kind === 'card') {
      rounds$.onCard(parseCard(shoe[pos++] as string), ++seq);
      // The cut card, where the simulated shoe has it: the shoe ends after the round in play.
      if (pos === shoe.length - 16) rounds$.onCutCard(++seq);
      return;
    }
    if (cue?.kind === 'decision') {
      const station = config.stations.find((s) => rounds$.decisionFor(s.station) !== null)?.station;
      const d = station !== undefined ? rounds$.decisionFor(station) : null;
      if (!station || !d) throw new Error('a decision nobody can take');
      rounds$.decide(station, d.default);
      return;
    }
    if (v.phase === 'betting' && rounds$.betting(1).open && Object.keys(rounds$.betting(1).bets).length === 0) {
      for (const s of config.stations) rounds$.placeBet(s.station, live.bets[0] === 'main' ? 'main' : 'banker', 10_000);
    }
    clock.runOut(v.endsAt);
  };
  // Warm up (shoe-start burns, first rounds), then time.
  while (closed() < 5) step();
  const from = closed();
  const t0 = performance.now();
  while (closed() - from < rounds) step();
  const ms = performance.now() - t0;
  console.log(`ceiling, ${game}, 7 stations, manual clock: ${Math.round((rounds * 3_600_000) / ms)} rounds per hour (${rounds} rounds in ${ms.toFixed(0)} ms, ${(ms / rounds).toFixed(2)} ms a round; ${sent} snapshots built)`);
  rounds$.stop();
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
}

await cardToScreens();
for (const game of ['blackjack', 'baccarat', 'war'] as const) await ceiling(game, 300);
for (const game of ['blackjack', 'baccarat', 'war'] as const) await roundsPerHour(game, 150);
