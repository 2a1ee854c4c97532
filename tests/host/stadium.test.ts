// A stadium: 250 remote stations on one live baccarat table, each over its own TLS connection
// with its own credential, credited through its device link, betting at random within the
// limits for 20 coups. Halfway, every station's connection drops at once and all 250 reconnect
// at once (a reconnect storm): the table keeps dealing and every station resynchronises. Money
// is conserved, the ledger verifies, each station's credit is the ledger's, and no station is
// ever sent another station's data.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pino from 'pino';
import { accountFor } from '../../cli/soak/account.js';
import { Rng } from '../../engine/random/seeded-rng.js';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { DeviceClient } from '../../host/station-agent/device-client.js';
import { HeadlessStation } from '../../host/station-agent/headless-station.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import { REMOTE_STATION_BASE, type HostMessage, type StationState } from '../../protocol/index.js';

const STATIONS = 250;
const COUPS = 20;

describe('a stadium of 250 remote stations', { timeout: 600_000 }, () => {
  let dataDir: string;
  let running: RunningHost;
  before(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'stadium-'));
    // Every station connects from 127.0.0.1 here; on the floor each is a machine of its own, under the per-address cap.
    const lanCaps = { perAddress: 2 * STATIONS + 64, total: 2 * STATIONS + 64 };
    const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: STATIONS, connections: { lan: lanCaps } });
    running = await startHost({
      dataDir,
      rendererDir: path.join(dataDir, 'no-renderer'),
      config,
      logger: pino({ level: 'silent' }),
      seed: 11,
      simulatedDealer: { dealMs: 5 },
      timings: { bettingMs: 3000, decisionMs: 1000, resultsMs: 100 },
    });
  });
  after(async () => {
    await running?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('plays 20 coups through a reconnect storm of all 250: money conserved, ledger verified, each station its own view only', async () => {
    const numbers = Array.from({ length: STATIONS }, (_, i) => REMOTE_STATION_BASE + 1 + i);
    const enrolments = new Map<number, EnrolmentFile>(numbers.map((n) => [n, running.stadium.enrol(n, ['Ana Lei (1001)', 'Rui Sá (1002)'])]));
    const first = enrolments.get(numbers[0] as number) as EnrolmentFile;
    const agent = pinnedAgent(first);

    // A note of 1,000 MOP at every station, through its device link: escrow journalled, then the
    // credit. Twenty-five links at a time: each note is four durable commits, and a shared
    // two-core machine takes a few milliseconds for each.
    // The links stay up, as a station agent's does: a link that drops is the station's acceptor lost (a fault).
    const devices: DeviceClient[] = [];
    await inBatches(numbers, 25, async (n) => {
      const device = new DeviceClient(enrolments.get(n) as EnrolmentFile, agent);
      const welcome = await device.ready();
      assert.equal(welcome.pendingNote, null);
      const r = await device.insert(`note-${n}`, 1000, 'MOP');
      assert.deepEqual([r.decision, r.credited], ['stack', true]);
      // The credit sent again (a cut before the answer arrived: the relay resends the same message): journalled once.
      const again = await device.credit({ escrowId: `note-${n}`, amount: 100_000, denomination: 1000, currency: 'MOP' }, { id: r.creditId ?? '' });
      assert.equal(again.type, 'journalled');
      devices.push(device);
    });
    for (const n of numbers) assert.equal(running.ledger.credit(n), 100_000, `station ${n} credited once`);

    const leaks: string[] = [];
    const refusals = new Map<string, number>();
    const rng = Rng.fromSeed(42);
    const snapshots: number[] = numbers.map(() => 0);
    const recalls: number[] = numbers.map(() => 0);
    // Each station's bets of the round not yet answered (acknowledged or refused), by message id.
    const unanswered: Set<string>[] = numbers.map(() => new Set());
    // The round each station last bet on: its bets are in once none of them is unanswered.
    const betOn: string[] = numbers.map(() => '');
    const stations = numbers.map((n, i) => {
      const betRound = { id: '' };
      const mine = (m: HostMessage) => {
        if ((m.type === 'ack' || m.type === 'error') && m.ref !== undefined) unanswered[i]?.delete(m.ref);
        if ((m.type === 'snapshot' || m.type === 'patch') && m.view !== `station/${n}`) leaks.push(`station ${n} was sent ${m.view}`);
        if (m.type === 'snapshot') {
          // Whole: on subscribing (and after the storm's reconnect), then only when a patch would be bigger.
          snapshots[i] = (snapshots[i] ?? 0) + 1;
          if (m.state.kind !== 'station' || m.state.station !== n) leaks.push(`station ${n} was sent another view's state`);
        }
        // The recall, asked for by the stations whose player has it open: its own rounds only, on the stadium box.
        if (m.type === 'recall') {
          recalls[i] = (recalls[i] ?? 0) + 1;
          if (m.view !== `station/${n}`) leaks.push(`station ${n} was sent ${m.view}'s recall`);
          if (m.rounds.some((r) => r.bets.some((b) => b.seat !== 0))) leaks.push(`station ${n} recalls a seat's bet`);
        }
        if (m.type === 'public' && m.part === 'round' && m.state?.results?.some((l) => l.seat === 0)) leaks.push(`a remote station's line in the public round`);
        if (m.type === 'error' && m.refusal) refusals.set(m.refusal, (refusals.get(m.refusal) ?? 0) + 1);
      };
      const s: HeadlessStation = new HeadlessStation(enrolments.get(n) as EnrolmentFile, agent, {
        message: mine,
        view: (state) => {
          // What the station shows, its patches applied: its own part only, and no remote station's line in the public round.
          if (state.kind !== 'station' || state.station !== n) leaks.push(`station ${n} shows another view`);
          else if (state.recall?.some((r) => r.bets.some((b) => b.seat !== 0))) leaks.push(`station ${n} recalls a seat's bet`);
          if (state.kind === 'station' && state.round?.results?.some((l) => l.seat === 0)) leaks.push(`a remote station's line in the public round`);
          if (state.kind !== 'station' || !state.betting.open || !state.round || betRound.id === state.round.roundId) return;
          betRound.id = state.round.roundId;
          unanswered[i] = new Set(bet(s, state, rng));
          betOn[i] = state.round.roundId;
        },
      });
      return s;
    });
    // One station in ten has its recall panel open throughout: it is sent its recall, the others never.
    stations.forEach((s, i) => i % 10 === 0 && s.wantRecall(true));
    await inBatches(stations, 25, (s) => s.connect());

    const settled = () => running.ledger.rounds.recall({ tableId: running.table.state.params.tableId, limit: 500 }).filter((r) => r.status === 'settled');
    const deadline = Date.now() + 480_000;
    let storm: Awaited<ReturnType<typeof reconnectStorm>> | null = null;
    // The betting window (3 s) ends as soon as every station's bets of the round are answered, as
    // a croupier closes it once the bets are down; a station still betting (or cut in the storm)
    // has the whole window. Every bet a station sends is still answered before the window ends.
    let windowsEnded = 0;
    const closer = setInterval(() => {
      const round = running.table.state.phase === 'betting' ? running.table.state.roundId : undefined;
      if (round && betOn.every((r, i) => r === round && unanswered[i]?.size === 0) && running.table.countdowns.end('betting')) windowsEnded++;
    }, 20);
    try {
      while (settled().length < COUPS) {
        assert.ok(Date.now() < deadline, `only ${settled().length} coups settled in time`);
        if (!storm && settled().length >= COUPS / 2) storm = await reconnectStorm(stations, running, (i) => snapshots[i] ?? 0);
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      clearInterval(closer);
    }
    assert.ok(storm, 'the storm happened');
    // The table did not wait for the storm: coups went on settling after it, up to the 20th.
    assert.ok(settled().length > storm.settledBefore, 'coups settled after the storm');
    console.log(
      `reconnect storm: ${STATIONS} stations back with their views in ${storm.ms} ms; meanwhile the table journalled ${storm.entries} entries, ` +
        `its event loop's longest delay ${storm.maxDelayMs.toFixed(0)} ms (this process runs the 250 clients too); ${storm.settledBefore} coups settled before it; ` +
        `${windowsEnded} of ${COUPS} betting windows ended once every bet was answered`,
    );
    // The stations' own views catch up with the last settlement: each one's credit is the ledger's.
    const waitUntil = Date.now() + 30_000;
    for (;;) {
      const behind = stations.filter((s) => {
        const v = s.latest() as StationState | null;
        const n = Number(s.view.slice('station/'.length));
        return !v || v.betting.bets.length > 0 || v.credit !== running.ledger.credit(n);
      });
      if (behind.length === 0 || running.table.state.phase !== 'results') break;
      assert.ok(Date.now() < waitUntil, `${behind.length} stations' views do not show the ledger's credit`);
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const s of stations) s.close();
    for (const d of devices) d.close();

    assert.deepEqual(leaks, []);
    // The recall went to the screens that showed it (several times: a round settled while open), and to no other.
    assert.ok(
      recalls.every((c, i) => (i % 10 === 0 ? c > 1 : c === 0)),
      `recalls sent: ${JSON.stringify(recalls.filter((_, i) => i % 10 === 0))}`,
    );
    const rounds = settled();
    const played = new Set(rounds.flatMap((r) => r.lines.map((l) => l.station)));
    assert.ok(played.size > STATIONS * 0.9, `most stations played (${played.size})`);
    assert.ok(
      rounds.every((r) => r.lines.every((l) => l.seat === 0 && l.station > REMOTE_STATION_BASE)),
      'every line is a remote station on the stadium box',
    );
    const account = accountFor(running.ledger);
    assert.equal(account.ledgerVerified, true, account.problems.join('; '));
    assert.equal(account.conserved, true, JSON.stringify(account));
    assert.equal(account.creditsIn, STATIONS * 100_000);
    assert.ok(account.wagered > 0);
    assert.deepEqual(
      [...refusals.keys()].filter((k) => k !== 'betting-closed' && k !== 'over-credit'),
      [],
      `refusals other than a late bet: ${JSON.stringify([...refusals])}`,
    );
  });
});

/** One or two bets at random, each the spot's minimum times 1–3, within the station's credit: the commands' ids. */
function bet(s: HeadlessStation, state: StationState, rng: Rng): string[] {
  const sent: string[] = [];
  let credit = state.credit;
  const spots = state.betting.spots.flatMap((x) => (x.bet !== 'behind' ? [x] : []));
  const count = 1 + rng.below(2);
  for (let i = 0; i < count && spots.length > 0; i++) {
    const spot = spots.splice(rng.below(spots.length), 1)[0];
    if (!spot) continue;
    const amount = spot.min * (1 + rng.below(3));
    if (amount > credit || amount > spot.max) continue;
    credit -= amount;
    sent.push(s.command({ name: 'place-bet', spot: { bet: spot.bet }, amount }));
  }
  return sent;
}

/**
 * Drops every station's connection at once (as a switch restarting would), then reconnects all of
 * them at once, each retrying a failed handshake with backoff and jitter as a station's screen
 * does. Resolves when every one is connected again and has its own view back.
 */
async function reconnectStorm(stations: readonly HeadlessStation[], running: RunningHost, snapshotsOf: (i: number) => number) {
  const settledBefore = running.ledger.rounds.recall({ tableId: running.table.state.params.tableId, limit: 500 }).filter((r) => r.status === 'settled').length;
  const headBefore = running.ledger.headOf().seq;
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const t0 = Date.now();
  for (const s of stations) s.terminate();
  const before = stations.map((_, i) => snapshotsOf(i));
  await Promise.all(
    stations.map(async (s, i) => {
      for (let attempt = 0; ; attempt++) {
        try {
          await s.connect();
          return;
        } catch (e) {
          assert.ok(attempt < 8, `station ${i} could not reconnect: ${String(e)}`);
          await new Promise((r) => setTimeout(r, Math.min(5000, 200 * 2 ** attempt) * (0.5 + Math.random())));
        }
      }
    }),
  );
  // Each one is sent a snapshot of its own view again on its new connection.
  const until = Date.now() + 60_000;
  while (stations.some((_, i) => snapshotsOf(i) <= (before[i] ?? 0))) {
    assert.ok(Date.now() < until, 'every station resynchronised after the storm');
    await new Promise((r) => setTimeout(r, 50));
  }
  delay.disable();
  return { settledBefore, entries: running.ledger.headOf().seq - headBefore, maxDelayMs: delay.max / 1e6, ms: Date.now() - t0 };
}

async function inBatches<T>(xs: readonly T[], size: number, run: (x: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < xs.length; i += size) {
    await Promise.all(xs.slice(i, i + size).map(run));
  }
}
