// A table whose registry of remote stations (remote-stations.json) was empty at its first start
// adopted nothing, and journalled nothing: its journal stayed without a `station.credential`
// entry, so the adoption stayed open. Someone with the kiosk user's file access then plants a
// registry row holding the hash (and proof key) of a secret they know; at the next start the host
// adopted it as found, journalled it `adopt` and greeted the planter's machine as the station. Now
// the first start journals that it found none (`none`, as a peer table's does), the adoption
// closes, and a row planted after it is refused like any other the journal does not hold.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { ledgerStationJournal } from '../../host/stadium/credential-journal.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import { REMOTE_STATIONS_FILE, RemoteStations } from '../../host/stadium/remote-stations.js';
import { proofKeyOf } from '../../host/stadium/station-proof.js';
import { DeviceClient, DeviceLinkError } from '../../host/station-agent/device-client.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import { entriesOfTypes, openExistingLedger, openLedger, type EntryBody } from '../../ledger/index.js';

const root = mkdtempSync(path.join(tmpdir(), 'station-adoption-'));
after(() => rmSync(root, { recursive: true, force: true }));

const PLANTER_SECRET = 'the-planters-own-secret-of-43-characters-xy';
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** The planter's row for `station`: a secret they know, in the registry's own form, "enrolled" by two names they made up. */
function plant(dir: string, station: number): void {
  const row = {
    station,
    secretSha256: sha(PLANTER_SECRET),
    proofKey: proofKeyOf(PLANTER_SECRET),
    enrolledAt: '2026-11-20T09:00:00.000Z',
    enrolledBy: ['Ana Lei (1001)', 'Rui Sá (1002)'],
  };
  writeFileSync(path.join(dir, REMOTE_STATIONS_FILE), JSON.stringify({ v: 1, stations: [row] }), { mode: 0o600 });
}

/** The actions of the folder's station.credential entries, in order. */
function stationActions(dir: string): string[] {
  const ledger = openExistingLedger(dir, { readonly: true });
  try {
    return [...entriesOfTypes(ledger, ['station.credential'])].map((e) => String((JSON.parse(e.body) as EntryBody).payload.action));
  } finally {
    ledger.close();
  }
}

async function greets(e: EnrolmentFile): Promise<string> {
  const agent = pinnedAgent(e);
  const d = new DeviceClient(e, agent);
  try {
    await d.ready();
    return 'greeted';
  } catch (error) {
    return error instanceof DeviceLinkError ? error.reason : String(error);
  } finally {
    d.close();
    agent.destroy();
  }
}

describe('a registry row planted after a first start that found no remote station', { timeout: 120_000 }, () => {
  it('is refused by the registry as the next start opens it, and named', () => {
    const dir = path.join(root, 'registry');
    const first = openLedger(dir, 'registry');
    RemoteStations.inDataDir(dir, ledgerStationJournal(first));
    first.close();
    plant(dir, 101);
    const ledger = openLedger(dir, 'registry');
    try {
      const stations = RemoteStations.inDataDir(dir, ledgerStationJournal(ledger));
      assert.equal(stations.verify(101, PLANTER_SECRET), false, "the planter's secret does not connect");
      assert.equal(stations.proofKey(101), null, "nor is the planter's proof key given to the edges");
      assert.deepEqual(stations.problems(), ['remote station 101: enrolled in the registry, not in the journal']);
    } finally {
      ledger.close();
    }
    assert.deepEqual(stationActions(dir), ['none'], 'the first start journalled that it found none; nothing adopted after');
  });

  it("is refused over the LAN at the host's next start, while a station two people enrol then is greeted", async () => {
    const dir = path.join(root, 'host');
    const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: 4 });
    const start = () => startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), config, logger: pino({ level: 'silent' }), simulatedDealer: false });
    await (await start()).close();
    plant(dir, 101);
    const running = await start();
    try {
      const e102 = running.stadium.enrol(102, ['Ana Lei (1001)', 'Rui Sá (1002)']);
      assert.equal(await greets(e102), 'greeted', 'the control: a station enrolled by two people connects');
      assert.equal(await greets({ ...e102, station: 101, secret: PLANTER_SECRET }), 'unknown station credential', "the planter's station");
    } finally {
      await running.close();
    }
    assert.deepEqual(stationActions(dir), ['none', 'enrol'], 'nothing adopted at the second start');
  });
});
