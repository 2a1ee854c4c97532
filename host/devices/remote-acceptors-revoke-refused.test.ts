// A station's credential revoked in service mode while the journal takes the revocation and
// refuses the next write: RemoteStations.revoke journals `station.credential`, then tells its
// listeners, of which RemoteAcceptors' closes the agent's link, whose fault (bill-acceptor-lost)
// the journal refuses. Before, that throw left the revocation half done: the listeners after it
// (the edge bridge's, which drops the station at its edge) untold, the registry file unsaved, and
// the next start refusing the station. The revocation is done whole; the throw is logged.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { Ledger } from '../../ledger/index.js';
import { DEVICE_PROTOCOL_VERSION } from '../../protocol/index.js';
import { ledgerStationJournal } from '../stadium/credential-journal.js';
import { RemoteStations } from '../stadium/remote-stations.js';
import { refusingOnce } from '../testing/refusing-ledger.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { onBillAcceptorEvent } from '../tilts/tilt-sources.js';
import { RemoteAcceptors } from './remote-acceptors.js';
import { noNoteMoves } from '../testing/no-note-moves.js';

describe('a revocation while the journal refuses the fault its agent link raises', () => {
  it('every revocation listener is told and the registry saved, or the revocation is refused whole', () => {
    const log = pino({ level: 'silent' });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'zz-revoke-'));
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-ZZ' });
    const tilts = new TiltManager({ ledger, log });
    const stations = RemoteStations.inDataDir(dir, ledgerStationJournal(ledger), log);
    const { secret } = stations.enrol(101, ['Ana', 'Rui']);
    const acceptors = new RemoteAcceptors({
      ledger,
      log,
      credits: noNoteMoves(),
      stations,
      hasStation: () => true,
      accepted: () => [100],
      onEvent: (station, e) => onBillAcceptorEvent(tilts, station, e),
    });
    const told: number[] = [];
    stations.onRevoked((s) => told.push(s)); // registered after, as the edge bridge's is (host start order)
    const link = acceptors.open(
      () => undefined,
      () => undefined,
    );
    link.receive(JSON.stringify({ type: 'hello-device', protocol: DEVICE_PROTOCOL_VERSION, station: 101, secret, acceptor: 'id003' }));
    assert.equal(link.greeted(), true);
    refusingOnce(ledger, 'tilt.raise');
    let threw: unknown = null;
    try {
      stations.revoke(101, ['Ana', 'Rui']);
    } catch (e) {
      threw = e;
    }
    const file = JSON.parse(readFileSync(path.join(dir, 'remote-stations.json'), 'utf8')) as { stations: { station: number; revokedAt?: string }[] };
    assert.equal(threw, null, 'the revocation threw after it was journalled');
    assert.deepEqual(told, [101], 'a later listener was not told of the revocation');
    assert.equal(stations.current(101), null);
    assert.ok(file.stations.find((s) => s.station === 101)?.revokedAt !== undefined, 'the registry file was not saved');
    assert.deepEqual(RemoteStations.inDataDir(dir, ledgerStationJournal(ledger)).problems(), [], 'the next start refuses the station');
  });
});
