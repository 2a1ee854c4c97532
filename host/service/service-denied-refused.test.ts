// A wrong PIN (or a locked account) while the journal refuses its `service.denied` record (a full
// disk). The PIN is refused all the same (the accounts store counted it): the screen must say so
// (the wrong-PIN or locked notice), never "Refused: SQLITE_FULL…" in the journal's own words, and
// the refusal is logged. A lock whose record was refused is journalled at the next refusal.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { entriesOfTypes, Ledger } from '../../ledger/index.js';
import { realTimers } from '../table/timers.js';
import { refusingOnce } from '../testing/refusing-ledger.js';
import { AccountStore, type LockoutPolicy } from './accounts.js';
import { accessJournal } from './backend/access-journal.js';
import { ServiceHost } from './service-host.js';
import { fakeBackend } from './testing/fake-backend.js';
import { memoryAccountJournal } from './testing/memory-account-journal.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function rig(policy?: LockoutPolicy) {
  const errors: string[] = [];
  const log = pino(
    { level: 'error' },
    new Writable({
      write(chunk: Buffer, _e, done) {
        errors.push((JSON.parse(chunk.toString()) as { msg: string }).msg);
        done();
      },
    }),
  );
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-DENIED' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'service-denied-'));
  dirs.push(dir);
  const setUp = new AccountStore(dir, { scrypt: FAST });
  await setUp.add({ name: 'Ana', role: 'supervisor', pin: '482915', staff: '1001' }, null);
  await setUp.add({ name: 'Bruno', role: 'supervisor', pin: '739164', staff: '1002' }, { staff: '1001', pin: '482915' });
  setUp.close();
  const accounts = new AccountStore(dir, { scrypt: FAST, journal: memoryAccountJournal().journal, ...(policy ? { policy } : {}) });
  const sessions = { ...accessJournal({ ledger, log, floor: { tilts: { raise: () => undefined } } }), ended: () => undefined };
  const host = new ServiceHost({ accounts, backend: fakeBackend({ sessions }).backend, timers: realTimers, idleMs: 60_000, confirmMs: 30_000 });
  const signIn = async (pin: string) => {
    host.apply('c1', { name: 'service-sign-in', staff: '1001', pin });
    for (let i = 0; i < 400 && host.state('c1', 'en').busy; i++) await new Promise((r) => setTimeout(r, 5));
    return host.state('c1', 'en');
  };
  const send = async (command: Parameters<ServiceHost['apply']>[1]) => {
    host.apply('c1', command);
    for (let i = 0; i < 400 && host.state('c1', 'en').busy; i++) await new Promise((r) => setTimeout(r, 5));
    return host.state('c1', 'en');
  };
  const denials = () => [...entriesOfTypes(ledger, ['service.denied'])].map((e) => JSON.parse(e.body) as { payload: { reason: string; lockedUntil?: string } });
  const close = () => {
    host.stop();
    accounts.close();
    ledger.close();
  };
  return { ledger, signIn, send, denials, errors, close };
}

describe('a refused PIN whose service.denied record the journal refuses', () => {
  it('a wrong PIN: the screen says the PIN was not accepted, not the journal error; the refusal logged', async () => {
    const r = await rig();
    try {
      refusingOnce(r.ledger, 'service.denied');
      const s = await r.signIn('000000');
      assert.equal(s.signedIn, false);
      assert.equal(s.notice?.key, 'service.signIn.bad', `the wrong-PIN notice: ${JSON.stringify(s.notice)}`);
      assert.doesNotMatch(JSON.stringify(s), /SQLITE/, 'the journal error stays off the screen');
      assert.equal(r.denials().length, 0);
      assert.equal(r.errors.length, 1, 'the refused record is logged');
      // The journal has room again: the next wrong PIN is journalled as before.
      assert.equal((await r.signIn('000000')).notice?.key, 'service.signIn.bad');
      assert.equal(r.denials().length, 1);
    } finally {
      r.close();
    }
  });

  it('a lock: the screen says locked; the lock refused its record is journalled at the next refusal', async () => {
    const r = await rig({ maxFailures: 1, lockMs: 15 * 60_000 });
    try {
      refusingOnce(r.ledger, 'service.denied');
      const s = await r.signIn('000000');
      assert.equal(s.notice?.key, 'service.signIn.locked', `the locked notice: ${JSON.stringify(s.notice)}`);
      assert.doesNotMatch(JSON.stringify(s), /SQLITE/);
      assert.equal(r.denials().length, 0);
      const again = await r.signIn('482915');
      assert.equal(again.notice?.key, 'service.signIn.locked', 'still locked, right PIN or not');
      const [lock] = r.denials();
      assert.equal(lock?.payload.reason, 'locked');
      assert.equal(lock.payload.lockedUntil, s.notice.values?.until, 'the lock journalled with its end');
    } finally {
      r.close();
    }
  });
});

// A right PIN while the journal refuses its `service.enter` (a full disk): no session starts (a
// session that is not in the journal never starts), and the screen says why by the catalogue's
// words, never in SQLite's ("Refused: SQLITE_FULL…"); the refusal is logged. Once the journal has
// room, the next sign-in starts a session.
describe('a right PIN whose service.enter record the journal refuses', () => {
  it('not signed in; the screen says the journal refused it, not the journal error; the refusal logged', async () => {
    const r = await rig();
    try {
      refusingOnce(r.ledger, 'service.enter');
      const s = await r.signIn('482915');
      assert.equal(s.signedIn, false);
      assert.equal(s.notice?.key, 'serviceRefusal.actNotJournalled', `said by key: ${JSON.stringify(s.notice)}`);
      assert.doesNotMatch(JSON.stringify(s), /SQLITE/, 'the journal error stays off the screen');
      assert.equal(r.errors.length, 1, 'the refused record is logged');
      const again = await r.signIn('482915');
      assert.equal(again.signedIn, true, 'the journal has room again: signed in');
    } finally {
      r.close();
    }
  });

  it("a second person's: the act is not done, and the screen says so in the catalogue's words", async () => {
    const r = await rig();
    try {
      assert.equal((await r.signIn('482915')).signedIn, true);
      assert.ok((await r.send({ name: 'service-action', action: { kind: 'void-round', roundId: 'R-1', reason: 'unreadable card' } })).confirm);
      refusingOnce(r.ledger, 'service.enter');
      const s = await r.send({ name: 'service-confirm', staff: '1002', pin: '739164' });
      assert.equal(s.notice?.key, 'serviceRefusal.actNotJournalled', `said by key: ${JSON.stringify(s.notice)}`);
      assert.doesNotMatch(JSON.stringify(s), /SQLITE/);
      assert.equal(s.signedIn, true, 'the first person is still signed in');
      assert.equal(r.errors.length, 1, 'the refused record is logged');
      const entered = [...entriesOfTypes(r.ledger, ['service.enter'])].length;
      assert.equal(entered, 1, "only the first person's session is journalled");
    } finally {
      r.close();
    }
  });
});
