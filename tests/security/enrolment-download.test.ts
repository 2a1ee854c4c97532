// Issue 28 item 4, "The enrolment file goes to the wrong person": an auditor's session downloaded
// station 101's enrolment file, secret included, with its own export token, and the supervisor
// who enrolled it then got 403. Here every session but the enrolling one asks for the file first
// (the auditor, the technician who confirmed the enrolment), then the enrolling supervisor, then
// the supervisor again; another file waits past its deadline, another outlives its session. Each
// download and each refusal is looked for in the journal, and the secret anywhere on disk.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import type { RunningHost } from '../../host/start-host.js';
import {
  folderWithAccounts,
  journalled,
  serviceScreen,
  signIn,
  skewedClock,
  startServiceHost,
  stopServiceHost,
  SUP,
  TECH,
  type ServiceScreen,
} from './service-kit.js';

const AUD = { name: 'Eva Ho', staff: '1004', pin: '618203', role: 'auditor' } as const;

type Action = { who: string; action: string; confirmedBy?: string; detail: string; say?: { key: string; values: Record<string, unknown> } };

async function enrol(supervisor: ServiceScreen, station: number): Promise<void> {
  const started = await supervisor.act({ name: 'service-action', action: { kind: 'station-enrol', station } }, `enrolment of ${station}`);
  assert.ok(started.state?.confirm, 'the enrolment waits for a second person');
  const done = await supervisor.act({ name: 'service-confirm', staff: TECH.staff, pin: TECH.pin }, 'the technician confirms');
  assert.equal(done.state?.notice?.key, 'service.done.stationEnrol', JSON.stringify(done.state?.notice));
}

/** The enrolment file of `station` as the session of `screen` asks for it over HTTP, with that session's export token. */
async function download(running: RunningHost, screen: ServiceScreen, station: number): Promise<{ status: number; body: string }> {
  const token = screen.state()?.session?.exportToken;
  assert.ok(token, 'the screen is signed in');
  const res = await fetch(`${running.origin}/service/export/enrolment/${station}?t=${encodeURIComponent(token)}`);
  return { status: res.status, body: await res.text() };
}

/** Opens the stations page on a screen (pressed again if another session's action changed the view under it) and waits for it. */
async function stationsPage(screen: ServiceScreen): Promise<void> {
  const reply = await screen.press({ name: 'service-page', page: 'stations' });
  assert.equal(reply.type, 'ack', JSON.stringify(reply));
  await screen.until((x) => x.page?.page === 'stations', 'the stations page');
}

const enrolmentActions = (running: RunningHost): Action[] => journalled<Action>(running, 'service.action').filter((a) => a.action.startsWith('enrolment-'));

/** Every file under `dir` whose bytes hold `text`. */
function filesHolding(dir: string, text: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) out.push(...filesHolding(file, text));
    else if (readFileSync(file).includes(text)) out.push(file);
  }
  return out;
}

describe('the enrolment file (issue 28 item 4)', () => {
  it('goes once to the session that enrolled the station, within its deadline; every download and refusal is journalled; the secret is then nowhere', async () => {
    const clock = skewedClock();
    const dir = await folderWithAccounts([SUP, TECH, AUD]);
    const config = TableConfig.parse({ ...simulatedTableConfig('blackjack'), remoteStations: 3 });
    const running = await startServiceHost(dir, clock.timers, config);
    try {
      const supervisor = await serviceScreen(running);
      await signIn(supervisor, SUP);
      const auditor = await serviceScreen(running);
      await signIn(auditor, AUD);
      const technician = await serviceScreen(running);
      await signIn(technician, TECH);

      await enrol(supervisor, 101);
      // The enrolment's record is said by key (the event log reads it in the screen's language), not in the host's English only.
      const enrolled = journalled<Action>(running, 'service.action').find((a) => a.action === 'station-enrol');
      assert.equal(enrolled?.say?.key, 'journalSaid.actStationEnrol', JSON.stringify(enrolled));
      assert.equal(enrolled?.say?.values.station, 101);
      // The download link is the enrolling session's alone.
      await stationsPage(supervisor);
      await stationsPage(auditor);
      const row = (s: ServiceScreen) => {
        const page = s.state()?.page;
        return page?.page === 'stations' ? page.stations.find((x) => x.station === 101) : undefined;
      };
      assert.equal(row(supervisor)?.download, true, 'the enrolling session is offered the file');
      assert.notEqual(row(auditor)?.download, true, 'another session is not offered it');

      // Sessions other than the enrolling one: refused, and the file still waits for its owner.
      assert.equal((await download(running, auditor, 101)).status, 403, "the auditor's session is refused");
      assert.equal((await download(running, technician, 101)).status, 403, "the confirming technician's own session is refused");
      const got = await download(running, supervisor, 101);
      assert.equal(got.status, 200, `the enrolling supervisor gets the file: ${got.body}`);
      const file = EnrolmentFile.parse(JSON.parse(got.body));
      assert.equal(file.station, 101);
      assert.ok(running.stadium.stations.verify(101, file.secret), 'the file holds the credential in force');
      // Once: nobody reads it again, the enrolling session included.
      assert.equal((await download(running, supervisor, 101)).status, 403, 'a second download is refused');
      assert.equal((await download(running, auditor, 101)).status, 403);

      // A file not downloaded within its deadline is gone.
      await enrol(supervisor, 102);
      clock.advance(6 * 60_000);
      assert.equal((await download(running, supervisor, 102)).status, 403, 'refused after the deadline');

      // A file whose session ended is gone: signing in again is another session.
      await enrol(supervisor, 103);
      assert.equal((await supervisor.send({ name: 'service-sign-out' })).type, 'ack');
      await supervisor.until((x) => !x.signedIn, 'signed out');
      await signIn(supervisor, SUP);
      assert.equal((await download(running, supervisor, 103)).status, 403, 'refused to a later session of the same person');

      const sup = `${SUP.name} (${SUP.staff})`;
      const aud = `${AUD.name} (${AUD.staff})`;
      const tech = `${TECH.name} (${TECH.staff})`;
      const actions = enrolmentActions(running).map((a) => [a.who, a.action, /station (\d+)/.exec(a.detail)?.[1]]);
      assert.deepEqual(
        actions,
        [
          [aud, 'enrolment-refused', '101'],
          [tech, 'enrolment-refused', '101'],
          [sup, 'enrolment-download', '101'],
          [sup, 'enrolment-refused', '101'],
          [aud, 'enrolment-refused', '101'],
          [sup, 'enrolment-discarded', '102'],
          [sup, 'enrolment-refused', '102'],
          [sup, 'enrolment-discarded', '103'],
          [sup, 'enrolment-refused', '103'],
        ],
        JSON.stringify(enrolmentActions(running), null, 1),
      );

      // The host keeps only the secret's hash: nothing in the data folder (ledger, logs, the
      // stations' file) holds the secret, and no service screen's state ever carried it.
      assert.deepEqual(filesHolding(dir, file.secret), [], 'the secret is written nowhere');
      for (const s of [supervisor, auditor, technician]) assert.ok(!JSON.stringify(s.state()).includes(file.secret));
      await Promise.all([supervisor.close(), auditor.close(), technician.close()]);
    } finally {
      await stopServiceHost(running, dir);
    }
  });
});
