// A revocation (or an enrolment that replaces a credential) whose listener throws: RemoteAcceptors'
// listener closes the agent's link and raises a fault, which a full disk refuses (SQLITE_FULL).
// The revocation is journalled before the listeners run: were the throw let out, the station was
// revoked in memory, remote-stations.json not saved (the next start refused the station: the
// registry and the journal disagreed), and the listeners after it (the edge bridge's) never told.
// Each listener runs on its own, its throw logged; the file is saved, the others told.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Ledger } from '../../ledger/index.js';
import { ledgerStationJournal } from './credential-journal.js';
import { RemoteStations } from './remote-stations.js';

function opened() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'remote-listeners-'));
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-RS' });
  const errors: { fields: object; msg: string }[] = [];
  const log = { error: (fields: object, msg: string) => void errors.push({ fields, msg }) };
  const stations = RemoteStations.inDataDir(dir, ledgerStationJournal(ledger), log);
  return { dir, ledger, errors, stations };
}

describe("a remote station's revocation whose listener throws", () => {
  for (const how of ['revoke', 'enrol again'] as const)
    it(`${how}: the later listeners are told, the registry saved, the next start agrees, the throw logged`, () => {
      const { dir, ledger, errors, stations } = opened();
      try {
        stations.enrol(101, ['Ana', 'Rui']);
        const told: string[] = [];
        stations.onRevoked(() => {
          told.push('first');
          throw new Error('SQLITE_FULL: database or disk is full');
        });
        stations.onRevoked((s) => told.push(`second ${s}`));
        stations.onChange(() => {
          told.push('change 1');
          throw new Error('the edges could not be told');
        });
        stations.onChange(() => told.push('change 2'));
        assert.doesNotThrow(() => (how === 'revoke' ? stations.revoke(101, ['Ana', 'Rui']) : stations.enrol(101, ['Ana', 'Rui'])));
        assert.deepEqual(told, ['first', 'second 101', 'change 1', 'change 2']);
        assert.equal(errors.length, 2, JSON.stringify(errors));
        const again = RemoteStations.inDataDir(dir, ledgerStationJournal(ledger));
        assert.deepEqual(again.problems(), [], 'the registry file and the journal disagree');
        assert.equal(again.current(101) !== null, how === 'enrol again');
      } finally {
        ledger.close();
      }
    });
});
