import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { credentialDigest, type CredentialEntry, type StationCredentialJournal } from './credential-journal.js';
import { RemoteStations } from './remote-stations.js';

describe('remote stations’ credentials', () => {
  it('keeps only a hash, verifies the secret in force, and a new enrolment or a revocation ends the old one at once', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'remote-stations-'));
    try {
      const stations = RemoteStations.inDataDir(dir);
      const revoked: number[] = [];
      stations.onRevoked((s) => revoked.push(s));
      const first = stations.enrol(101, ['Ana Lei (1001)', 'Rui Sá (1002)']);
      assert.ok(first.secret.length >= 43);
      const file = path.join(dir, 'remote-stations.json');
      assert.ok(!readFileSync(file, 'utf8').includes(first.secret), 'the secret is not stored');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(stations.verify(101, first.secret), true);
      assert.equal(stations.verify(102, first.secret), false, "another station's secret");
      assert.equal(stations.verify(101, `${first.secret}x`), false);
      // The file is the host's: a restart reads the same credential.
      assert.equal(RemoteStations.inDataDir(dir).verify(101, first.secret), true);
      const second = stations.enrol(101, ['Ana Lei (1001)', 'Rui Sá (1002)']);
      assert.equal(stations.verify(101, first.secret), false, 'a new enrolment replaces the old credential');
      assert.equal(stations.verify(101, second.secret), true);
      assert.deepEqual(revoked, [101]);
      assert.equal(stations.revoke(101, ['Ana Lei (1001)', 'Bo Chan (1003)']), true);
      assert.equal(stations.verify(101, second.secret), false);
      assert.equal(stations.revoke(101, ['Ana Lei (1001)', 'Bo Chan (1003)']), false, 'nothing in force to revoke');
      assert.deepEqual(revoked, [101, 101]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('uses a proof key only when the journal covers it: a row journalled before (v1) keeps its secret, not its key', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'remote-stations-'));
    try {
      const entries: CredentialEntry[] = [];
      const journal: StationCredentialJournal = {
        record: (e) => void entries.push(...e),
        // `none` (the first open found no station) names no station.
        read: () => ({
          any: entries.length > 0,
          inForce: new Map(
            entries.flatMap((e) => (e.station === undefined ? [] : [[e.station, e.action === 'revoke' ? null : (e.credential ?? null)] as const])),
          ),
        }),
      };
      const stations = RemoteStations.inDataDir(dir, journal);
      const { secret } = stations.enrol(101, ['Ana Lei (1001)', 'Rui Sá (1002)']);
      const row = stations.current(101) ?? assert.fail('enrolled');
      assert.equal(stations.proofKey(101), row.proofKey, 'journalled with its key (v2): used');
      // The journal's entry as it was written before the key was in the digest.
      entries.push({ station: 101, action: 'enrol', by: ['Ana Lei (1001)', 'Rui Sá (1002)'], credential: credentialDigest(101, row.secretSha256) });
      const reopened = RemoteStations.inDataDir(dir, journal);
      assert.deepEqual(reopened.problems(), []);
      assert.equal(reopened.verify(101, secret), true, 'the secret still connects to the host');
      assert.equal(reopened.proofKey(101), null, 'the key is the file’s word only: not used');
      assert.deepEqual(reopened.proofKeys(), [], 'nor published to the edges');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a registry that does not read stops the start naming the file and what to do, and is never replaced', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'remote-stations-'));
    try {
      const file = path.join(dir, 'remote-stations.json');
      for (const text of ['{"stations": [{"station": 101, "secretSha', JSON.stringify({ stations: [{ station: 'one' }] })]) {
        writeFileSync(file, text);
        assert.throws(
          () => RemoteStations.inDataDir(dir),
          (e: Error) => e.message.startsWith(`remote stations: ${file} cannot be used: `) && /Restore it from a backup of the data folder/.test(e.message),
        );
        assert.equal(readFileSync(file, 'utf8'), text, 'left as found, for whoever restores it');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
