// Service mode's exits the journal refused (held, host/service/backend/access-journal.ts) when the
// host stops before service mode's next access entry. Before, the stop closed the ledger with them
// still held, and the next start journalled those sessions as ended by `power-loss`: the session's
// true end (idle, its screen gone) was nowhere. Now the shutdown tries once more before the ledger
// closes; a journal still refusing has each held exit logged at error with its reason.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import { Ledger } from '../../ledger/index.js';
import { refusingOnce, refusingUntilReleased } from '../testing/refusing-ledger.js';
import { AccountStore } from '../service/accounts.js';
import { accessJournal } from '../service/backend/access-journal.js';
import { ServiceHost } from '../service/service-host.js';
import { fakeBackend } from '../service/testing/fake-backend.js';
import { memoryAccountJournal } from '../service/testing/memory-account-journal.js';
import { realTimers } from '../table/timers.js';
import { shutdown, type Started } from './shutdown.js';
import { serviceStops } from './service.js';
import { StartStops } from './stops.js';

type Line = { level: number; msg: string; reason?: string; staff?: string; enterSeq?: number };

/** A signed-in session ended by its idle timer while the journal refuses its exit: the exit held. */
async function heldIdleExit(refuse: 'once' | 'until-released') {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _e, done) {
      lines.push(JSON.parse(chunk.toString()) as Line);
      done();
    },
  });
  const log = pino({ level: 'info' }, sink);
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-HELD' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'held-exits-'));
  const FAST = { N: 2 ** 10, r: 8, p: 1 };
  const setUp = new AccountStore(dir, { scrypt: FAST });
  await setUp.add({ name: 'Ana', role: 'supervisor', pin: '482915', staff: '1001' }, null);
  setUp.close();
  const accounts = new AccountStore(dir, { scrypt: FAST, journal: memoryAccountJournal().journal });
  const sessions = { ...accessJournal({ ledger, log, floor: {} as never }), ended: () => undefined };
  const { backend } = fakeBackend({ sessions });
  const service = new ServiceHost({ accounts, backend, timers: realTimers, idleMs: 300, confirmMs: 30_000 });
  service.apply('c1', { name: 'service-sign-in', staff: '1001', pin: '482915' });
  for (let i = 0; i < 400 && service.state('c1', 'en').busy; i++) await new Promise((r) => setTimeout(r, 5));
  assert.equal(service.state('c1', 'en').signedIn, true, 'signed in');
  let release = (): void => undefined;
  if (refuse === 'once') refusingOnce(ledger, 'service.exit');
  else release = refusingUntilReleased(ledger, 'service.exit');
  await new Promise((r) => setTimeout(r, 800));
  assert.equal(service.state('c1', 'en').signedIn, false, 'the idle end');
  const exits = () =>
    [...ledger.entries(1)].filter((e) => e.type === 'service.exit').map((e) => (JSON.parse(e.body) as { payload: { reason: string } }).payload.reason);
  assert.deepEqual(exits(), [], 'the exit is held, not journalled');
  return { ledger, log, lines, service, backend, accounts, exits, release, sessions };
}

/** The host's stops for service mode (as `startService` puts them) and the ledger's close: the stop under test. */
function startedWith(h: Awaited<ReturnType<typeof heldIdleExit>>, ledgerClosed: () => void): Started {
  const stops = new StartStops(h.log);
  stops.add('ledger', 'the ledger', ledgerClosed);
  stops.add('accounts', 'the service accounts', () => h.accounts.close());
  serviceStops(stops, h.service, { ...h.backend, dispose: () => undefined });
  return { stops, log: h.log, closeLog: async () => undefined };
}

describe("service mode's held exits when the host stops", () => {
  it('the journal accepting again at the stop: the exit journalled with its true reason before the ledger closes, no power-loss at the next start', async () => {
    const h = await heldIdleExit('once');
    let atClose: string[] = [];
    await shutdown(startedWith(h, () => (atClose = h.exits())));
    assert.deepEqual(atClose, ['idle'], 'the held exit is in the journal before the ledger closes');
    // The next start over the same journal: nothing left open to call power-loss.
    const next = { ...accessJournal({ ledger: h.ledger, log: h.log, floor: {} as never }) };
    assert.equal(next.closeOpen(), 0);
    assert.deepEqual(h.exits(), ['idle']);
    assert.deepEqual(
      h.lines.filter((l) => l.level >= 50 && !/refused its service\.exit/.test(l.msg)),
      [],
      'nothing but the first refusal logged at error',
    );
  });

  it('the journal still refusing at the stop: each held exit logged at error with its reason, so the record exists', async () => {
    const h = await heldIdleExit('until-released');
    const before = h.lines.length;
    await shutdown(startedWith(h, () => undefined));
    assert.deepEqual(h.exits(), []);
    const atStop = h.lines.slice(before).filter((l) => l.level >= 50);
    assert.equal(atStop.length, 1, JSON.stringify(h.lines.map((l) => l.msg)));
    assert.equal(atStop[0]?.reason, 'idle');
    assert.equal(atStop[0]?.staff, '1001');
    assert.equal(typeof atStop[0]?.enterSeq, 'number');
  });
});
