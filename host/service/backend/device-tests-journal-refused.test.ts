// A note or card test whose `service.test` record the journal refuses (a full disk). The result
// comes from a device's callback (the acceptor's escrow, the shoe's card) or from the test's
// timer: a refusal thrown there reached the acceptor's escrow handling or the timer (where an
// exception nothing handles ends the host), and the test's promise never settled, so the screen
// stayed busy. The technician must be told the test was not journalled, and nothing thrown.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { BackendResult } from '../service-backend.js';
import type { LiveBackendDeps } from './deps.js';
import { deviceTests } from './device-tests.js';
import type { ServiceJournal } from './service-journal.js';

/** A journal that refuses every `service.test`, as a full disk does. */
const refusing: ServiceJournal = {
  action: () => undefined,
  test: () => {
    throw new Error('SQLITE_FULL: database or disk is full');
  },
};

/** Station 1's acceptor and the shoe, each handing its test's callback to the test. */
function rig() {
  const held: { note?: (n: { denomination: number; currency: string }) => void; card?: (c: string) => void } = {};
  const billAcceptors = {
    statuses: () => [{ station: 1, device: 'BA-1' }],
    inhibitedBy: () => [],
    simulator: () => null,
    testNextNote: (_station: number, done: (n: { denomination: number; currency: string }) => void) => {
      held.note = done;
      return () => undefined;
    },
  } as unknown as LiveBackendDeps['billAcceptors'];
  const shoe = {
    simulator: () => null,
    whenGateOpen: () => undefined,
    testNextCard: (done: (c: string) => void) => {
      held.card = done;
      return () => undefined;
    },
  } as unknown as LiveBackendDeps['shoe'];
  const table = { reads: { view: () => ({ phase: 'betting' }) } } as unknown as LiveBackendDeps['table'];
  const tests = deviceTests({ billAcceptors, shoe, table, testTimeoutMs: 1_000 }, refusing);
  return { tests, held };
}

/** The test's answer, or 'pending' when it has not settled. */
async function settled(p: Promise<BackendResult>): Promise<BackendResult | 'pending'> {
  return Promise.race([p, new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending')))]);
}

function assertNotJournalled(r: BackendResult | 'pending'): void {
  assert.notEqual(r, 'pending', 'the test answered (the screen is not left busy)');
  if (r === 'pending') return;
  assert.equal(r.ok, false, 'a test the journal refused is not answered done');
  if (!r.ok) assert.equal(r.notice?.key, 'serviceRefusal.actNotJournalled');
}

describe('a device test whose service.test record the journal refuses', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => mock.timers.reset());

  it('a note validated: the acceptor is not thrown at, and the technician is told it was not journalled', async () => {
    const { tests, held } = rig();
    const answer = tests.testNote(1, 'Tam (2001)');
    assert.ok(held.note);
    const note = held.note;
    assert.doesNotThrow(() => note({ denomination: 10_000, currency: 'MOP' }), 'the acceptor escrow is not thrown at');
    assertNotJournalled(await settled(answer));
    tests.dispose();
  });

  it('a card read: the shoe is not thrown at, and the technician is told it was not journalled', async () => {
    const { tests, held } = rig();
    const answer = tests.testCard('Tam (2001)');
    assert.ok(held.card);
    const card = held.card;
    assert.doesNotThrow(() => card('AS'), 'the shoe is not thrown at');
    assertNotJournalled(await settled(answer));
    tests.dispose();
  });

  it('no note before the time-out: the timer throws nothing (it would end the host)', async () => {
    const { tests } = rig();
    const answer = tests.testNote(1, 'Tam (2001)');
    assert.doesNotThrow(() => mock.timers.tick(1_000), 'the time-out throws nothing');
    assertNotJournalled(await settled(answer));
    tests.dispose();
  });
});
