// Hostile tests of cash-out tickets' redemption (issue 47 item 6): a barcode of the right shape
// never issued, a replay after redemption, one ticket at two tables at once, a ticket of another
// currency, a table redeeming as another, and an authority that answers twice, late, never, or with
// an answer it was not asked for. Each ends with the ticket paid at most once and the register
// saying where it stands; a redemption left pending by an answer lost on the way is closed by the
// cancel, or by the redeeming table's journal when it syncs — never by a timer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { guardAuthority, type GuardEvent } from '../../host/tickets/guard.js';
import { UpstreamAuthority } from '../../host/tickets/upstream-authority.js';
import { signRequest, SIGNATURE_HEADERS } from '../../ledger/sign.js';
import { parseValidationNumber, validationNumber, ValidationNumber } from '../../terms/validation-number.js';
import { alarms, DEFAULT_LIMITS, enrolTerminal, ingest, migrateUpstream, openPglite, type Db, type RunningUpstream } from '../../upstream/index.js';
import { ticketByNumber } from '../../upstream/ticket-queries.js';
import { HostileProxy, type Behaviour } from '../tickets/hostile-proxy.js';
import { FakeJournal, printed, redemption, startFloor, type FloorTable } from '../tickets/kit.js';

let db: Db;
let up: RunningUpstream;
let t1: FloorTable;
let t2: FloorTable;
let t3: FloorTable;
const proxies: HostileProxy[] = [];

before(async () => {
  db = await openPglite();
  await migrateUpstream(db);
  const floor = await startFloor(db, 3);
  up = floor.up;
  [t1, t2, t3] = floor.tables as [FloorTable, FloorTable, FloorTable];
});
after(async () => {
  for (const p of proxies) await p.close();
  await up?.close();
  await db?.close();
});

const stateOf = async (v: string) => (await ticketByNumber(db, v)).ticket?.state;

/** Waits (polling the register) until the ticket is in `state`; a timeout names where it stands. */
async function settles(v: string, state: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if ((await stateOf(v)) === state) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(await stateOf(v), state);
}

/** `table` speaking to the upstream through a proxy that behaves so on redemptions (and as `others` on the rest). */
async function throughProxy(table: FloorTable, redeem: Behaviour, o: { deadlineMs?: number; others?: Behaviour; events?: GuardEvent[] } = {}) {
  const proxy = new HostileProxy(up.url, (path) => (path === '/v1/tickets/redeem' ? redeem : (o.others ?? { kind: 'pass' })));
  proxies.push(proxy);
  const url = await proxy.listen();
  const authority = guardAuthority(new UpstreamAuthority({ url, credentials: table.credentials, timeoutMs: 60_000 }), {
    deadlineMs: o.deadlineMs ?? 60_000,
    wordDeadlineMs: 2_000,
    onEvent: (e) => o.events?.push(e),
  });
  return { proxy, authority };
}

describe('tickets against hostile peers', () => {
  it('a barcode of the right shape never issued is refused (unknown), and the attempt is kept; a shape-only one never leaves the table', async () => {
    const forged = validationNumber(t1.machineId, 9_999);
    const q = redemption({ validation: forged }, 4);
    assert.deepEqual(await t2.authority.redeem(q), { kind: 'refused', requestId: q.requestId, reason: 'unknown' });
    const view = await ticketByNumber(db, forged);
    assert.equal(view.ticket, null);
    assert.deepEqual(
      view.attempts.map((a) => [a.terminalId, a.station, a.outcome, a.reason]),
      [['T-2', 4, 'refused', 'unknown']],
    );
    // 18 digits whose check digits are wrong: refused by the guard, no request made.
    const { proxy, authority } = await throughProxy(t2, { kind: 'pass' });
    const shapeOnly = {
      ...redemption({ validation: forged }, 4),
      validation: ValidationNumber.parse(`${forged.slice(0, 17)}${(Number(forged[17]) + 1) % 10}`),
    };
    assert.equal(parseValidationNumber(shapeOnly.validation).ok, false);
    assert.deepEqual(await authority.redeem(shapeOnly), { kind: 'refused', requestId: shapeOnly.requestId, reason: 'unknown' });
    assert.deepEqual(proxy.seen, []);
  });

  it('a ticket replayed after its redemption is refused (already-paid), at the table that paid it and at another', async () => {
    const t = await printed(t1, 5_000);
    const q = redemption(t, 2);
    assert.equal((await t2.authority.redeem(q)).kind, 'approved');
    assert.deepEqual(await t2.authority.confirm(q.requestId, q), { ok: true });
    for (const table of [t2, t3, t1]) {
      const again = redemption(t, 3);
      assert.deepEqual(await table.authority.redeem(again), { kind: 'refused', requestId: again.requestId, reason: 'already-paid' });
    }
    assert.equal(await stateOf(t.validation), 'redeemed');
  });

  it('the same ticket at two tables at the same moment: one approved, the other refused pending-elsewhere, then already-paid', async () => {
    const t = await printed(t1, 7_000);
    const a = redemption(t, 1);
    const b = redemption(t, 1);
    const [x, y] = await Promise.all([t2.authority.redeem(a), t3.authority.redeem(b)]);
    const kinds = [x.kind, y.kind].sort();
    assert.deepEqual(kinds, ['approved', 'refused']);
    const loser = x.kind === 'refused' ? x : y;
    assert.equal(loser.kind === 'refused' && loser.reason, 'pending-elsewhere');
    const [winner, q] = x.kind === 'approved' ? [t2, a] : [t3, b];
    assert.deepEqual(await winner.authority.confirm(q.requestId, q), { ok: true });
    const later = redemption(t, 1);
    assert.deepEqual(await (winner === t2 ? t3 : t2).authority.redeem(later), { kind: 'refused', requestId: later.requestId, reason: 'already-paid' });
  });

  it('a ticket of another currency is refused at a table of this one, and paid at a table of its own', async () => {
    const t = await printed(t1, 10_000, { currency: 'HKD' });
    const mop = redemption(t, 1, { currency: 'MOP' });
    assert.deepEqual(await t2.authority.redeem(mop), { kind: 'refused', requestId: mop.requestId, reason: 'other-currency' });
    const hkd = redemption(t, 1, { currency: 'HKD' });
    assert.equal((await t3.authority.redeem(hkd)).kind, 'approved');
  });

  it('a table cannot redeem, confirm or cancel as another', async () => {
    const t = await printed(t1, 3_000);
    // T-1's key with T-2's name: the signature is T-1's, so the upstream refuses it (401) and nothing is recorded.
    const impostor = guardAuthority(new UpstreamAuthority({ url: up.url, credentials: { terminalId: 'T-2', key: t1.credentials.key } }), {
      deadlineMs: 60_000,
    });
    const q = redemption(t, 1);
    assert.deepEqual(await impostor.redeem(q), { kind: 'refused', requestId: q.requestId, reason: 'offline' });
    assert.deepEqual((await ticketByNumber(db, t.validation)).attempts, []);
    // Signed by T-1 (its own key), naming T-2 in the body: 403, and an alarm.
    const body = JSON.stringify({ terminalId: 'T-2', requestId: 'as-another-1', validation: t.validation, station: 1, currency: 'MOP', limit: 1_000_000 });
    const ts = Date.now();
    const res = await fetch(`${up.url}/v1/tickets/redeem`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADERS.terminal]: 'T-1',
        [SIGNATURE_HEADERS.timestamp]: String(ts),
        [SIGNATURE_HEADERS.signature]: signRequest(Buffer.from(t1.credentials.key, 'base64'), 'POST', '/v1/tickets/redeem', 'T-1', ts, body),
      },
      body,
    });
    assert.equal(res.status, 403);
    assert.ok((await alarms(db, 'T-1')).some((a) => a.kind === 'ticket-foreign-terminal'));
    // T-2 holds the ticket; T-1, knowing T-2's request id, can neither confirm nor cancel T-2's attempt.
    const held = redemption(t, 5);
    assert.equal((await t2.authority.redeem(held)).kind, 'approved');
    assert.equal((await t1.authority.confirm(held.requestId, held)).ok, false);
    assert.equal(await stateOf(t.validation), 'pending');
    assert.deepEqual(await t1.authority.cancel(held.requestId, held), { ok: true }); // a tombstone of T-1's own, nothing of T-2's
    assert.equal(await stateOf(t.validation), 'pending');
    assert.deepEqual(await t2.authority.confirm(held.requestId, held), { ok: true });
    assert.equal(await stateOf(t.validation), 'redeemed');
  });

  it('an authority that answers late: offline at the deadline, the late approval cancelled, the ticket paid once elsewhere', async () => {
    const t = await printed(t1, 4_000);
    const events: GuardEvent[] = [];
    const { authority } = await throughProxy(t2, { kind: 'late', ms: 1_500 }, { deadlineMs: 300, events });
    const q = redemption(t, 6);
    assert.deepEqual(await authority.redeem(q), { kind: 'refused', requestId: q.requestId, reason: 'offline' });
    await settles(t.validation, 'printed');
    // The approval arrives after the deadline: the guard cancels again; the host acted on nothing.
    const until = Date.now() + 10_000;
    while (!events.some((e) => e.kind === 'late') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    assert.ok(
      events.some((e) => e.kind === 'late'),
      JSON.stringify(events),
    );
    assert.equal(await stateOf(t.validation), 'printed');
    const elsewhere = redemption(t, 1);
    assert.equal((await t3.authority.redeem(elsewhere)).kind, 'approved');
    assert.deepEqual(await t3.authority.confirm(elsewhere.requestId, elsewhere), { ok: true });
    const view = await ticketByNumber(db, t.validation);
    assert.deepEqual(view.attempts.map((a) => a.outcome).sort(), ['returned', 'stacked']);
  });

  it('an authority that never answers, and loses the cancels too: offline; the pending ticket is closed by the table journal when it syncs', async () => {
    const t = await printed(t1, 6_000);
    const { authority } = await throughProxy(t2, { kind: 'never' }, { deadlineMs: 300, others: { kind: 'drop' } });
    const q = redemption(t, 2);
    assert.deepEqual(await authority.redeem(q), { kind: 'refused', requestId: q.requestId, reason: 'offline' });
    await settles(t.validation, 'pending');
    // Held for T-2's lost attempt: no one else is paid it, and no timer lets it go.
    const meanwhile = redemption(t, 1);
    assert.deepEqual(await t3.authority.redeem(meanwhile), { kind: 'refused', requestId: meanwhile.requestId, reason: 'pending-elsewhere' });
    // T-2 returned the ticket and journalled it; its journal syncs.
    const journal = new FakeJournal('T-2');
    const r = await ingest(
      db,
      journal.batch([
        { type: 'ticket.redeem.request', payload: { requestId: q.requestId, validation: t.validation, station: 2 } },
        { type: 'ticket.redeem.returned', payload: { requestId: q.requestId, validation: t.validation, station: 2, reason: 'offline' } },
      ]),
    );
    assert.equal(r.status, 200);
    assert.equal(await stateOf(t.validation), 'printed');
    const now = redemption(t, 1);
    assert.equal((await t3.authority.redeem(now)).kind, 'approved');
  });

  it('an authority that answers twice (a request delivered twice): the host acts on one answer; the ticket is paid once', async () => {
    // The first copy's answer reaches the host: approved; the second copy is refused by the upstream as a replay.
    const t = await printed(t1, 2_500);
    const first = await throughProxy(t2, { kind: 'twice', answer: 0 });
    const q = redemption(t, 3);
    const a = await first.authority.redeem(q);
    assert.equal(a.kind, 'approved');
    // Asked again with the same attempt (a host that would act twice): refused, no second approval.
    assert.deepEqual(await first.authority.redeem(q), { kind: 'refused', requestId: q.requestId, reason: 'offline' });
    assert.deepEqual(await first.authority.confirm(q.requestId, q), { ok: true });
    assert.equal(await stateOf(t.validation), 'redeemed');
    // The second copy's answer reaches the host: a replay refusal is no answer (offline), and the attempt is cancelled.
    const u = await printed(t1, 2_600);
    const second = await throughProxy(t3, { kind: 'twice', answer: 1 });
    const r = redemption(u, 3);
    assert.deepEqual(await second.authority.redeem(r), { kind: 'refused', requestId: r.requestId, reason: 'offline' });
    await settles(u.validation, 'printed');
    const later = redemption(u, 1);
    assert.equal((await t2.authority.redeem(later)).kind, 'approved');
  });

  it('an authority whose approval is not what was asked (another ticket, request, currency, or over the limit) is not believed', async () => {
    const t = await printed(t1, 1_000);
    const other = await printed(t1, 1_000);
    const q = redemption(t, 1, { limit: 50_000 });
    const lies: unknown[] = [
      { kind: 'approved', requestId: q.requestId, validation: other.validation, amount: 1_000, currency: 'MOP' },
      { kind: 'approved', requestId: 'someone-elses-request', validation: t.validation, amount: 1_000, currency: 'MOP' },
      { kind: 'approved', requestId: q.requestId, validation: t.validation, amount: 1_000, currency: 'HKD' },
      { kind: 'approved', requestId: q.requestId, validation: t.validation, amount: 50_001, currency: 'MOP' },
      { kind: 'approved', requestId: q.requestId, validation: t.validation, amount: 10.5, currency: 'MOP' },
      { kind: 'refused', requestId: q.requestId, reason: 'because' },
    ];
    for (const lie of lies) {
      const events: GuardEvent[] = [];
      const { authority } = await throughProxy(t2, { kind: 'forge', status: 200, body: lie }, { events });
      const attempt = { ...q, requestId: redemption(t).requestId };
      const forged =
        typeof lie === 'object' && lie !== null && 'requestId' in lie && lie.requestId === q.requestId ? { ...lie, requestId: attempt.requestId } : lie;
      const { authority: liar } = await throughProxy(t2, { kind: 'forge', status: 200, body: forged }, { events });
      void authority;
      assert.deepEqual(await liar.redeem(attempt), { kind: 'refused', requestId: attempt.requestId, reason: 'offline' }, JSON.stringify(lie));
    }
    assert.equal(await stateOf(t.validation), 'printed');
  });

  it('a table with good credentials asking for numbers no paper was read for (the scheme is public) is stopped after the floor’s limit of refusals', async () => {
    // The guesser walks another table's sequence: numbers that pass the check, mostly never printed or already paid.
    const enrolled = await enrolTerminal(db, 'T-GUESS');
    const guesser = new UpstreamAuthority({ url: up.url, credentials: { terminalId: enrolled.terminalId, key: enrolled.key }, timeoutMs: 60_000 });
    const outstanding = await printed(t1, 9_000);
    const refusedAs: string[] = [];
    for (let s = t1.sequence + 1; refusedAs.length < DEFAULT_LIMITS.ticketRefusals; s++) {
      const q = redemption({ validation: validationNumber(t1.machineId, s) }, 3);
      const d = await guesser.redeem(q);
      refusedAs.push(d.kind === 'refused' ? d.reason : d.kind);
      // As the table's own software does after every refusal (and its journal's ticket.redeem.returned again): the count must stand.
      await guesser.cancel(q.requestId, q);
    }
    assert.deepEqual(new Set(refusedAs), new Set(['unknown']));
    // Past the limit, even a number that is a real ticket is refused, and the ticket stays redeemable at its owner's table.
    const guessed = await guesser.redeem(redemption(outstanding, 3));
    assert.equal(guessed.kind === 'refused' ? guessed.reason : guessed.kind, 'offline');
    assert.equal(await stateOf(outstanding.validation), 'printed');
    assert.equal((await alarms(db, 'T-GUESS')).filter((a) => a.kind === 'ticket-refusals').length, 1);
    assert.equal((await t2.authority.redeem(redemption(outstanding, 1))).kind, 'approved', 'the other tables are not stopped');
  });
});
