// A terminal's key is cached for `ttlMs` (a revocation made on another instance of the upstream
// takes effect within it). The cache's age was read on the wall clock: stepped back an hour (NTP,
// an operator setting the time), a revoked terminal's requests were still let in for that hour.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { KeyStore } from './auth.js';
import type { Db } from './sql.js';

/** A terminals table of one live terminal that the test revokes; it counts the lookups. */
function terminals() {
  const t = { revoked: false, lookups: 0 };
  const db: Db = {
    kind: 'pglite',
    query: <T>() => {
      t.lookups++;
      return Promise.resolve({ rows: (t.revoked ? [] : [{ key: Buffer.alloc(32, 7) }]) as T[], rowCount: t.revoked ? 0 : 1 });
    },
    exec: () => Promise.resolve(),
    transaction: () => Promise.reject(new Error('not used')),
    close: () => Promise.resolve(),
  };
  return { t, db };
}

describe("the upstream's cache of terminal keys", () => {
  it('a revocation takes effect within the cache time, whatever the wall clock did meanwhile', async () => {
    const wall = Date.now;
    for (const direction of [-1, 1]) {
      const { t, db } = terminals();
      const keys = new KeyStore(db, 50);
      try {
        assert.ok(await keys.key('T-1'));
        let readings = 0;
        Date.now = () => wall() + direction * 3_600_000 * ++readings;
        assert.ok(await keys.key('T-1'), 'within the cache time: the cached key');
        assert.equal(t.lookups, 1, `a step ${direction > 0 ? 'forward' : 'back'} does not drop the cache at once`);
        t.revoked = true;
        await sleep(80);
        assert.equal(await keys.key('T-1'), null, `revoked, past the cache time (a step ${direction > 0 ? 'forward' : 'back'})`);
      } finally {
        Date.now = wall;
      }
    }
  });
});
