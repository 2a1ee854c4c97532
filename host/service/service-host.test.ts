import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CommandBody, ServiceState } from '../../protocol/index.js';
import { ServiceState as ServiceStateSchema } from '../../protocol/index.js';
import { AccountStore } from './accounts.js';
import { ServiceHost } from './service-host.js';
import { fakeBackend } from './testing/fake-backend.js';
import { memoryAccountJournal } from './testing/memory-account-journal.js';
import { copyPinHash } from './testing/tamper-accounts.js';
import { manualTimers } from '../testing/manual-timers.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe('service view: access, roles, idle timeout and two-person actions', () => {
  let dir: string;
  let accounts: AccountStore;
  const journal = memoryAccountJournal();
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'service-host-'));
    // Set up as on the command line before the folder has a ledger; the host adopts them.
    const setUp = new AccountStore(dir, { scrypt: FAST });
    await setUp.add({ name: 'Ana', role: 'supervisor', pin: '482915', staff: '1001' }, null);
    const by = { staff: '1001', pin: '482915' };
    await setUp.add({ name: 'Bo', role: 'technician', pin: '739164', staff: '1002' }, by);
    await setUp.add({ name: 'Cy', role: 'auditor', pin: '620481', staff: '1003' }, by);
    await setUp.add({ name: 'Di', role: 'supervisor', pin: '305728', staff: '1004' }, by);
    setUp.close();
    accounts = new AccountStore(dir, { policy: { maxFailures: 3, lockMs: 60_000 }, scrypt: FAST, journal: journal.journal });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A service view and one connection to it (`conn`); `on(other)` drives another connection. */
  const make = () => {
    const t = manualTimers();
    const fake = fakeBackend();
    const refused: string[] = [];
    const host = new ServiceHost({
      accounts,
      backend: fake.backend,
      timers: t.timers,
      idleMs: 60_000,
      confirmMs: 30_000,
      onRefused: (reason) => refused.push(reason),
    });
    let changes = 0;
    host.onChange(() => changes++);
    const on = (conn: string) => ({
      /** Applies a command and waits for any PIN check it started. */
      send: async (c: CommandBody) => {
        const r = host.apply(conn, c);
        for (let i = 0; i < 200 && host.state(conn, 'en').busy; i++) await new Promise((res) => setTimeout(res, 5));
        return r;
      },
      state: () => ServiceStateSchema.parse(host.state(conn, 'en')) as ServiceState,
      gone: () => host.screenGone(conn),
      export: (token: string, kind: 'meters.csv' | 'meters.json' | 'evidence', roundId?: string) => host.exportFile(token, kind, roundId),
    });
    return { host, on, ...on('c1'), ...fake, ...t, changes: () => changes, refused };
  };

  it('adopts the accounts set up before the journal, once, each with a digest of its PIN hash', () => {
    make();
    assert.deepEqual(
      journal.accounts().map((a) => [a.staff, a.action, /^[0-9a-f]{64}$/.test(a.pin ?? '')]),
      [
        ['1001', 'adopt', true],
        ['1002', 'adopt', true],
        ['1003', 'adopt', true],
        ['1004', 'adopt', true],
      ],
    );
    make();
    assert.equal(journal.accounts().length, 4, 'adopted once');
  });

  it('a supervisor disabling an account is journalled at once, and the account is refused in the words of a wrong PIN', async () => {
    const m = make();
    await accounts.manage('1003', 'disable', { staff: '1001', pin: '482915' });
    assert.deepEqual(
      journal
        .accounts()
        .slice(4)
        .map((a) => [a.staff, a.action, a.by]),
      [['1003', 'disable', 'Ana (1001)']],
    );
    await m.send({ name: 'service-sign-in', staff: '1003', pin: '620481' });
    assert.equal(m.state().signedIn, false);
    assert.equal(m.state().notice?.key, 'service.signIn.bad');
    assert.deepEqual(m.journal.at(-1), { type: 'service.denied', payload: { staff: '1003', reason: 'disabled' } });
    await accounts.manage('1003', 'enable', { staff: '1001', pin: '482915' });
    await m.send({ name: 'service-sign-in', staff: '1003', pin: '620481' });
    assert.equal(m.state().signedIn, true);
    assert.deepEqual(
      journal
        .accounts()
        .slice(4)
        .map((a) => a.action),
      ['disable', 'enable'],
    );
  });

  it('before sign-in the state holds no page, session or pending action; every page command is refused', async () => {
    const m = make();
    const s = m.state();
    assert.equal(s.signedIn, false);
    assert.deepEqual(Object.keys(s).sort(), ['busy', 'kind', 'language', 'notice', 'signedIn', 'softwareVersion', 'tableId']);
    for (const c of [
      { name: 'service-page', page: 'meters' },
      { name: 'service-action', action: { kind: 'sync-retry' } },
      { name: 'service-confirm', staff: '1002', pin: '739164' },
      { name: 'service-sign-out' },
    ] as CommandBody[]) {
      const r = await m.send(c);
      assert.ok(!r.ok && r.reason === 'not-signed-in', c.name);
    }
    assert.equal(m.calls.length, 0);
  });

  it('a wrong PIN is refused and journalled; the right one signs in and is journalled with who and role', async () => {
    const m = make();
    await m.send({ name: 'service-sign-in', staff: '1002', pin: '000000' });
    assert.equal(m.state().signedIn, false);
    assert.equal(m.state().notice?.key, 'service.signIn.bad');
    // An unknown staff number gets the same words as a wrong PIN.
    await m.send({ name: 'service-sign-in', staff: '5555', pin: '000000' });
    assert.equal(m.state().notice?.key, 'service.signIn.bad');
    await m.send({ name: 'service-sign-in', staff: '1002', pin: '739164' });
    const s = m.state();
    assert.equal(s.signedIn, true);
    assert.equal(s.session?.name, 'Bo');
    assert.equal(s.session?.role, 'technician');
    assert.equal(s.page?.page, 'status');
    assert.deepEqual(
      m.journal.filter((j) => j.type !== 'service.account').map((j) => [j.type, j.payload.staff, j.payload.reason ?? j.payload.role]),
      [
        ['service.denied', '1002', 'bad-pin'],
        ['service.denied', '5555', 'unknown'],
        ['service.enter', '1002', 'technician'],
      ],
    );
    assert.ok(!(await m.send({ name: 'service-sign-in', staff: '1001', pin: '482915' })).ok, 'a second sign-in over a session is refused');
  });

  it('the idle timeout signs out and journals the exit; any command pushes it back', async () => {
    const m = make();
    await m.send({ name: 'service-sign-in', staff: '1003', pin: '620481' });
    m.advance(50_000);
    await m.send({ name: 'service-page', page: 'meters' });
    m.advance(50_000);
    assert.equal(m.state().signedIn, true, 'the page command restarted the idle time');
    assert.equal(m.state().page?.page, 'meters');
    m.advance(10_001);
    const s = m.state();
    assert.equal(s.signedIn, false);
    assert.equal(s.page, undefined);
    assert.equal(s.notice?.key, 'service.signIn.idle');
    // The exit names its entry (the fake's seq is the journal's length after the push).
    const enterSeq = m.journal.findIndex((j) => j.type === 'service.enter') + 1;
    assert.deepEqual(m.journal.at(-1), { type: 'service.exit', payload: { who: 'Cy', staff: '1003', reason: 'idle', enterSeq } });
  });

  it('sign-out and a closed screen are journalled as exits', async () => {
    const m = make();
    await m.send({ name: 'service-sign-in', staff: '1003', pin: '620481' });
    await m.send({ name: 'service-sign-out' });
    assert.equal(m.journal.at(-1)?.payload.reason, 'sign-out');
    await m.send({ name: 'service-sign-in', staff: '1003', pin: '620481' });
    m.gone();
    assert.equal(m.journal.at(-1)?.payload.reason, 'disconnect');
    assert.equal(m.state().signedIn, false);
  });

  it('each connection signs in on its own: a second tab sees no page nor token, and closing it signs nobody out', async () => {
    const m = make();
    const a = m.on('tab-a');
    const b = m.on('tab-b');
    await a.send({ name: 'service-sign-in', staff: '1001', pin: '482915' });
    assert.equal(a.state().signedIn, true);
    const token = a.state().session?.exportToken ?? '';
    // The second connection holds the same launch token but gets only the sign-in pad.
    const other = b.state();
    assert.equal(other.signedIn, false);
    assert.equal(other.session, undefined);
    assert.equal(other.page, undefined);
    assert.ok(!JSON.stringify(other).includes(token), 'no export token leaks to the other connection');
    const refused = await b.send({ name: 'service-page', page: 'meters' });
    assert.ok(!refused.ok && refused.reason === 'not-signed-in');
    // A two-person action waits on the connection that asked for it only.
    await a.send({ name: 'service-action', action: { kind: 'void-round', roundId: 'R-1', reason: 'x' } });
    assert.ok(a.state().confirm);
    assert.equal(b.state().confirm, undefined);
    const stray = await b.send({ name: 'service-confirm', staff: '1002', pin: '739164' });
    assert.ok(!stray.ok && stray.reason === 'not-signed-in', 'the other tab cannot confirm it');
    // The second connection signs in as someone else, with its own token and idle time.
    m.advance(30_000);
    await b.send({ name: 'service-sign-in', staff: '1003', pin: '620481' });
    assert.equal(b.state().session?.name, 'Cy');
    assert.notEqual(b.state().session?.exportToken, token);
    assert.equal(a.state().session?.name, 'Ana', 'the first session is untouched');
    // Closing the second ends only its session.
    b.gone();
    assert.equal(a.state().signedIn, true);
    assert.notEqual(m.host.exportFile(token, 'meters.csv'), null);
    assert.deepEqual(
      m.host.sessions().map((x) => [x.conn, x.staff]),
      [['tab-a', '1001']],
    );
    assert.deepEqual(
      m.journal.filter((j) => j.type === 'service.exit').map((j) => [j.payload.staff, j.payload.reason]),
      [['1003', 'disconnect']],
    );
    // Idle times are per session: the first one's ends on its own clock.
    m.advance(30_001);
    assert.equal(a.state().signedIn, false);
    assert.equal(a.state().notice?.key, 'service.signIn.idle');
    assert.equal(m.host.exportFile(token, 'meters.csv'), null);
  });

  it('a connection closed while its PIN is checked is never signed in', async () => {
    const m = make();
    const a = m.on('tab-a');
    const check = accounts.check.bind(accounts);
    let checked: Promise<unknown> = Promise.resolve();
    accounts.check = (staff, pin) => (checked = check(staff, pin)) as ReturnType<typeof check>;
    try {
      m.host.apply('tab-a', { name: 'service-sign-in', staff: '1001', pin: '482915' });
      a.gone();
      await checked;
      await new Promise((r) => setImmediate(r));
    } finally {
      accounts.check = check;
    }
    assert.deepEqual(m.host.sessions(), []);
    assert.equal(m.journal.filter((j) => j.type === 'service.enter').length, 0);
  });

  it('an auditor reads every page and changes nothing', async () => {
    const m = make();
    await m.send({ name: 'service-sign-in', staff: '1003', pin: '620481' });
    for (const page of ['status', 'devices', 'meters', 'recall', 'events', 'config', 'holds', 'cashout', 'sync'] as const) {
      assert.ok((await m.send({ name: 'service-page', page })).ok);
      assert.equal(m.state().page?.page, page);
    }
    for (const action of [{ kind: 'sync-retry' }, { kind: 'test-card' }, { kind: 'void-round', roundId: 'R-1', reason: 'x' }, { kind: 'new-shoe' }] as const) {
      const r = await m.send({ name: 'service-action', action });
      assert.ok(!r.ok && r.reason === 'role', action.kind);
    }
    assert.equal(m.calls.length, 0);
  });

  it('a technician runs diagnostics but may not start a two-person action nor close the table', async () => {
    const m = make();
    await m.send({ name: 'service-sign-in', staff: '1002', pin: '739164' });
    assert.ok((await m.send({ name: 'service-action', action: { kind: 'test-note', station: 1 } })).ok);
    assert.deepEqual(
      m.calls.map((c) => c.method),
      ['devices.testNote'],
    );
    assert.deepEqual(m.calls[0]?.args, [1, 'Bo (1002)']);
    for (const action of [
      { kind: 'void-round', roundId: 'R-1', reason: 'x' },
      { kind: 'meter-clear', scope: 'table', authorisation: 'A', reason: 'r' },
      { kind: 'table-open', open: false },
    ] as const) {
      const r = await m.send({ name: 'service-action', action });
      assert.ok(!r.ok && r.reason === 'role', action.kind);
    }
    assert.equal(m.state().confirm, null);
  });

  for (const action of [
    { kind: 'void-round', roundId: 'R-1', reason: 'unreadable card' },
    { kind: 'enter-card', roundId: 'R-1', card: 'AS' },
    { kind: 'meter-clear', scope: 'station:2', authorisation: 'DICJ-77', reason: 'RAM clear after board swap' },
    { kind: 'config-change', key: 'limits.max', value: '500000', authorisation: 'DICJ-78' },
    { kind: 'handpay-confirm', station: 3, requestTxId: 'large' },
    // A held ticket above the two-person amount, as a handpay (the fake holds 2,000,000 at station 3).
    { kind: 'ticket-settle', station: 3, ticket: '5032', outcome: 'void' },
    // A ticket in held after an acceptor's dispute, the same (the fake holds 2,000,000 at station 3).
    { kind: 'ticket-in-settle', station: 3, seq: 57, ticket: '6043', outcome: 'stacked' },
  ] as const) {
    it(`${action.kind} waits for a second, different person and runs with both names`, async () => {
      const m = make();
      await m.send({ name: 'service-sign-in', staff: '1001', pin: '482915' });
      assert.ok((await m.send({ name: 'service-action', action })).ok);
      assert.equal(m.calls.length, 0, 'nothing runs on one person');
      assert.deepEqual(m.state().confirm?.action, action);
      assert.equal(m.state().confirm?.requestedBy, 'Ana (1001)');
      // The same person cannot confirm their own action; an auditor cannot; a wrong PIN cannot.
      await m.send({ name: 'service-confirm', staff: '1001', pin: '482915' });
      assert.equal(m.state().notice?.key, 'service.confirm.samePerson');
      await m.send({ name: 'service-confirm', staff: '1003', pin: '620481' });
      assert.equal(m.state().notice?.key, 'service.confirm.role');
      await m.send({ name: 'service-confirm', staff: '1002', pin: '111111' });
      assert.equal(m.state().notice?.key, 'service.signIn.bad');
      assert.equal(m.calls.length, 0);
      assert.ok(m.state().confirm, 'still waiting');
      await m.send({ name: 'service-confirm', staff: '1002', pin: '739164' });
      assert.equal(m.calls.length, 1);
      // The two names are the action's one array argument (a void's last argument is its optional reason).
      const names = m.calls[0]?.args.find((a) => Array.isArray(a));
      assert.deepEqual(names, ['Ana (1001)', 'Bo (1002)']);
      assert.equal(m.state().confirm, null);
      assert.equal(m.state().notice?.ok, true);
    });
  }

  it('a configuration change the host would refuse is refused before a second person is called', async () => {
    const m = make();
    await m.send({ name: 'service-sign-in', staff: '1001', pin: '482915' });
    assert.ok((await m.send({ name: 'service-action', action: { kind: 'config-change', key: 'seats', value: '6', authorisation: 'DICJ-2026/123' } })).ok);
    assert.equal(m.state().confirm, null);
    // Said by the refusal's own key and its facts, never the host's English (the fallback `service.failed.refused` with its detail is gone).
    assert.equal(m.state().notice?.key, 'configRefusal.notChangeable');
    assert.deepEqual(m.state().notice?.values, { setting: 'seats', changeable: 'betLimits' });
    assert.equal(m.calls.length, 0);
  });

  it('a held ticket at or under the two-person amount is settled by one person, a technician too, with their name; above it a technician may not start it', async () => {
    const m = make();
    await m.send({ name: 'service-sign-in', staff: '1002', pin: '739164' });
    await m.send({ name: 'service-action', action: { kind: 'ticket-settle', station: 2, ticket: '1111', outcome: 'printed' } });
    assert.equal(m.state().confirm, null, 'no second person');
    assert.deepEqual(
      m.calls.map((c) => [c.method, ...c.args]),
      [['tickets.settle', 2, '1111', 'printed', ['Bo (1002)']]],
    );
    await m.send({ name: 'service-action', action: { kind: 'ticket-settle', station: 3, ticket: '5032', outcome: 'void' } });
    assert.equal(m.calls.length, 1, 'above the amount a technician starts nothing');
    assert.equal(m.state().confirm, null);
  });

  it('a held ticket in at or under the two-person amount is settled by one person, a technician too; above it a technician may not start it', async () => {
    const m = make();
    await m.send({ name: 'service-sign-in', staff: '1002', pin: '739164' });
    await m.send({ name: 'service-action', action: { kind: 'ticket-in-settle', station: 2, seq: 41, ticket: '2222', outcome: 'returned' } });
    assert.equal(m.state().confirm, null, 'no second person');
    assert.deepEqual(
      m.calls.map((c) => [c.method, ...c.args]),
      [['tickets.settleIn', { station: 2, seq: 41, last4: '2222' }, 'returned', ['Bo (1002)']]],
    );
    await m.send({ name: 'service-action', action: { kind: 'ticket-in-settle', station: 3, seq: 57, ticket: '6043', outcome: 'stacked' } });
    assert.equal(m.calls.length, 1, 'above the amount a technician starts nothing');
    assert.equal(m.state().confirm, null);
  });

  it('a handpay at or under the configured amount needs one person; a pending action expires and can be cancelled', async () => {
    const m = make();
    await m.send({ name: 'service-sign-in', staff: '1004', pin: '305728' });
    await m.send({ name: 'service-action', action: { kind: 'handpay-confirm', station: 2, requestTxId: 'small' } });
    assert.deepEqual(
      m.calls.map((c) => [c.method, c.args.at(-1)]),
      [['cashout.confirmHandpay', ['Di (1004)']]],
    );
    await m.send({ name: 'service-action', action: { kind: 'void-round', roundId: 'R-1', reason: 'x' } });
    m.advance(30_001);
    assert.equal(m.state().confirm, null);
    assert.equal(m.state().notice?.key, 'service.confirm.expired');
    const r = await m.send({ name: 'service-confirm', staff: '1002', pin: '739164' });
    assert.ok(!r.ok && r.reason === 'no-confirm');
    await m.send({ name: 'service-action', action: { kind: 'void-round', roundId: 'R-1', reason: 'x' } });
    await m.send({ name: 'service-cancel' });
    assert.equal(m.state().confirm, null);
    assert.equal(m.calls.length, 1);
  });

  it("wrong PINs at the confirmation count toward that person's lockout", async () => {
    const m = make();
    await m.send({ name: 'service-sign-in', staff: '1001', pin: '482915' });
    await m.send({ name: 'service-action', action: { kind: 'void-round', roundId: 'R-1', reason: 'x' } });
    for (const pin of ['000001', '000002', '000003']) await m.send({ name: 'service-confirm', staff: '1004', pin });
    assert.equal(m.state().notice?.key, 'service.signIn.locked');
    await m.send({ name: 'service-confirm', staff: '1004', pin: '305728' });
    assert.equal(m.state().notice?.key, 'service.signIn.locked');
    assert.equal(m.calls.length, 0);
  });

  it("exports answer only the signed-in session's token", async () => {
    const m = make();
    assert.equal(m.host.exportFile('x'.repeat(32), 'meters.csv'), null);
    await m.send({ name: 'service-sign-in', staff: '1003', pin: '620481' });
    const token = m.state().session?.exportToken ?? '';
    assert.equal(m.host.exportFile(token.slice(0, -1) + (token.endsWith('a') ? 'b' : 'a'), 'meters.csv'), null);
    assert.equal(m.host.exportFile(token, 'meters.csv')?.contentType, 'text/csv; charset=utf-8');
    assert.equal(m.host.exportFile(token, 'evidence', 'R-1')?.body, '{"round":"R-1"}');
    assert.equal(m.host.exportFile(token, 'evidence', 'nope'), null);
    await m.send({ name: 'service-sign-out' });
    assert.equal(m.host.exportFile(token, 'meters.csv'), null, 'the token dies with the session');
  });
});

describe('service view: the limits on PINs, the second person as a session of their own', () => {
  let dir: string;
  let accounts: AccountStore;
  const journal = memoryAccountJournal();
  const ana = { staff: '1001', pin: '482915' };
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'service-limits-'));
    accounts = new AccountStore(dir, { scrypt: FAST, journal: journal.journal });
    await accounts.add({ name: 'Ana', role: 'supervisor', pin: ana.pin, staff: ana.staff }, null);
    await accounts.add({ name: 'Bo', role: 'technician', pin: '739164', staff: '1002' }, ana);
    await accounts.add({ name: 'Di', role: 'supervisor', pin: '305728', staff: '1004' }, ana);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const make = () => {
    const t = manualTimers();
    const fake = fakeBackend();
    const refused: string[] = [];
    const host = new ServiceHost({
      accounts,
      backend: fake.backend,
      timers: t.timers,
      limits: { connection: { burst: 5, everyMs: 15_000 }, journal: { burst: 10, everyMs: 10_000 } },
      onRefused: (reason) => refused.push(reason),
    });
    const on = (conn: string) => ({
      send: async (c: CommandBody) => {
        const r = host.apply(conn, c);
        for (let i = 0; i < 200 && host.state(conn, 'en').busy; i++) await new Promise((res) => setTimeout(res, 5));
        return r;
      },
      state: () => ServiceStateSchema.parse(host.state(conn, 'en')) as ServiceState,
    });
    return { host, on, ...on('c1'), ...fake, ...t, refused };
  };
  const bursts = (m: ReturnType<typeof make>) => m.journal.filter((j) => j.type === 'tilt.raise' && j.payload.kind === 'service-sign-in-burst').length;

  it('one connection tries five PINs, then is refused until its bucket refills; each refusal raises the burst fault', async () => {
    const m = make();
    for (let i = 0; i < 5; i++) assert.ok((await m.send({ name: 'service-sign-in', staff: String(3000 + i), pin: '104729' })).ok);
    const sixth = await m.send({ name: 'service-sign-in', staff: '3005', pin: '104729' });
    assert.ok(!sixth.ok && sixth.reason === 'rate-limited');
    assert.equal(bursts(m), 1);
    assert.deepEqual(m.refused.slice(-2), ['unknown', 'rate-limited-connection']);
    m.advance(15_000);
    assert.ok((await m.send({ name: 'service-sign-in', staff: '3006', pin: '104729' })).ok, 'one more after 15 s');
    assert.ok(!(await m.send({ name: 'service-sign-in', staff: '3007', pin: '104729' })).ok);
  });

  it('a right PIN gives its attempt back: staff signing in and out are never held up', async () => {
    const m = make();
    for (let i = 0; i < 12; i++) {
      await m.send({ name: 'service-sign-in', staff: '1002', pin: '739164' });
      assert.equal(m.state().signedIn, true, `sign-in ${i}`);
      await m.send({ name: 'service-sign-out' });
    }
    assert.equal(bursts(m), 0);
  });

  it("other connections' attempts never refuse a connection's own; the table journals ten refusals at once, then counts them (issue 50)", async () => {
    const m = make();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => m.on(`t${i}`).send({ name: 'service-sign-in', staff: String(4000 + i), pin: '104729' })),
    );
    assert.ok(answers.every((r) => r.ok));
    assert.equal(m.refused.filter((r) => r === 'unknown').length, 12);
    assert.equal(m.journal.filter((j) => j.type === 'service.denied').length, 10, 'ten journalled, two counted');
    assert.ok(bursts(m) >= 1, 'the refusals not journalled raise the burst fault');
    // A right PIN from yet another connection is checked and signs in.
    await m.on('t99').send({ name: 'service-sign-in', ...ana });
    assert.equal(m.on('t99').state().signedIn, true);
    // Over the budget, a lock is still journalled (an account of this test's own: the others stay unlocked).
    await accounts.add({ name: 'Eu', role: 'technician', pin: '620417', staff: '1005' }, ana);
    for (let i = 0; i < 5; i++) await m.on(`l${i}`).send({ name: 'service-sign-in', staff: '1005', pin: String(510_000 + i) });
    const locks = m.journal.filter((j) => j.type === 'service.denied' && j.payload.staff === '1005' && j.payload.reason === 'locked');
    assert.equal(locks.length, 1, JSON.stringify(m.journal.filter((j) => j.type === 'service.denied')));
  });

  it("the second person's confirmation is their own session, journalled in and out around the act", async () => {
    const m = make();
    await m.send({ name: 'service-sign-in', ...ana });
    await m.send({ name: 'service-action', action: { kind: 'meter-clear', scope: 'table', authorisation: 'DICJ-9', reason: 'r' } });
    await m.send({ name: 'service-confirm', staff: '1002', pin: '739164' });
    assert.equal(m.calls.length, 1);
    const access = m.journal.filter((j) => j.type === 'service.enter' || j.type === 'service.exit').map((j) => [j.type, j.payload.staff, j.payload.reason]);
    assert.deepEqual(access, [
      ['service.enter', '1001', undefined],
      ['service.enter', '1002', undefined],
      ['service.exit', '1002', 'confirmed'],
    ]);
    const enterSeq = m.journal.findIndex((j) => j.type === 'service.enter' && j.payload.staff === '1002') + 1;
    assert.equal(m.journal.find((j) => j.type === 'service.exit')?.payload.enterSeq, enterSeq);
  });

  it('a first person disabled, or no longer a supervisor, since asking gets nothing done', async () => {
    const m = make();
    await m.send({ name: 'service-sign-in', staff: '1004', pin: '305728' });
    await m.send({ name: 'service-action', action: { kind: 'meter-clear', scope: 'table', authorisation: 'DICJ-9', reason: 'r' } });
    await accounts.manage('1004', 'disable', ana);
    await m.send({ name: 'service-confirm', staff: '1002', pin: '739164' });
    assert.equal(m.state().notice?.key, 'service.confirm.firstRefused');
    assert.equal(m.state().confirm, null);
    assert.equal(m.calls.length, 0);
    await accounts.manage('1004', 'enable', ana);
  });

  it('a row changed behind the journal is refused in its own words, journalled, and raises the integrity fault', async () => {
    const m = make();
    copyPinHash(dir, '1001', '1002');
    await m.send({ name: 'service-sign-in', staff: '1002', pin: ana.pin });
    assert.equal(m.state().signedIn, false);
    assert.equal(m.state().notice?.key, 'service.signIn.integrity');
    assert.deepEqual(m.journal.at(-1), { type: 'service.denied', payload: { staff: '1002', reason: 'integrity' } });
    assert.ok(m.journal.some((j) => j.type === 'tilt.raise' && j.payload.kind === 'accounts-integrity'));
    // At the next start the host finds it too.
    const again = make();
    assert.ok(
      again.journal.some(
        (j) => j.type === 'tilt.raise' && j.payload.kind === 'accounts-integrity' && /service account 1002: its PIN hash/.test(String(j.payload.detail)),
      ),
    );
  });
});
