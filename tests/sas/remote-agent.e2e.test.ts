// A remote station's SAS line through its agent (docs/sas.md, "Remote stations"): the station's
// line is a socat pty pair on the station's machine; its agent (`etg station-agent --relay --sas
// serial:PATH`, as the CLI builds it) opens the machine end and relays the bytes over its TLS
// link to the real table host, which runs station 101's SAS machine on them. The test's host
// simulator (tests/sas/host, its own codecs) polls on the other end: the meters answered through
// the agent equal the station's ledger meters, before and after a note the relayed acceptor
// credits; the line going away at the agent is the station's link-down.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { ByteRelay } from '../../host/station-agent/byte-relay.js';
import { pinnedAgent, pinnedSocket } from '../../host/station-agent/pinned-socket.js';
import { SasHost } from './host/host.js';
import { openPtyHost, ptyPair } from './host/io.js';
import * as P from './host/polls.js';

const STATION = 101;
const ADDRESS = 7;
const silent = pino({ level: 'silent' });

async function until(test: () => boolean, what: string, ms = 20_000): Promise<void> {
  const t0 = Date.now();
  while (!test()) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

describe("a remote station's SAS line, relayed by its agent", { timeout: 180_000 }, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-agent-'));
  let running: RunningHost;
  let pair: Awaited<ReturnType<typeof ptyPair>>;
  let io: Awaited<ReturnType<typeof openPtyHost>> | null = null;
  let relay: ByteRelay | null = null;
  let agent: ReturnType<typeof pinnedAgent> | null = null;
  let enrolment: ReturnType<RunningHost['stadium']['enrol']>;
  const held = (kind: string) => running.floor.tilts.list().some((t) => t.kind === kind && t.station === STATION);

  before(async () => {
    pair = await ptyPair(dir);
    const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: 2, remoteSas: [{ station: STATION, address: ADDRESS }] });
    running = await startHost({
      dataDir: path.join(dir, 'data'),
      rendererDir: path.join(dir, 'none'),
      config,
      logger: silent,
      simulatedDealer: false,
      sasTiming: { silenceMs: 600, chirpMs: 150 },
    });
    enrolment = running.stadium.enrol(STATION, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    const pinned = pinnedAgent(enrolment);
    agent = pinned;
    relay = new ByteRelay({
      enrolment,
      spec: 'sim',
      protocol: 'id003',
      currency: 'MOP',
      log: silent,
      connect: () => pinnedSocket(enrolment, pinned, '/station-device'),
      sas: `serial:${pair.machine}`,
    });
    relay.start();
    io = await openPtyHost(pair.host);
  });
  after(async () => {
    await io?.close();
    await relay?.stop();
    agent?.destroy();
    await running?.close();
    pair?.socat.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const meters = () => {
    const s = running.ledger.meters(`station:${STATION}`);
    return {
      coinIn: s.creditsWagered ?? 0,
      coinOut: s.creditsWon ?? 0,
      drop: s.totalIn ?? 0,
      jackpot: s.jackpotHandpays ?? 0,
      gamesPlayed: s.gamesPlayed ?? 0,
      gamesWon: s.gamesWon ?? 0,
      slotDoorOpened: s.doorOpens ?? 0,
      powerResets: running.ledger.meters('table').powerResets ?? 0,
    };
  };

  /** Polls until the machine on the host answers through the agent (the agent's link and port come up after the start). */
  async function firstAnswer(host: SasHost): Promise<NonNullable<Awaited<ReturnType<typeof P.meters1C>>>> {
    const end = Date.now() + 30_000;
    for (;;) {
      await host.pollOther(); // §3.3: the machine joins the host's cycle once another address is polled
      const m = await P.meters1C(host).catch(() => null);
      if (m) return m;
      assert.ok(Date.now() < end, 'the station answered no meter poll through its agent in 30 s');
      await sleep(200);
    }
  }

  it("answers the host simulator's meter poll through the agent, equal to the station's ledger meters, before and after a note", async () => {
    const host = new SasHost(io ?? assert.fail('no pty'), ADDRESS);
    assert.deepEqual(await firstAnswer(host), meters());
    assert.equal(meters().powerResets, 1, 'the start journalled a power-up');
    await until(() => running.devices.billAcceptors.statuses().some((s) => s.station === STATION && s.state === 'ready'), 'the relayed acceptor');
    relay?.simulator()?.insertNote(100);
    await until(() => running.ledger.credit(STATION) > 0, 'the note credited');
    const m = meters();
    assert.ok(m.drop > 0);
    assert.deepEqual(await P.meters1C(host), m);
    assert.equal(await P.singleMeter(host, 0x1a), running.ledger.credit(STATION), 'current credits through the agent');
    await until(() => !held('sas-link-down'), 'no link-down while polled', 5_000);
  });

  it("the agent gone is the station's SAS link down; back, the next poll clears it", async () => {
    await relay?.stop();
    relay = null;
    await until(() => held('sas-link-down'), 'the link-down fault');
    const pinned = pinnedAgent(enrolment);
    agent?.destroy();
    agent = pinned;
    relay = new ByteRelay({
      enrolment,
      spec: 'sim',
      protocol: 'id003',
      currency: 'MOP',
      log: silent,
      connect: () => pinnedSocket(enrolment, pinned, '/station-device'),
      sas: `serial:${pair.machine}`,
    });
    relay.start();
    const host = new SasHost(io ?? assert.fail('no pty'), ADDRESS);
    assert.deepEqual(await firstAnswer(host), meters());
    await until(() => !held('sas-link-down'), 'the link-up');
  });
});
