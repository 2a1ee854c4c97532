// The harness of the kill-and-restart tests (kill-restart-<game>.test.ts), issue 7 §6. Not random points: the
// host child kills itself with SIGKILL right after the k-th journal entry of its first round
// (host/recovery/kill-switch.ts), for k = 1, 2, … until the round has no k-th entry. Each time a
// new host starts on the same data and must: verify the ledger, conserve the money, finish the
// round (settled, or voided by the recovery rules), credit no note twice, place no card twice, and
// take the screen of the killed run back (same token) with a fresh snapshot the renderer accepts.
//
// The first round is scripted (host/autoplay/round-script.ts: its cards, two stations' bets and
// decisions), so that it holds every kind of step of its game whatever the seed: blackjack an
// insurance offer taken and declined, a split, a double and a bet behind that follows them; war a
// tie, the war decision and its six burns; baccarat a third card to both sides. The kill points
// are checked to include each of those steps.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { accountFor } from '../../cli/soak/account.js';
import pino from 'pino';
import { HostChild, type HostStarted } from '../../cli/soak/child.js';
import type { RoundScript } from '../../host/autoplay/round-script.js';
import { hostOptionsFromArgs } from '../../host/launch-options.js';
import { KILL_SWITCH_RECORD, type KillSwitchRecord } from '../../host/recovery/kill-switch.js';
import { startHost } from '../../host/start-host.js';
import { ledgerFile, openExistingLedger, openLedgerReader, type EntryBody, type LedgerReader } from '../../ledger/index.js';
import type { ViewState } from '../../protocol/index.js';
import { HostClient } from '../../renderer/src/connection/host-client.js';
import { bundledChild } from '../children/bundle.js';

/** Waits on a predicate over the data dir's ledger (read-only, while the host writes it). */
async function until<T>(dataDir: string, probe: (reader: LedgerReader) => T | null, what: string, cancel?: { stopped: boolean }, limitMs = 60_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    if (cancel?.stopped) return new Promise<T>(() => undefined); // given up on: never settles, holds nothing
    let reader: LedgerReader | null = null;
    try {
      reader = openLedgerReader(ledgerFile(dataDir));
      const r = probe(reader);
      if (r !== null) return r;
    } catch {
      // not created yet
    } finally {
      reader?.close();
    }
    if (Date.now() - t0 > limitMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * The first round the host journalled: its id, entry types in order, whether it is closed, and a
 * label per entry naming the step (`round.decision:split`, `card.read:burn#2`, `bet.place`).
 */
function firstRound(reader: LedgerReader): { roundId: string; types: string[]; steps: string[]; closed: boolean; bets: string[]; late: string[] } | null {
  const first = reader.firstRound();
  if (!first) return null;
  const rows = first.entries;
  const types = rows.map((r) => r.type);
  const seen = new Map<string, number>();
  // The bets journalled at the close, as `station:bet:amount`, to compare with the script.
  const bets = rows
    .filter((r) => r.type === 'bet.place')
    .map((r) => (JSON.parse(r.body) as EntryBody).payload as { station: number; bets: { seat: number; bet: string; amount: number }[] })
    .slice(0, 2)
    .flatMap((b) => b.bets.map((l) => `${b.station}:${l.bet === 'behind' ? `behind:${l.seat}` : l.bet}:${l.amount}`));
  // Decisions the table took itself when a player's decision timer ran out (`auto`): a scripted
  // player too slow on a loaded machine, so the round is no longer the script's.
  const late: string[] = [];
  const steps = rows.map((r) => {
    const p = (JSON.parse(r.body) as EntryBody).payload as { action?: string; to?: string; auto?: boolean };
    if (r.type === 'round.decision' && p.auto) late.push(`round.decision:${p.action}`);
    if (r.type === 'round.decision') return `round.decision:${p.action}`;
    if (r.type !== 'card.read') return r.type;
    const to = (p.to ?? '').replace(/:hand:\d+$/, '');
    seen.set(to, (seen.get(to) ?? 0) + 1);
    return `card.read:${to}#${seen.get(to)}`;
  });
  return { roundId: first.roundId, types, steps, closed: types.includes('round.settle') || types.includes('round.void'), bets, late };
}

/**
 * Each game's scripted first round (two stations) and the steps its kill points must include.
 * Blackjack (Macau 2009, no hole card): seat 1 8♠ 8♦ and a bet behind it from station 2, seat 2
 * T♠ 7♣, the dealer's ace up: seat 1 insures, station 2 declines for its bet behind and its own
 * seat; seat 1 splits (the bet behind follows), doubles 8+3, stands 8+9; the dealer draws 9.
 */
export type KillTable = 'blackjack' | 'baccarat' | 'war' | 'blackjack-jackpot';
const GAME_OF: Record<KillTable, 'blackjack' | 'baccarat' | 'war'> = {
  blackjack: 'blackjack',
  baccarat: 'baccarat',
  war: 'war',
  'blackjack-jackpot': 'blackjack',
};
/** Host arguments beside the game's: Portugal's progressive jackpot under the example program. */
const EXTRA_OF: Partial<Record<KillTable, string[]>> = { 'blackjack-jackpot': ['--jackpot'] };

export const SCRIPTS: Record<KillTable, { script: RoundScript; steps: string[] }> = {
  blackjack: {
    script: {
      cards: ['8S', 'TS', 'AH', '8D', '7C', '3C', '9D', '9H', '9S'],
      stations: {
        1: { bets: { main: 10_000 }, decisions: ['insurance', 'split', 'double', 'stand'] },
        2: { bets: { main: 10_000, 'behind:1': 10_000 }, decisions: ['decline-insurance', 'decline-insurance', 'stand'] },
      },
    },
    steps: [
      'round.decision:insurance',
      'round.decision:decline-insurance',
      'round.decision:split',
      'round.decision:double',
      'round.decision:stand',
      'card.read:seat:1#4',
      'card.read:dealer#2',
    ],
  },
  // Seat 1 ties the croupier at 7 and goes to war (three burns, its card, three burns, the croupier's).
  war: {
    script: {
      cards: ['7S', 'KD', '7H', '2C', '3C', '4C', 'AS', '5C', '6C', '8C', '9D'],
      stations: { 1: { bets: { main: 10_000 }, decisions: ['war'] }, 2: { bets: { main: 10_000, tie: 10_000 }, decisions: [] } },
    },
    steps: ['round.decision:war', 'card.read:burn#1', 'card.read:burn#3', 'card.read:seat:1:war#1', 'card.read:burn#6', 'card.read:dealer#2'],
  },
  // Portugal with the progressive jackpot (rules 38–50): seat 1 A♠ K♠ (a suited Black Jack, an
  // award from the minor level), seat 2 9♦ 8♥ stands, the dealer 7♣ T♣. Both stations put the chip.
  'blackjack-jackpot': {
    script: {
      cards: ['AS', '9D', '7C', 'KS', '8H', 'TC'],
      stations: {
        1: { bets: { main: 10_000, jackpot: 100 }, decisions: [] },
        2: { bets: { main: 10_000, jackpot: 100 }, decisions: ['stand'] },
      },
    },
    steps: ['card.read:seat:1#2', 'round.decision:stand', 'card.read:dealer#2'],
  },
  // Player 2+3 = 5 draws a 4; banker 2+A = 3 draws against a third card of 4.
  baccarat: {
    script: {
      cards: ['2C', '2H', '3D', 'AS', '4C', '5H'],
      stations: { 1: { bets: { banker: 10_000 }, decisions: [] }, 2: { bets: { player: 10_000, tie: 10_000 }, decisions: [] } },
    },
    steps: ['card.read:player#3', 'card.read:banker#3'],
  },
};

/**
 * A station screen over a WebSocket to `origin` with `token`, through the renderer's own
 * HostClient, one per connection as the renderer makes them: its version starts unset, so a
 * restarted host's versions (from 1 again) are taken and drawn.
 */
async function stationScreen(origin: string, token: string) {
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/ws`, { origin });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const snapshots: { version: number; state: ViewState }[] = [];
  const errors: string[] = [];
  // The renderer's own protocol client, as renderer/src/main.ts makes one per connection.
  const client = new HostClient(
    {
      send: (t) => ws.send(t),
      onMessage: (h) => ws.on('message', (d) => h(d.toString())),
      onClose: (h) => ws.on('close', () => h()),
      close: () => ws.close(),
    },
    'station/1',
    { snapshot: (_v, version, state) => snapshots.push({ version, state }), error: (e) => errors.push(e.code), closed: () => undefined },
  );
  client.start(token);
  return { snapshots, errors, close: () => ws.close() };
}

const tokenOf = (started: HostStarted) => new URL(started.screens['station/1'] as string).searchParams.get('token') as string;

/**
 * Whether the round's close journalled the script's bets (both stations' once two entries are in),
 * and no decision so far was the timer's. On a loaded machine a simulated player can miss the
 * betting window or a decision's; that run is not the scripted round, says nothing about recovery,
 * and is run again.
 */
function scriptedBets(script: RoundScript, r: { types: string[]; bets: string[]; late: string[] }): boolean {
  if (r.late.length > 0) return false;
  const want = Object.entries(script.stations)
    .flatMap(([st, s]) => Object.entries(s.bets).map(([bet, amount]) => `${st}:${bet}:${amount}`))
    .sort();
  const closed = r.types.slice(0, 2).filter((t) => t === 'bet.place').length;
  if (closed < 2) return r.bets.every((b) => want.includes(b));
  return JSON.stringify([...r.bets].sort()) === JSON.stringify(want);
}

/**
 * The round's entries the kill landed after, read from what the kill switch wrote as it fired
 * (host/recovery/kill-switch.ts: the round entries of each durable transaction, from the appends
 * themselves). The kill comes right after the transaction that wrote entry k, so: that transaction
 * holds entry k, and the journal's round ends with it (nothing written after the kill point, and
 * nothing of it lost). Which entries share a transaction depends on timing (two stations'
 * decisions in one group commit or two), so the harness reads it rather than expects it.
 */
function killedTransaction(dataDir: string, k: number, atKill: { roundId: string; steps: string[] }): string[] {
  const record = JSON.parse(readFileSync(path.join(dataDir, KILL_SWITCH_RECORD), 'utf8')) as KillSwitchRecord;
  assert.equal(record.afterRoundEntry, k, 'the kill switch fired for this run');
  assert.equal(record.roundId, atKill.roundId, 'the kill switch counted the round the journal holds first');
  const written = record.transactions.reduce((a, b) => a + b, 0);
  const last = record.transactions.at(-1) ?? 0;
  assert.ok(written - last < k && k <= written, `entry ${k} is in the transaction the kill came after (transactions ${record.transactions.join(',')})`);
  assert.equal(
    atKill.steps.length,
    written,
    `the journal holds the round's entries up to the kill, no more, no fewer (killed after entry ${k}, transactions ${record.transactions.join(',')}): ${atKill.steps.join(' ')}`,
  );
  return atKill.steps.slice(written - last);
}

export async function killAtEveryStep(table: KillTable, seed: number) {
  const steps: { k: number; killedAfter: string; killedTransaction: string[]; outcome: string }[] = [];
  let reruns = 0;
  let rerunAt = 0;
  const { script, steps: required } = SCRIPTS[table];
  const game = GAME_OF[table];
  const extra = EXTRA_OF[table] ?? [];
  const scriptDir = mkdtempSync(path.join(os.tmpdir(), `kill-${game}-script-`));
  const scriptFile = path.join(scriptDir, 'round.json');
  writeFileSync(scriptFile, JSON.stringify(script));
  // One child start per step: `etg` bundled once starts each in about half the CPU of tsx (docs/testing.md).
  const etg = await bundledChild('tests/children/etg-entry.ts');
  // k jumps past the entries written in one transaction with the k-th (the close with every
  // station's bets, a decision with its raises): killing after any of them is the same kill.
  for (let k = 1; k <= 60;) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `kill-${game}-${k}-`));
    let next: number;
    try {
      const a = new HostChild({
        etg,
        dataDir,
        game,
        stations: 2,
        seed,
        extra: [`--test-kill-after-round-entry=${k}`, `--test-script=${scriptFile}`, ...extra],
      });
      const startedA = await a.started;
      assert.ok(startedA, `the host started: ${a.errors()}`);
      const screenA = await stationScreen(startedA.origin, tokenOf(startedA));
      // Either the kill switch fires, or the first round closes with fewer than k entries: every step is done.
      const cancel = { stopped: false };
      const short = until(
        dataDir,
        (db) => {
          const r = firstRound(db);
          return r && r.closed && r.types.length < k ? r : null;
        },
        'the first round',
        cancel,
      );
      const ended = await Promise.race([a.exited.then((e) => ({ killed: e })), short.then((r) => ({ short: r }))]);
      cancel.stopped = true;
      const unscripted =
        'short' in ended ? !scriptedBets(script, ended.short) : !scriptedBets(script, await until(dataDir, firstRound, 'the round at the kill'));
      if (unscripted) {
        // A player missed the scripted window or a decision's timer: not the round under test. Run this k again.
        await a.kill('SIGKILL');
        screenA.close();
        reruns = rerunAt === k ? reruns + 1 : 1;
        rerunAt = k;
        assert.ok(reruns <= 3, `the scripted round was not played whole ${reruns} times in a row at kill point ${k}`);
        next = k;
        continue;
      }
      if ('short' in ended) {
        await a.kill('SIGKILL');
        screenA.close();
        break;
      }
      assert.equal(ended.killed.signal, 'SIGKILL', `run ${k}: the host died by its kill switch`);
      assert.ok(screenA.snapshots.length > 0, 'the screen was live before the kill');
      const atKill = await until(dataDir, firstRound, 'the round at the kill');
      const killed = killedTransaction(dataDir, k, atKill);
      next = atKill.types.length + 1;
      // The scripted round is whole: both stations' bets journalled at the close, before any card.
      assert.deepEqual(atKill.types.slice(0, Math.min(2, atKill.types.length)), ['bet.place', 'bet.place'].slice(0, Math.min(2, atKill.types.length)));

      // The restart runs in this process (same options as the child's command line): no second
      // interpreter start per step, which keeps these tests within their time.
      const b = await startHost({
        dataDir,
        rendererDir: path.join(dataDir, 'none'),
        logger: pino({ level: 'silent' }),
        ...hostOptionsFromArgs({
          game,
          stations: '2',
          seed: String(seed + 1),
          autoplay: true,
          'test-timing': true,
          ...(extra.length ? { jackpot: true } : {}),
        }),
      });
      const startedB = { origin: b.origin };
      // The screen of the killed run reconnects to the same address with its own token and resynchronises.
      assert.equal(startedB.origin, startedA.origin, 'the restarted host serves on the port of the killed one');
      const screenB = await stationScreen(startedB.origin, tokenOf(startedA));
      const resumed = await until(
        dataDir,
        (db) => {
          const r = firstRound(db);
          return r?.closed ? r : null;
        },
        'the interrupted round to close',
      );
      await until(dataDir, () => (screenB.snapshots.length > 0 ? true : null), 'a snapshot after the restart');
      await b.close();
      screenA.close();
      screenB.close();
      assert.deepEqual(screenB.errors, [], 'the old token is taken back after the kill');
      const snap = screenB.snapshots[0];
      assert.ok(snap && snap.state.kind === 'station' && snap.state.station === 1, 'a station snapshot arrived');
      // No bound on the restarted host's versions: it counts a view's changes since its own start, so
      // the first one a screen sees says how far the resumed round got before the screen connected
      // (timing, not recovery). What recovery owes the screen is above: the old token taken back and
      // a station snapshot the renderer's own client took, with no error.

      const ledger = openExistingLedger(dataDir);
      try {
        const money = accountFor(ledger);
        assert.equal(money.ledgerVerified, true, `ledger verifies: ${money.problems.join('; ')}`);
        assert.equal(money.conserved, true, 'credits in = on meters + cashed out + house result + in play');
        // The progressive: each pool is what its journalled movements leave, one settlement per round with chips.
        assert.equal(money.jackpot.conserved, true, `jackpot: ${money.jackpot.problems.join('; ')}`);
        const record = ledger.rounds.record(resumed.roundId);
        assert.ok(record, 'the interrupted round is closed');
        const cardEntries = resumed.types.filter((t) => t === 'card.read').length;
        assert.equal(record.cards.length, cardEntries, 'every journalled card is in the record once, none placed twice');
        if (record.status === 'void') assert.ok(record.authorisedBy?.includes('host-recovery') || record.reason, 'a void names its reason');
        const escrows = new Map<number, number>();
        for (const e of ledger.entries(1)) {
          if (e.type !== 'bill.credit' && e.type !== 'bill.return') continue;
          const seq = (JSON.parse(e.body) as EntryBody).payload.escrowSeq as number | undefined;
          if (seq !== undefined) escrows.set(seq, (escrows.get(seq) ?? 0) + 1);
        }
        assert.ok(
          [...escrows.values()].every((n) => n === 1),
          'no note in escrow resolved (credited) twice',
        );
        steps.push({ k, killedAfter: atKill.steps.at(-1) ?? '', killedTransaction: killed, outcome: record.status });
      } finally {
        ledger.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    k = next;
  }
  rmSync(scriptDir, { recursive: true, force: true });
  // Every step the script was written to reach was a kill point, and the round went on after it.
  // A step written in one transaction with the next (a group commit of two stations' decisions, a
  // card with the settlement it completes) has no durable state of its own to be killed in: the
  // kill after that transaction is its kill point, and counts. A step in no killed transaction was
  // never journalled at all: the script no longer reaches it, which fails here, naming it.
  const killedIn = steps.flatMap((s) => s.killedTransaction);
  const missing = required.filter((step) => !killedIn.includes(step));
  assert.deepEqual(
    missing,
    [],
    `required kill points never journalled by the scripted round (its transactions at each kill: ${steps.map((s) => `[${s.killedTransaction.join(' ')}]`).join(' ')})`,
  );
  assert.ok(
    steps.some((s) => s.killedAfter.startsWith('card.read') && s.outcome === 'settled'),
    'a round killed mid-deal went on to its settlement',
  );
  assert.equal(steps.at(-1)?.killedAfter, 'round.settle', 'the last kill point is the settlement');
  return steps;
}
