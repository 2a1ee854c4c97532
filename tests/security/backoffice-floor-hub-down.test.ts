// A floor stream opened while the database cannot be read. The hub answered 200 with the stream's
// headers, then its first read (the whole floor) failed: the stream was left open among the
// user's, with nothing written, and the page showed an empty floor as if the casino had no tables,
// never «reconnecting». Now a stream whose floor cannot be read is closed (told to retry) and held
// no longer; the page's EventSource reconnects and says so meanwhile.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migrateUpstream, openPglite, type Sql } from '../../upstream/index.js';
import { FloorHub } from '../../upstream/backoffice/floor-hub.js';

function fakeStream() {
  const s = { written: [] as string[], ended: false, destroyed: false };
  const res = {
    writableLength: 0,
    writeHead: () => res,
    on: () => res,
    end: (t?: string) => {
      if (t) s.written.push(t);
      s.ended = true;
      return res;
    },
    destroy: () => {
      s.destroyed = true;
      return res;
    },
    write: (t: string) => {
      s.written.push(t);
      return true;
    },
  };
  return { s, res: res as unknown as Parameters<FloorHub['subscribe']>[0] };
}

describe('the floor stream while the database is away', () => {
  it('closes the stream it cannot fill, and writes nothing to it once the database is back', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db);
      let down = true;
      const sql: Sql = {
        query: (text, params) => (down ? Promise.reject(new Error('database away')) : db.query(text, params)),
        exec: (text) => (down ? Promise.reject(new Error('database away')) : db.exec(text)),
      };
      const hub = new FloorHub(sql, Date.now);
      const { s, res } = fakeStream();
      await hub.subscribe(res, { session: 'x', user: 'ana', address: '127.0.0.1' });
      assert.equal(s.ended || s.destroyed, true, 'a stream with no floor is closed, so the page reconnects');
      assert.ok(!s.written.some((t) => t.includes('event: floor')), 'no floor was read');
      down = false;
      const before = s.written.length;
      await hub.sweep();
      assert.equal(s.written.length, before, 'a closed stream is no longer among the open ones');
      hub.stop();
    } finally {
      await db.close();
    }
  });
});

// The hub's reads failed in silence while the database was away (each catch said only so in a
// comment): the floor went still on every page and the upstream's log held nothing of it. Now the
// first failure is logged with its error, once however often the sweeps, pushes and streams retry,
// and the database's return once; a second outage is logged again.
describe("the floor hub's log while the database is away", () => {
  it('logs the outage once, with its error, and the return once', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db);
      let down = true;
      const sql: Sql = {
        query: (text, params) => (down ? Promise.reject(new Error('database away')) : db.query(text, params)),
        exec: (text) => (down ? Promise.reject(new Error('database away')) : db.exec(text)),
      };
      const said: { level: string; obj: unknown; msg: string }[] = [];
      const log = {
        warn: (obj: unknown, msg: string) => said.push({ level: 'warn', obj, msg }),
        info: (obj: unknown, msg: string) => said.push({ level: 'info', obj, msg }),
      };
      const hub = new FloorHub(sql, Date.now, {}, log);
      // The pushes a touch or a sweep leaves running, done.
      const settled = () => new Promise((r) => setTimeout(r, 100));
      for (let i = 0; i < 3; i++) {
        await hub.subscribe(fakeStream().res, { session: 'x', user: 'ana', address: '127.0.0.1' });
        await hub.sweep();
        hub.touched('T1');
      }
      await settled();
      assert.deepEqual(
        said.map((x) => x.level),
        ['warn'],
        'one line for the outage, not one per retry',
      );
      assert.match(String((said[0]?.obj as { err?: Error }).err?.message), /database away/);
      down = false;
      await hub.sweep();
      await hub.sweep();
      assert.deepEqual(
        said.map((x) => x.level),
        ['warn', 'info'],
        'its return once',
      );
      down = true;
      await settled();
      await hub.sweep();
      await hub.sweep();
      await settled();
      assert.deepEqual(
        said.map((x) => x.level),
        ['warn', 'info', 'warn'],
        'a second outage is a line of its own',
      );
      hub.stop();
    } finally {
      await db.close();
    }
  });
});
