// Issue 34's first done-when: "a station follows three live tables of three games and bets on each
// from one credit". Three table hosts, each its own ledger, LAN listener, simulated shoe and
// dealer (baccarat bac-1, the station's home; blackjack bj-1; war war-1), enrolled with each
// other as one floor; one station agent (startStationAgent) joined to all three as remote station
// 101, its simulated bill acceptor relayed to its home. The test speaks to the agent's screen
// relay as the station's browser does (`/ws/N` with the local launch token; the agent presents the
// station's credential at each table). Notes go in at home only; the station bets at home, moves
// credit to blackjack and bets behind a seated player there (a remote station's only bet at
// blackjack, Macau Art. 20), moves credit to war and bets there, each bet settled by that table's
// own round, then leaves both tables (their credit comes home). At the end the three ledgers, the
// transfers between them and the station's meter agree to the minor unit. The browser test
// (tests/browser/several-tables.spec.ts) draws the same screens in three languages; it bets at
// the home table only.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import WebSocket from 'ws';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { enrolFloor } from '../../host/peers/enrol-floor.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { startStationAgent, type RunningAgent } from '../../host/station-agent/agent.js';
import { LedgerTransferJournal } from '../../host/transfers/ledger-journal.js';
import { outgoingTransfers } from '../../host/transfers/state.js';
import { account, entriesOfTypes, verifyLedger, type EntryBody, type Payload } from '../../ledger/index.js';
import { reconcile } from '../../terms/transfer-reconcile.js';
import { TableId } from '../../terms/transfer-terms.js';
import { decodeHostMessage, PROTOCOL_VERSION, stationView, ViewComposer, type BetSpot, type CommandBody, type StationState } from '../../protocol/index.js';
import { freePort } from '../../upstream/free-port.js';

const STATION = 101;
const SEATED = 1;
const TABLES = [
  { table: TableId.parse('bac-1'), game: 'baccarat' },
  { table: TableId.parse('bj-1'), game: 'blackjack' },
  { table: TableId.parse('war-1'), game: 'war' },
] as const;
const [BAC, BJ, WAR] = TABLES.map((t) => t.table) as [TableId, TableId, TableId];

const until = async (what: string, ok: () => boolean, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** The station's screen for one joined table, as its browser holds it: a socket to the agent's `/ws/N`, the view composed from what comes. */
class Screen {
  private readonly ws: WebSocket;
  private readonly composer = new ViewComposer(stationView(STATION), {
    resync: (parts) => this.send({ type: 'resync', id: this.id(), view: stationView(STATION), parts }),
  });
  private seq = 0;
  private state: StationState | null = null;
  private readonly answers = new Map<string, { ok: true } | { ok: false; detail: string; stale?: number }>();

  constructor(
    readonly table: TableId,
    port: number,
    index: number,
    token: string,
  ) {
    this.ws = new WebSocket(`ws://127.0.0.1:${port}/ws/${index}`);
    this.ws.on('open', () => {
      this.send({ type: 'hello', id: this.id(), protocol: PROTOCOL_VERSION, token });
      this.send({ type: 'subscribe', id: this.id(), view: stationView(STATION) });
    });
    this.ws.on('message', (data) => {
      const d = decodeHostMessage(String(data));
      if (!d.ok) assert.fail(`${table}: a message that fails its schema: ${d.error.detail}`);
      const m = d.message;
      if (m.type === 'ack') this.answers.set(m.ref, { ok: true });
      if (m.type === 'error' && m.ref !== undefined)
        this.answers.set(m.ref, {
          ok: false,
          detail: `${m.code} ${m.messageKey} ${m.detail}`,
          ...(m.code === 'stale-version' && m.currentVersion !== undefined ? { stale: m.currentVersion } : {}),
        });
      const composed = this.composer.take(m);
      if (composed?.state.kind === 'station') this.state = composed.state;
    });
  }

  get view(): StationState | null {
    return this.state;
  }

  /**
   * A command against the version on screen, answered `ack` or `error`. Made against a version the
   * table has moved past (its view changed on the way), it is made again once the screen has
   * caught up, as a player would press again.
   */
  async command(command: CommandBody): Promise<{ ok: true } | { ok: false; detail: string; stale?: number }> {
    for (let attempt = 1; ; attempt++) {
      const id = this.id();
      this.send({ type: 'command', id, view: stationView(STATION), version: this.composer.version(), command });
      await until(`${this.table}: the answer to ${command.name}`, () => this.answers.has(id), 20_000);
      const a = this.answers.get(id) ?? assert.fail('no answer');
      if (a.ok || a.stale === undefined || attempt >= 5) return a;
      const current = a.stale;
      await until(`${this.table}: the screen at version ${current}`, () => this.composer.version() >= current, 20_000);
    }
  }

  close(): void {
    this.ws.close();
  }

  private send(m: object): void {
    this.ws.send(JSON.stringify(m));
  }

  private id(): string {
    return `s${++this.seq}`;
  }
}

describe('a station follows three live tables of three games and bets on each from one credit (issue 34)', { timeout: 300_000 }, () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'three-tables-'));
  const hosts = new Map<TableId, RunningHost>();
  const screens = new Map<TableId, Screen>();
  let agent: RunningAgent;
  const host = (t: TableId) => hosts.get(t) ?? assert.fail(`no host ${t}`);
  const screen = (t: TableId) => screens.get(t) ?? assert.fail(`no screen for ${t}`);

  before(async () => {
    const ports = await Promise.all(TABLES.map(() => freePort()));
    await enrolFloor(
      TABLES.map((t, i) => ({
        table: t.table,
        dataDir: path.join(root, t.table),
        url: `https://127.0.0.1:${ports[i]}`,
        stations: t.table === BAC ? [STATION] : [],
      })),
      { tickMs: 100 },
    );
    for (const [i, t] of TABLES.entries()) {
      const base = simulatedTableConfig(t.game);
      const config = TableConfig.parse({
        ...base,
        tableId: t.table,
        // One seated station a table: at blackjack, the player the station bets behind.
        stations: base.stations.slice(0, 1),
        remoteStations: 2,
        lan: { host: '127.0.0.1', port: ports[i] },
      });
      hosts.set(
        t.table,
        await startHost({
          dataDir: path.join(root, t.table),
          rendererDir: path.join(root, 'no-renderer'),
          config,
          logger: pino({ level: 'silent' }),
          seed: 34 + i,
          simulatedDealer: { dealMs: 20 },
          // Betting and the results stay until the test ends them (endCountdown): nothing races the
          // bets placed, and credit is moved while a settled round's results are still shown.
          timings: { bettingMs: 120_000, decisionMs: 1_000, resultsMs: 120_000 },
        }),
      );
    }
    const enrolments = TABLES.map((t) => host(t.table).stadium.enrol(STATION, ['Ana Lei (1001)', 'Rui Sá (1002)']));
    const [home, ...others] = enrolments;
    agent = await startStationAgent({
      enrolment: home ?? assert.fail('no enrolment'),
      others,
      billAcceptor: 'sim',
      protocol: 'id003',
      currency: 'MOP',
      log: pino({ level: 'silent' }),
      // No renderer here: the relay still serves `/ws/N`, which is all a screen needs besides its page.
      rendererDir: path.join(root, 'no-renderer'),
    });
    const url = new URL(agent.screenUrl ?? assert.fail('no screen'));
    const token = url.searchParams.get('token') ?? assert.fail('no token');
    TABLES.forEach((t, i) => screens.set(t.table, new Screen(t.table, Number(url.port), i, token)));
    await until('the three tables on the station’s screen', () => TABLES.every((t) => screen(t.table).view !== null));
    const transfers = (t: TableId) => host(t).transfers ?? assert.fail(`${t} runs no transfers`);
    await until('the peer links up', () => TABLES.every((t) => [...transfers(t.table).links.values()].every((l) => l.connected())));
  });

  after(async () => {
    for (const s of screens.values()) s.close();
    await agent?.close();
    for (const h of hosts.values()) await h.close();
    rmSync(root, { recursive: true, force: true });
  });

  const creditOn = (t: TableId) => screen(t).view?.credit;
  const inPlay = (t: TableId) => host(t).table.reads.hasBets(STATION);
  const settledLines = (t: TableId) =>
    [...entriesOfTypes(host(t).ledger, ['round.settle'])].flatMap((e) =>
      ((JSON.parse(e.body) as EntryBody).payload as Payload<'round.settle'>).lines.filter((l) => l.station === STATION),
    );

  /** A bet of the spot's minimum at table `t` when its betting is open, betting ended, and that table's round settled with the station's line. */
  async function betAndSettle(t: TableId, pick: (spots: readonly BetSpot[]) => BetSpot | undefined, alongside?: () => Promise<void>): Promise<void> {
    const linesBefore = settledLines(t).length;
    for (let attempt = 1; ; attempt++) {
      host(t).table.countdowns.end('results');
      await until(`${t}: betting open`, () => screen(t).view?.betting.open === true);
      const view = screen(t).view ?? assert.fail('no view');
      const spot = pick(view.betting.spots) ?? assert.fail(`${t}: no spot to bet on in ${JSON.stringify(view.betting.spots)}`);
      await alongside?.();
      const r = await screen(t).command({
        name: 'place-bet',
        spot: 'seat' in spot && spot.bet === 'behind' ? { bet: 'behind', seat: spot.seat } : { bet: spot.bet },
        amount: spot.min,
      });
      if (r.ok) break;
      // Betting closed between the view and the command (a stale version or a closed window): the next round.
      if (attempt >= 3) assert.fail(`${t}: the bet was refused three times: ${r.detail}`);
    }
    host(t).table.countdowns.end('betting');
    await until(`${t}: the round settled with the station's line`, () => settledLines(t).length > linesBefore, 90_000);
    // Settled, the bets are no longer in play though the results are still shown: the station's
    // credit may move now (the several-tables browser test was refused here, bets-in-play).
    assert.equal(host(t).table.state.phase, 'results', `${t}: the results still shown`);
    assert.equal(inPlay(t), false, `${t}: a settled bet is not in play`);
  }

  it('takes notes at home only, and the other tables show no credit', async () => {
    const relay = agent.relay.simulator() ?? assert.fail('no simulated acceptor');
    relay.insertNote(500);
    relay.insertNote(500);
    await until('the notes credited at home', () => host(BAC).ledger.credit(STATION) === 100_000 && creditOn(BAC) === 100_000);
    for (const t of [BJ, WAR]) {
      assert.equal(host(t).ledger.credit(STATION), 0);
      assert.equal(creditOn(t), 0);
      assert.deepEqual([...entriesOfTypes(host(t).ledger, ['bill.credit'])], [], `${t} took no note`);
    }
  });

  it('bets at home, baccarat, and its round settles it', async () => {
    await betAndSettle(BAC, (spots) => spots.find((s) => s.bet === 'banker'));
  });

  it('moves credit to blackjack and bets behind the seated player there; the blackjack round settles it', async () => {
    const home = host(BAC).ledger.credit(STATION);
    assert.deepEqual(await screen(BAC).command({ name: 'move-credit', to: BJ, amount: 30_000 }), { ok: true });
    await until('the credit at blackjack', () => creditOn(BJ) === 30_000 && creditOn(BAC) === home - 30_000);
    // The seated player: a note through its own simulated acceptor, a main bet through its own screen's view.
    host(BJ).devices.billAcceptors.simulator(SEATED)?.insertNote(500);
    await until('the seated player credited', () => host(BJ).table.state.credits[SEATED] === 50_000);
    const seatView = `station/${SEATED}` as const;
    await betAndSettle(
      BJ,
      (spots) => spots.find((s) => s.bet === 'behind' && 'seat' in s && s.seat === SEATED),
      async () => {
        const seat = await host(BJ).screens.hub.commands.submit(seatView, host(BJ).screens.hub.version(seatView), {
          name: 'place-bet',
          spot: { bet: 'main' },
          amount: 10_000,
        });
        assert.equal(seat.ok, true, JSON.stringify(seat));
      },
    );
    // Placed behind the seat, settled on the seat's hand as the seat's own bet is (Art. 20: the bettor behind follows the seat).
    const placed = [...entriesOfTypes(host(BJ).ledger, ['bet.place'])]
      .map((e) => (JSON.parse(e.body) as EntryBody).payload as Payload<'bet.place'>)
      .filter((p) => p.station === STATION);
    assert.ok(
      placed.some((p) => p.bets.some((b) => b.bet === 'behind' && b.seat === SEATED)),
      `a bet behind seat ${SEATED}: ${JSON.stringify(placed)}`,
    );
    assert.ok(
      settledLines(BJ).every((l) => l.seat === SEATED),
      JSON.stringify(settledLines(BJ)),
    );
  });

  it('moves credit to war and bets there; the war round settles it', async () => {
    assert.deepEqual(await screen(BAC).command({ name: 'move-credit', to: WAR, amount: 30_000 }), { ok: true });
    await until('the credit at war', () => creditOn(WAR) === 30_000);
    await betAndSettle(WAR, (spots) => spots.find((s) => !('seat' in s)));
  });

  it('leaves blackjack and war: what is left there comes home', async () => {
    for (const t of [BJ, WAR]) {
      await until(`${t}: no bet in play`, () => !inPlay(t));
      if ((host(t).ledger.credit(STATION) ?? 0) > 0) assert.deepEqual(await screen(t).command({ name: 'leave-table' }), { ok: true });
    }
    await until(
      'nothing left away',
      () => host(BJ).ledger.credit(STATION) === 0 && host(WAR).ledger.credit(STATION) === 0 && creditOn(BJ) === 0 && creditOn(WAR) === 0,
    );
    await until('every transfer closed', () =>
      TABLES.every((t) =>
        outgoingTransfers((host(t.table).transfers ?? assert.fail('no transfers')).host.state).every((o) => o.phase === 'completed' || o.phase === 'reversed'),
      ),
    );
  });

  it('the three ledgers and the station’s meter agree to the minor unit', async (t) => {
    // Each table: the station's notes + transfers in − transfers out (net of reversals) − its bets + what its settlements returned = its credit there.
    let net = 0;
    let notes = 0;
    for (const { table: t } of TABLES) {
      const l = host(t).ledger;
      let flow = 0;
      for (const e of entriesOfTypes(l, ['bill.credit', 'bet.place', 'round.settle'])) {
        const p = (JSON.parse(e.body) as EntryBody).payload;
        if (e.type === 'bill.credit' && (p as Payload<'bill.credit'>).station === STATION) {
          notes += (p as Payload<'bill.credit'>).denomination;
          flow += (p as Payload<'bill.credit'>).denomination;
        }
        if (e.type === 'bet.place' && (p as Payload<'bet.place'>).station === STATION)
          flow -= (p as Payload<'bet.place'>).bets.reduce((a, b) => a + b.amount, 0);
        if (e.type === 'round.settle')
          for (const line of (p as Payload<'round.settle'>).lines)
            if (line.station === STATION) {
              flow += line.stake + line.net;
              net += line.net;
            }
      }
      for (const e of new LedgerTransferJournal(l).entries()) {
        if (e.type === 'transfer.in' && e.payload.transfer.station === STATION) flow += e.payload.transfer.amount;
        if (e.type === 'transfer.out' && e.payload.transfer.station === STATION) flow -= e.payload.transfer.amount;
        if (e.type === 'transfer.reverse' && e.payload.transfer.station === STATION) flow += e.payload.transfer.amount;
      }
      assert.equal(flow, l.credit(STATION), `${t}: the station's credit is what its entries leave`);
      assert.deepEqual(verifyLedger(l).problems, [], `${t} verifies`);
    }
    assert.equal(notes, 100_000, 'the notes went in at home, and only there');
    // One credit: all of it home again, the notes and what the three rounds won or lost.
    const home = host(BAC).ledger.credit(STATION);
    assert.equal(home, notes + net);
    await until("the station's meter at its home ledger's credit", () => creditOn(BAC) === home, 20_000);
    t.diagnostic(
      `notes ${notes} at ${BAC}; ${TABLES.map(
        ({ table }) =>
          `${table}: ${settledLines(table)
            .map((l) => `${l.bet} seat ${l.seat} stake ${l.stake} net ${l.net}`)
            .join(', ')}`,
      ).join('; ')}; home credit ${home} = notes ${notes} + net ${net}; meter ${creditOn(BAC)}`,
    );
    assert.equal(host(BAC).table.state.credits[STATION], home, "and its home table's");
    for (const t of [BJ, WAR]) assert.equal(creditOn(t), 0);
    // Each of the three games settled a bet of the station's.
    for (const t of [BAC, BJ, WAR]) assert.ok(settledLines(t).length > 0, `${t} settled the station's bet`);
    // The transfers: paired across the three ledgers, nothing to name, nothing in flight, each pair's settlements mirrored, no alarm.
    const journals = new Map(TABLES.map((t) => [t.table, [...new LedgerTransferJournal(host(t.table).ledger).entries()]] as const));
    const paired = reconcile(journals);
    assert.equal(paired.length, 4, 'out to blackjack and war, and home from each');
    assert.deepEqual(
      paired.filter((p) => p.disagreements.length > 0 || p.net !== 0),
      [],
    );
    for (const a of TABLES)
      for (const b of TABLES) {
        if (a === b) continue;
        assert.equal(host(a.table).ledger.balance(account.transferInFlight(b.table)), 0);
        const mine = host(a.table).ledger.balance(account.tableSettlement(b.table));
        const theirs = host(b.table).ledger.balance(account.tableSettlement(a.table));
        assert.ok(mine === -theirs, `${a.table} settles ${mine} with ${b.table}, which settles ${theirs}`);
      }
    assert.deepEqual(
      [...journals.values()].flat().filter((e) => e.type === 'transfer.alarm'),
      [],
    );
  });
});
