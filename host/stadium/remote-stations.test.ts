import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
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
});
