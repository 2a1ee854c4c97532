// Issue 29 item 4 (remote-stations.json): a remote station's credential is kept beside the ledger
// as the SHA-256 of its secret. Someone with the kiosk user's file access puts the hash of a
// secret they know in its place: before, the host took that secret from their machine as the
// station's (its notes credited to the station), and `etg ledger verify` said OK. Now every
// enrolment, revocation and the first adoption of the registry are journalled with a digest of the
// credential, and the registry is checked against the journal: the swapped credential connects no
// more and verify names it. Swapping the journal's entry too is a rewrite of the journal, which the
// witness catches (tests/security/ledger-witness-reforge.test.ts; the last cases here, for the
// station and for a service account's PIN, whose store is checked against the journal already).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ledgerStationJournal } from '../../host/stadium/credential-journal.js';
import { REMOTE_STATIONS_FILE, RemoteStations } from '../../host/stadium/remote-stations.js';
import { checkStationProof, proofKeyOf, proveStation } from '../../host/stadium/station-proof.js';
import { pinDigest } from '../../host/service/pin-hash.js';
import { copyPinHash, pinRecordOf } from '../../host/service/testing/tamper-accounts.js';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { DeviceClient, DeviceLinkError } from '../../host/station-agent/device-client.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import { openLedger, WitnessClient, WitnessLink } from '../../ledger/index.js';
import { startWitness, writeNewKeyFile, type RunningWitness } from '../../witness/index.js';
import { reforge } from './attacker-kit.js';
import { folderWithAccounts, removeFolder, SUP, TECH } from './service-kit.js';

const root = mkdtempSync(path.join(tmpdir(), 'station-credential-'));
const witnessDir = path.join(root, 'witness');
const socket = path.join(witnessDir, 'witness.sock');
let witness: RunningWitness;
before(async () => {
  mkdirSync(witnessDir, { mode: 0o700 });
  writeNewKeyFile(path.join(witnessDir, 'witness.key'));
  witness = await startWitness({ dir: witnessDir, key: { kind: 'file', file: path.join(witnessDir, 'witness.key') }, listen: { socket } });
});
after(async () => {
  await witness.close();
  rmSync(root, { recursive: true, force: true });
});

const ATTACKER_SECRET = 'the-attackers-own-secret-of-43-characters-x';
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** A data folder whose host enrolled remote station 101 (two people), its journal witnessed. */
async function enrolled(name: string): Promise<{ dir: string; secret: string }> {
  const dir = path.join(root, name);
  const ledger = openLedger(dir, name, { witnessed: true });
  const link = await WitnessLink.attach(ledger, new WitnessClient(socket));
  link.start();
  const stations = RemoteStations.inDataDir(dir, ledgerStationJournal(ledger));
  const { secret } = stations.enrol(101, ['sup-1', 'sup-2']);
  stations.enrol(102, ['sup-1', 'sup-2']);
  assert.ok(stations.verify(101, secret));
  await link.flush();
  await link.stop();
  ledger.close();
  return { dir, secret };
}

/** The attack on the file: station 101's stored hash replaced by the hash of a secret the attacker knows. */
function swap(dir: string): void {
  const file = path.join(dir, REMOTE_STATIONS_FILE);
  const registry = JSON.parse(readFileSync(file, 'utf8')) as { v: 1; stations: { station: number; secretSha256: string }[] };
  for (const s of registry.stations) if (s.station === 101) s.secretSha256 = sha(ATTACKER_SECRET);
  writeFileSync(file, JSON.stringify(registry));
}

function verify(dir: string, ...args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/etg.js', 'ledger', 'verify', '--data-dir', dir, ...args],
      { encoding: 'utf8', env: { ...process.env, ETG_WITNESS_SOCKET: '' } },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, out: stdout + stderr }),
    );
  });
}

describe("a remote station's credential swapped in remote-stations.json", { timeout: 120_000 }, () => {
  it("is refused at connection (the attacker's secret and the old one alike) and named by etg ledger verify", async () => {
    const { dir, secret } = await enrolled('swap');
    assert.equal((await verify(dir)).code, 0, 'the untouched folder verifies (the control)');
    swap(dir);
    // The host's registry as it opens at the next start, checked against the journal.
    const ledger = openLedger(dir, 'swap', { witnessed: true });
    const stations = RemoteStations.inDataDir(dir, ledgerStationJournal(ledger));
    assert.equal(stations.verify(101, ATTACKER_SECRET), false, "the attacker's secret does not connect");
    assert.equal(stations.verify(101, secret), false, 'nor the replaced one: the registry no longer holds it');
    assert.ok(stations.verify(102, 'x') === false && stations.problems().length === 1, stations.problems().join('\n'));
    assert.match(stations.problems()[0] ?? '', /remote station 101: its credential is not the one journalled/);
    ledger.close();
    const r = await verify(dir);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /MISMATCH: remote station 101: its credential is not the one journalled/, r.out);
  });

  it("the journal rewritten to match (its entry re-forged with the ledger's own code) is the witness's to catch", async () => {
    const { dir } = await enrolled('swap-and-reforge');
    swap(dir);
    reforge(dir, (e, p) =>
      e.type === 'station.credential' && p.station === 101
        ? {
            ...p,
            credential: createHash('sha256')
              .update(`macau-etg-station-credential v1\n101\n${sha(ATTACKER_SECRET)}`)
              .digest('hex'),
          }
        : p,
    );
    assert.equal((await verify(dir)).code, 0, 'without the witness the folder is consistent again (the limit)');
    const r = await verify(dir, '--witness', socket, '--terminal', 'swap-and-reforge');
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /witness: entry \d+ of the journal is not the one the witness .* signed/, r.out);
  });
});

/** The attack on the proof key (issue 55): station 101's public proof key replaced by the key of a secret the attacker knows. */
function swapProofKey(dir: string): void {
  const file = path.join(dir, REMOTE_STATIONS_FILE);
  const registry = JSON.parse(readFileSync(file, 'utf8')) as { v: 1; stations: { station: number; proofKey?: string }[] };
  for (const s of registry.stations) if (s.station === 101) s.proofKey = proofKeyOf(ATTACKER_SECRET);
  writeFileSync(file, JSON.stringify(registry));
}

describe("a remote station's proof key swapped in remote-stations.json (its secret's hash left alone)", { timeout: 120_000 }, () => {
  it('gives the edges and the host no key the attacker can sign for, and is named by etg ledger verify', async () => {
    const { dir, secret } = await enrolled('swap-key');
    swapProofKey(dir);
    const ledger = openLedger(dir, 'swap-key', { witnessed: true });
    try {
      const stations = RemoteStations.inDataDir(dir, ledgerStationJournal(ledger));
      // What an edge checks a proof against (published) and what the host's attachment checks.
      const key = stations.proofKey(101);
      const forged = proveStation(ATTACKER_SECRET, 'swap-key', 101, 'n'.repeat(24));
      assert.ok(key === null || !checkStationProof(key, 'swap-key', 101, 'n'.repeat(24), forged), "the attacker's proof is not the station's");
      assert.ok(!stations.proofKeys().some((k) => k.station === 101 && k.proofKey === proofKeyOf(ATTACKER_SECRET)), "the attacker's key is not published");
      assert.equal(stations.verify(101, secret), false, 'a registry row that is not the one journalled is refused whole');
      assert.match(stations.problems().join('\n'), /remote station 101: its credential is not the one journalled/);
      assert.ok(stations.proofKey(102) !== null, 'the other station keeps its key (the control)');
    } finally {
      ledger.close();
    }
    const r = await verify(dir);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /MISMATCH: remote station 101: its credential is not the one journalled/, r.out);
  });
});

/** Whether the host's device link greets an agent presenting this enrolment, or refuses it saying why. */
async function greets(e: EnrolmentFile): Promise<string> {
  const agent = pinnedAgent(e);
  const d = new DeviceClient(e, agent);
  try {
    await d.ready();
    return 'greeted';
  } catch (error) {
    // The host's own words (the error's message names the station and the link besides).
    return error instanceof DeviceLinkError ? error.reason : String(error);
  } finally {
    d.close();
    agent.destroy();
  }
}

describe("the host's start on a registry with a swapped credential", { timeout: 120_000 }, () => {
  it("refuses the attacker's secret over the LAN (and the replaced one), and still greets the stations that agree with the journal", async () => {
    const dir = path.join(root, 'host-start');
    const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: 4 });
    const start = () => startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), config, logger: pino({ level: 'silent' }), simulatedDealer: false });
    let running = await start();
    let e101: EnrolmentFile;
    try {
      e101 = running.stadium.enrol(101, ['Ana Lei (1001)', 'Rui Sá (1002)']);
      assert.equal(await greets(e101), 'greeted', 'the control: the enrolled station connects');
    } finally {
      await running.close();
    }
    swap(dir);
    running = await start();
    try {
      // Another station enrolled now: the host is up and greets it (and gives its LAN address, new at each start).
      const e102 = running.stadium.enrol(102, ['Ana Lei (1001)', 'Rui Sá (1002)']);
      assert.equal(await greets(e102), 'greeted');
      assert.equal(await greets({ ...e102, station: 101, secret: ATTACKER_SECRET }), 'unknown station credential', "the attacker's secret");
      assert.equal(await greets({ ...e102, station: 101, secret: e101.secret }), 'unknown station credential', 'the replaced secret');
    } finally {
      await running.close();
    }
  });
});

describe('a service account swapped in its store, and its journal entry rewritten to match', { timeout: 120_000 }, () => {
  it("passes the data folder's own checks, and is the witness's to catch", async () => {
    const dir = await folderWithAccounts();
    // A host with its witness starts on the folder: the accounts are adopted into the journal, which is witnessed.
    const running = await startHost({
      dataDir: dir,
      rendererDir: path.join(dir, 'none'),
      logger: pino({ level: 'silent' }),
      simulatedDealer: false,
      witness: { socket },
    });
    // The terminal the host's configuration names: the auditor names it to verify.
    const terminal = running.ledger.terminalId;
    await running.close();
    try {
      assert.equal((await verify(dir, '--witness', socket, '--terminal', terminal)).code, 0, 'the untouched folder (the control)');
      // The supervisor's PIN hash copied into the technician's row, and the journal's digest of the
      // technician's PIN rebuilt to match, with the ledger's own code.
      copyPinHash(dir, SUP.staff, TECH.staff);
      const digest = pinDigest(TECH.staff, pinRecordOf(dir, TECH.staff));
      reforge(dir, (e, p) => (e.type === 'service.account' && p.staff === TECH.staff && typeof p.pin === 'string' ? { ...p, pin: digest } : p));
      assert.equal((await verify(dir)).code, 0, 'without the witness, store and journal agree again (the limit)');
      const r = await verify(dir, '--witness', socket, '--terminal', terminal);
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, /witness: entry \d+ of the journal is not the one the witness .* signed/, r.out);
    } finally {
      removeFolder(dir);
    }
  });
});
