// An upstream closed while its transfers' reconciliation runs waits for the run (up to
// RECONCILING_CLOSE_WAIT_MS) before it answers closed: its caller closes the database after, and
// before, the run's next query met a closed database and the run's failure was logged as the
// service stopped (a stop during a run dropped what it was raising). A run that never ends holds
// the close no longer than the bound.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RECONCILING_CLOSE_WAIT_MS, startUpstream, type Db } from '../../upstream/index.js';
import { openDatabase, type OpenDatabase } from './upstream-databases.js';

/** `db` whose queries wait, once `hold` is called, until it is let go; `held` resolves at the first query held. */
function gated(db: Db) {
  let gate: Promise<void> | null = null;
  let open: () => void = () => undefined;
  let reached: () => void = () => undefined;
  const held = new Promise<void>((r) => (reached = r));
  const wait = async () => {
    if (gate) {
      reached();
      await gate;
    }
  };
  const g: Db = {
    kind: db.kind,
    async query(text, params) {
      await wait();
      return db.query(text, params);
    },
    async exec(text) {
      await wait();
      return db.exec(text);
    },
    async transaction(fn) {
      await wait();
      return db.transaction(fn);
    },
    close: () => db.close(),
  };
  return {
    db: g,
    held,
    hold() {
      gate = new Promise<void>((r) => (open = r));
    },
    letGo: () => open(),
  };
}

const settledWithin = <T>(p: Promise<T>, ms: number) => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe('an upstream closed while its transfers are being reconciled', () => {
  let opened: OpenDatabase;
  before(async () => {
    opened = await openDatabase('pglite');
  });
  after(() => opened.close());

  it('answers closed only once the run has ended', { timeout: 60_000 }, async () => {
    const g = gated(opened.db);
    const up = await startUpstream({ db: g.db, port: 0, backoffice: false, transfers: { everySeconds: 0.05, openAfterSeconds: 60 } });
    g.hold();
    await g.held;
    const closing = up.close();
    assert.equal(await settledWithin(closing, 300), false, 'closed while the run was still reading the database');
    g.letGo();
    assert.equal(await settledWithin(closing, 10_000), true, 'closed once the run ended');
  });

  it(`a run that never ends holds the close ${RECONCILING_CLOSE_WAIT_MS} ms at most`, { timeout: 60_000 }, async () => {
    const g = gated(opened.db);
    const up = await startUpstream({ db: g.db, port: 0, backoffice: false, transfers: { everySeconds: 0.05, openAfterSeconds: 60 } });
    g.hold();
    await g.held;
    const t0 = performance.now();
    await up.close();
    const ms = performance.now() - t0;
    assert.ok(ms >= RECONCILING_CLOSE_WAIT_MS - 50 && ms < RECONCILING_CLOSE_WAIT_MS + 5_000, `closed after ${Math.round(ms)} ms`);
    g.letGo();
  });
});
