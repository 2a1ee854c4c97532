// What the credit rule cannot catch, and what does (issue 28 item 2). A station machine that relays
// plain ID-003 can say a note went into escrow and then reached VEND VALID when nobody inserted
// one: an escrow claim of a note the table takes, answered "stack", then its credit — exactly what
// an honest agent sends. The host credits it (nothing in the protocol tells the two apart). The
// cashbox tells: two people count it at the drop, and the count is set against the notes credited
// at that station since its previous drop, journalled (`cashbox.drop`) with the difference.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import type { RunningHost } from '../../host/start-host.js';
import { DeviceClient } from '../../host/station-agent/device-client.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import type { Payload } from '../../ledger/index.js';
import type { ServiceAction } from '../../protocol/index.js';
import { folderWithAccounts, journalled, serviceScreen, signIn, startServiceHost, stopServiceHost, SUP, TECH, type ServiceScreen } from './service-kit.js';

describe('the drop count finds the credits a compromised station machine minted', { timeout: 180_000 }, () => {
  let dir: string;
  let running: RunningHost;
  let screen: ServiceScreen;
  let agent: ReturnType<typeof pinnedAgent>;
  let device: DeviceClient;

  before(async () => {
    dir = await folderWithAccounts();
    running = await startServiceHost(dir, undefined, TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: 2 }));
    const enrolment = running.stadium.enrol(101, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    agent = pinnedAgent(enrolment);
    device = new DeviceClient(enrolment, agent);
    await device.ready();
    screen = await serviceScreen(running);
    await signIn(screen, SUP);
  });
  after(async () => {
    device?.close();
    agent?.destroy();
    await screen?.close();
    await stopServiceHost(running, dir);
  });

  /** A supervisor starts the drop count, a technician confirms with their PIN; the outcome's notice. */
  async function dropCount(station: number, notes: { note: number; count: number }[]) {
    const action: ServiceAction = { kind: 'cashbox-drop', station, notes };
    const started = await screen.act({ name: 'service-action', action }, 'the drop count asks for a second person');
    assert.equal(started.reply.type, 'ack', JSON.stringify(started.reply));
    const done = await screen.act({ name: 'service-confirm', staff: TECH.staff, pin: TECH.pin }, 'the drop count is done');
    assert.equal(done.reply.type, 'ack', JSON.stringify(done.reply));
    return done.state?.notice;
  }
  const drops = (station: number) => journalled<Payload<'cashbox.drop'>>(running, 'cashbox.drop').filter((d) => d.station === station);

  it('three notes of 500 claimed and never inserted are credited (the rule cannot tell them from real ones) and raise nothing', async () => {
    for (const id of ['ghost-1', 'ghost-2', 'ghost-3']) {
      const r = await device.insert(id, 500, 'MOP');
      assert.equal(r.credited, true);
    }
    assert.equal(running.ledger.credit(101), 150_000);
    assert.deepEqual(journalled(running, 'bill.refused'), []);
  });

  it('the drop count of an empty cashbox says 1,500.00 short, journalled with both people and per face value', async () => {
    const notice = await dropCount(101, [
      { note: 100, count: 0 },
      { note: 500, count: 0 },
    ]);
    assert.equal(notice?.ok, true, JSON.stringify(notice));
    assert.equal(notice?.key, 'service.done.cashboxDrop');
    assert.equal(notice?.values?.difference, -150_000);
    const [d] = drops(101);
    assert.ok(d, 'journalled');
    assert.deepEqual(d.notes, [{ denomination: 50_000, counted: 0, credited: 3 }]);
    assert.equal(d.counted, 0);
    assert.equal(d.credited, 150_000);
    assert.equal(d.difference, -150_000);
    assert.deepEqual(d.authorisedBy, [`${SUP.name} (${SUP.staff})`, `${TECH.name} (${TECH.staff})`]);
    assert.equal(d.sinceSeq, undefined, 'the first drop of the station counts from the start');
  });

  it('the next drop counts from this one: an honest note since, counted, leaves no difference', async () => {
    const r = await device.insert('real-1', 100, 'MOP');
    assert.equal(r.credited, true);
    const notice = await dropCount(101, [{ note: 100, count: 1 }]);
    assert.equal(notice?.values?.difference, 0);
    const [first, second] = drops(101);
    assert.equal(second?.sinceSeq, first?.seq);
    assert.deepEqual(second?.notes, [{ denomination: 10_000, counted: 1, credited: 1 }]);
  });

  it('a note in the cashbox that no credit stands for (a note the station machine hid) shows as over', async () => {
    const notice = await dropCount(101, [{ note: 1000, count: 1 }]);
    assert.equal(notice?.values?.difference, 100_000);
  });

  it('refuses a station the table does not have and a note the currency does not have, journalling nothing', async () => {
    const before = journalled(running, 'cashbox.drop').length;
    for (const action of [
      { kind: 'cashbox-drop', station: 202, notes: [{ note: 100, count: 1 }] },
      { kind: 'cashbox-drop', station: 101, notes: [{ note: 300, count: 1 }] },
    ] satisfies ServiceAction[]) {
      const started = await screen.act({ name: 'service-action', action }, 'asks for a second person');
      if (started.reply.type !== 'ack') continue;
      const done = await screen.act({ name: 'service-confirm', staff: TECH.staff, pin: TECH.pin }, 'refused');
      assert.equal(done.state?.notice?.ok, false, JSON.stringify(done.state?.notice));
    }
    assert.equal(journalled(running, 'cashbox.drop').length, before);
    assert.equal(before, 3);
  });
});
