// Table host figures, each beside a baseline measured in the same run:
// - a card read → the new state received by all 8 screens (table + 7 stations) over real
//   WebSockets on loopback, p50/p99 over 1,000 reads with simulated players, beside a bare `ws`
//   broadcast of a message the size of those snapshots to 8 clients, and their ratio;
// - the ceiling: rounds per hour of the table's state machine, its ledger (synchronous=FULL) and
//   the view hub with a clock that runs only when told, and how many views the hub built per round
//   beside what "every view at every change" would have built;
// - rounds per hour with simulated players and instant dealing, where the timers set the figure.
// Prints figures only; nothing here asserts a timing.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { parseCard } from '../engine/cards/card.js';
import { shuffledShoe } from '../hardware/shoe/simulator.js';
import { simulatedTableConfig } from '../host/config/table-config.js';
import { tableParams } from '../host/config/table-params.js';
import { ViewHub } from '../host/screens/view-hub.js';
import type { Update } from '../host/screens/outbox.js';
import { startHost } from '../host/start-host.js';
import { openTable } from '../host/table/start-table.js';
import { openTableGame } from '../host/table/table-game.js';
import { manualTimers } from '../host/testing/manual-timers.js';
import { openLedger } from '../ledger/index.js';
import { PROTOCOL_VERSION, type ViewName } from '../protocol/index.js';
import { figure, QUICK, times } from './report.js';

const READS = QUICK ? 100 : 1000;
const GAMES = QUICK ? (['blackjack'] as const) : (['blackjack', 'baccarat', 'war'] as const);
const silent = pino({ level: 'silent' });
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
};
const ms = (x: number) => x.toFixed(2);

/** A WebSocket client that records when each snapshot arrives, and its size. */
async function client(url: string, onSnapshot: (bytes: number) => void, hello?: { token: string; view: ViewName }): Promise<WebSocket> {
  const ws = new WebSocket(url);
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  // A station's screen has a card once the public round part arrives (protocol 2 sends the round
  // apart from each station's own part, which a card leaves unchanged); the table display's
  // snapshot holds it. Counting snapshots only, every read waited for stations that never got one.
  // Since protocol 4 either may come as a patch, since protocol 6 the tuple `[target, version, ops]`.
  ws.on('message', (d: Buffer) => {
    const head = d.subarray(0, 20).toString();
    if (!hello || head.startsWith('{"type":"snapshot"') || head.startsWith('{"type":"public') || head.startsWith('[')) onSnapshot(d.length);
  });
  if (hello) {
    ws.send(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: hello.token }));
    ws.send(JSON.stringify({ type: 'subscribe', id: 's', view: hello.view }));
  }
  return ws;
}

async function cardToScreens(): Promise<{ p50: number; p99: number; bytes: number }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-host-'));
  const config = simulatedTableConfig('blackjack');
  const running = await startHost({
    dataDir: dir,
    rendererDir: path.join(dir, 'none'),
    logger: silent,
    config,
    seed: 7,
    autoplay: true,
    timings: { bettingMs: 60, decisionMs: 200, resultsMs: 5 },
    simulatedDealer: false,
  });
  // One WebSocket per screen, as the table display and the seven stations would have.
  const views: ViewName[] = ['table', ...config.stations.map((s) => `station/${s.station}` as const)];
  const lastAt = new Map<ViewName, number>();
  const sizes: number[] = [];
  const sockets = await Promise.all(
    views.map((view) =>
      client(
        `${running.origin.replace('http', 'ws')}/ws`,
        (bytes) => {
          lastAt.set(view, performance.now());
          sizes.push(bytes);
        },
        { token: running.screens.urls.find((s) => s.view === view)?.token ?? '', view },
      ),
    ),
  );
  // When the engine was handed each card (the shoe driver's read, after the simulated wire).
  let handed = 0;
  const onCard = running.table.shoe.onCard.bind(running.table.shoe);
  running.table.shoe.onCard = (card, sequence) => {
    handed = performance.now();
    onCard(card, sequence);
  };
  const sim = running.devices.shoe.simulator();
  if (!sim) throw new Error('the bench needs the simulated shoe');
  const fromEngine: number[] = [];
  let missed = 0;
  while (fromEngine.length < READS) {
    const cue = running.table.reads.cue();
    if (cue?.kind === 'shuffle') {
      sim.loadShoe();
      await sleep(20);
      continue;
    }
    if (cue?.kind !== 'card' || !running.devices.shoe.gateOpen()) {
      await sleep(1);
      continue;
    }
    const before = running.devices.shoe.cardsHandled;
    if (sim.drawCard() === null) {
      sim.loadShoe();
      await sleep(20);
      continue;
    }
    const t0 = performance.now();
    while ((running.devices.shoe.cardsHandled === before || views.some((v) => (lastAt.get(v) ?? 0) < handed)) && performance.now() - t0 < 2000)
      await new Promise((r) => setImmediate(r));
    if (views.some((v) => (lastAt.get(v) ?? 0) < handed)) {
      // A read some screen never heard of within 2 s: skipped, but not for ever (a bench that
      // counts the wrong messages would otherwise spin without end, as this one once did).
      if (++missed > READS / 10) throw new Error(`${missed} card reads not seen by all 8 screens within 2 s`);
      continue;
    }
    fromEngine.push(Math.max(...views.map((v) => lastAt.get(v) ?? 0)) - handed);
  }
  for (const ws of sockets) ws.close();
  await running.close();
  rmSync(dir, { recursive: true, force: true });
  const bytes = Math.round(sizes.reduce((a, b) => a + b, 0) / Math.max(1, sizes.length));
  return { p50: q(fromEngine, 0.5), p99: q(fromEngine, 0.99), bytes };
}

/** The baseline: a bare `ws` server broadcasting a message of `bytes` to 8 clients on loopback, until the last has it. */
async function bareBroadcast(bytes: number): Promise<{ p50: number; p99: number }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => server.once('listening', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let got = 0;
  let done: (() => void) | null = null;
  const clients = await Promise.all(
    Array.from({ length: 8 }, () =>
      client(`ws://127.0.0.1:${port}`, () => {
        if (++got === 8) done?.();
      }),
    ),
  );
  while (server.clients.size < 8) await sleep(5);
  const message = JSON.stringify({ type: 'snapshot', pad: 'x'.repeat(Math.max(0, bytes - 30)) });
  const times: number[] = [];
  for (let i = 0; i < READS; i++) {
    got = 0;
    const arrived = new Promise<void>((r) => (done = r));
    const t0 = performance.now();
    for (const c of server.clients) c.send(message);
    await arrived;
    times.push(performance.now() - t0);
  }
  for (const c of clients) c.close();
  await new Promise((r) => server.close(r));
  return { p50: q(times, 0.5), p99: q(times, 0.99) };
}

async function roundsPerHour(game: 'blackjack' | 'baccarat' | 'war', rounds: number): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-rph-'));
  const timings = { bettingMs: 30, decisionMs: 100, resultsMs: 0 };
  const running = await startHost({
    dataDir: dir,
    rendererDir: path.join(dir, 'none'),
    logger: silent,
    config: simulatedTableConfig(game),
    seed: 3,
    autoplay: true,
    timings,
    simulatedDealer: { dealMs: 0 },
  });
  let closed = 0;
  let last = '';
  running.table.onChange(() => {
    const v = running.table.reads.view();
    if (v.phase === 'results' && v.roundId !== last) {
      last = v.roundId;
      closed++;
    }
  });
  // Let the players' first notes arrive and the shoe-start burns pass before timing.
  while (closed < 3) await sleep(20);
  const from = closed;
  const t0 = performance.now();
  while (closed - from < rounds) await sleep(20);
  const hours = (performance.now() - t0) / 3_600_000;
  console.log(
    `rounds per hour, ${game}, 7 simulated players, instant dealing, betting window ${timings.bettingMs} ms (the timers set this): ${Math.round(rounds / hours)} (${rounds} rounds)`,
  );
  figure({
    name: `rounds per hour, ${game}, 7 simulated players, instant dealing, ${timings.bettingMs} ms betting window`,
    unit: 'rounds/h',
    value: rounds / hours,
    better: 'higher',
    baseline: null,
    note: "no bare counterpart: the betting, decision and results timers and the players' round trips set it, not the code",
  });
  await running.close();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The ceiling: the table's state machine and runtime, the engine, the ledger (synchronous=FULL)
 * and the view hub building every changed view (8 views, each snapshot encoded as a session
 * would send it), driven with a manual clock: 7 stations bet at once, every countdown is run out
 * at once, each card comes from a seeded shoe as soon as it is asked for, each decision is the
 * stated default at once.
 */
async function ceiling(game: 'blackjack' | 'baccarat' | 'war', rounds: number): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-ceiling-'));
  const config = simulatedTableConfig(game);
  const ledger = openLedger(dir, config.tableId);
  const clock = manualTimers();
  const opened = openTableGame(config, (g) => openTable(g, { ledger, log: silent, timers: clock.timers, params: tableParams(config) }));
  const table = opened.table;
  const hub = new ViewHub(config, 'bench', table, ledger);
  const views = hub.views().filter((v) => v !== 'service');
  // A screen subscribed to every view, as the table display's and the seven stations' sessions
  // are: the hub builds only views someone watches (a view nobody shows is only marked stale), so
  // without these it built nothing and the figure read 0.0. Each message's bytes are taken as a
  // socket would take them: a station's as the patch from the version before where there is one
  // (protocol 4: the screen holds that version), else whole.
  let delivered = 0;
  const sink = {
    deliver: (_slot: string, update: Update) => {
      delivered += (update.patch ?? update.whole()).bytes.byteLength > 0 ? 1 : 0;
    },
  };
  for (const view of views) hub.subscribe(view, `bench-${view}`, sink);
  for (const s of config.stations)
    ledger.append({
      type: 'bill.credit',
      payload: { station: s.station, device: `BA-${s.station}`, denomination: 1_000_000_000, currency: 'MOP' },
      txId: `ceiling-${s.station}`,
    });
  opened.resume({ newShoe: false, params: tableParams(config) });
  let shoe = shuffledShoe(table.game.decks, 1);
  let pos = 0;
  let seq = 0;
  let seed = 1;
  let closedRounds = 0;
  let lastClosed = '';
  table.onChange(() => {
    const v = table.reads.view();
    if (v.phase === 'results' && v.roundId !== lastClosed) {
      lastClosed = v.roundId;
      closedRounds++;
    }
  });
  const bet = table.game.rules.bets[0] ?? 'main';
  const step = (): void => {
    const v = table.reads.view();
    if (v.hold) throw new Error(`held: ${v.hold}`);
    const cue = table.reads.cue();
    if (cue?.kind === 'shuffle' || (cue?.kind === 'card' && pos >= shoe.length)) {
      shoe = shuffledShoe(table.game.decks, ++seed);
      pos = 0;
      table.shoe.onNewShoe(++seq);
      return;
    }
    if (cue?.kind === 'card') {
      table.shoe.onCard(parseCard(shoe[pos++] ?? ''), ++seq);
      // The cut card, where the simulated shoe has it: the shoe ends after the round in play.
      if (pos === shoe.length - 16) table.shoe.onCutCard(++seq);
      return;
    }
    if (cue?.kind === 'decision') {
      const station = config.stations.find((s) => table.reads.station(s.station).decision !== null)?.station;
      const d = station !== undefined ? table.reads.station(station).decision : null;
      if (station === undefined || !d) throw new Error('a decision nobody can take');
      table.commands.decide(station, d.default);
      return;
    }
    if (v.phase === 'betting' && table.reads.station(1).betting.open && table.reads.station(1).betting.bets.length === 0) {
      for (const s of config.stations) table.commands.placeBet(s.station, { bet }, 10_000);
    }
    clock.runOut(v.endsAt);
  };
  // Warm up (shoe-start burns, first rounds), then time.
  while (closedRounds < 5) step();
  const from = closedRounds;
  const before = { ...hub.counters };
  const t0 = performance.now();
  while (closedRounds - from < rounds) step();
  const elapsed = performance.now() - t0;
  const changes = hub.counters.changes - before.changes;
  const built = hub.counters.built - before.built;
  const encoded = hub.counters.encoded - before.encoded;
  const everyView = changes * views.length;
  console.log(
    `ceiling, ${game}, 7 stations, manual clock: ${Math.round((rounds * 3_600_000) / elapsed)} rounds per hour (${rounds} rounds in ${elapsed.toFixed(0)} ms, ${(elapsed / rounds).toFixed(2)} ms a round)`,
  );
  figure({
    name: `ceiling, ${game}, 7 stations, manual clock`,
    unit: 'ms/round',
    value: elapsed / rounds,
    better: 'lower',
    baseline: null,
    note: 'no bare counterpart: a round is the engine, a durable ledger transaction per input and the 8 views; its parts have their own baselines (ledger, view push)',
  });
  const builtRecord = figure({
    name: `views built per round, ${game}, 8 screens subscribed`,
    unit: 'views/round',
    value: built / rounds,
    better: 'lower',
    baseline: { name: `every view rebuilt at every change (${views.length} views × changes)`, value: everyView / rounds },
  });
  console.log(
    `  views built per round: ${(built / rounds).toFixed(1)}, beside ${(everyView / rounds).toFixed(1)} if every view were rebuilt at every change ` +
      `(${views.length} views × ${(changes / rounds).toFixed(1)} changes): ratio ${times(builtRecord)}; ` +
      `${(encoded / rounds).toFixed(1)} snapshots encoded and ${(delivered / rounds).toFixed(1)} messages delivered to the 8 screens per round`,
  );
  table.stop();
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
}

const host = await cardToScreens();
const bare = await bareBroadcast(host.bytes);
console.log(`card read → state received by 8 screens over WebSocket, ${READS} reads (blackjack, 7 stations, snapshots ${host.bytes} bytes on average):`);
console.log(`  the table host: p50 ${ms(host.p50)} ms, p99 ${ms(host.p99)} ms`);
console.log(`  a bare ws broadcast of ${host.bytes} bytes to 8 clients: p50 ${ms(bare.p50)} ms, p99 ${ms(bare.p99)} ms`);
const push = (label: 'p50' | 'p99') =>
  figure({
    name: `view push: card read → state received by 8 screens over WebSocket, ${label}`,
    unit: 'ms',
    value: host[label],
    better: 'lower',
    baseline: { name: `bare ws broadcast of ${host.bytes} bytes to 8 clients, ${label}`, value: bare[label] },
  });
console.log(`  ratio, host / bare: p50 ${times(push('p50'))}, p99 ${times(push('p99'))}`);
for (const game of GAMES) await ceiling(game, QUICK ? 30 : 300);
for (const game of GAMES) await roundsPerHour(game, QUICK ? 15 : 150);
