// The validation authority's register in the upstream (issue 47 item 4): migration 6, the machine
// ids, a ticket's life issued → printed → pending → redeemed, every refusal, the cancel and its
// tombstone, and the tables' journals resolving what their words left open. One PGlite in memory
// (its start takes seconds on a loaded machine): migrated to 5, then to 6, then used throughout.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { alarms, enrolTerminal, ingest, migrateUpstream, openPglite, UPSTREAM_LATEST, type Db } from '../../upstream/index.js';
import { ticketByNumber, ticketLiability } from '../../upstream/ticket-queries.js';
import { cancel, confirm, machineIdOf, redeem, registerIssue, registerPrinted, registerVoid } from '../../upstream/tickets.js';
import { validationNumber } from '../../terms/validation-number.js';
import { TICKET_PAYLOADS } from '../../terms/ticket-terms.js';
import { DAY, FakeJournal, requestId, ticket } from './kit.js';

/** An attempt at station 3 (of whichever table asks). */
const ask = (t: { validation: string }, over: { currency?: string; limit?: number; requestId?: string } = {}) => ({
  requestId: over.requestId ?? requestId(),
  validation: t.validation,
  station: 3,
  currency: over.currency ?? 'MOP',
  limit: over.limit ?? 1_000_000,
});

describe('the upstream as validation authority (migration 6)', () => {
  let db: Db;
  let m1: number;
  let m2: number;
  let migrated: number[][] = [];
  before(async () => {
    db = await openPglite();
    migrated = [await migrateUpstream(db, 5), await migrateUpstream(db, 6), await migrateUpstream(db, 8)];
    await migrateUpstream(db); // the latest: 11 marks a ticket registered on the word alone
    for (const t of ['T-1', 'T-2', 'T-3']) await enrolTerminal(db, t);
    m1 = await machineIdOf(db, 'T-1');
    m2 = await machineIdOf(db, 'T-2');
  });
  after(async () => db.close());

  it('migrates from version 5 to 6, then on (7: the back office configuration requests; 8: each table its currency)', async () => {
    assert.deepEqual(migrated, [[1, 2, 3, 4, 5], [6], [7, 8]]);
    assert.ok(UPSTREAM_LATEST >= 8);
    const cols = await db.query<{ table_name: string }>(
      "SELECT DISTINCT table_name FROM information_schema.columns WHERE table_name IN ('tickets', 'ticket_machines', 'ticket_redemptions') ORDER BY 1",
    );
    assert.deepEqual(
      cols.rows.map((r) => r.table_name),
      ['ticket_machines', 'ticket_redemptions', 'tickets'],
    );
    // The state is a closed list, and a pending or redeemed ticket names its redemption.
    await assert.rejects(
      db.query(
        "INSERT INTO tickets (validation, terminal_id, station, machine_id, sequence, amount, currency, issued_at, expires_at, state) VALUES ('001234567890123456', 'T-1', 1, 1, 1, 5, 'MOP', now(), now(), 'pending')",
      ),
    );
    await assert.rejects(
      db.query(
        "INSERT INTO tickets (validation, terminal_id, station, machine_id, sequence, amount, currency, issued_at, expires_at, state) VALUES ('001234567890123456', 'T-1', 1, 1, 1, 5, 'MOP', now(), now(), 'lost')",
      ),
    );
  });

  it('gives each table its own validation id, the same on every ask', async () => {
    assert.notEqual(m1, m2);
    assert.equal(await machineIdOf(db, 'T-1'), m1);
    assert.equal(await machineIdOf(db, 'T-2'), m2);
  });

  it('a ticket: issued (not redeemable), printed, approved for one station, refused elsewhere, confirmed, never again', async () => {
    const t = ticket(m1, 1, 12_300);
    assert.deepEqual(await db.transaction((tx) => registerIssue(tx, 'T-1', t)), { ok: true });
    // Issued, its print not yet confirmed: no one may be paid it yet.
    assert.deepEqual(await redeem(db, 'T-2', ask(t, { requestId: 'fixed-id-1' })), { kind: 'refused', requestId: 'fixed-id-1', reason: 'unknown' });
    assert.deepEqual(await registerPrinted(db, 'T-1', t), { ok: true });
    const first = ask(t);
    assert.deepEqual(await redeem(db, 'T-2', first), {
      kind: 'approved',
      requestId: first.requestId,
      validation: t.validation,
      amount: 12_300,
      currency: 'MOP',
    });
    // The same attempt asked again: the same approval (one hold, not two).
    assert.deepEqual((await redeem(db, 'T-2', first)).kind, 'approved');
    assert.deepEqual(await redeem(db, 'T-3', { ...ask(t), requestId: 'other-table-1' }), {
      kind: 'refused',
      requestId: 'other-table-1',
      reason: 'pending-elsewhere',
    });
    assert.deepEqual(await confirm(db, 'T-2', first.requestId, first), { ok: true });
    assert.deepEqual(await confirm(db, 'T-2', first.requestId, first), { ok: true });
    const replay = ask(t);
    assert.deepEqual(await redeem(db, 'T-3', replay), { kind: 'refused', requestId: replay.requestId, reason: 'already-paid' });
    assert.deepEqual(await redeem(db, 'T-2', first), { kind: 'refused', requestId: first.requestId, reason: 'already-paid' });
    const view = await ticketByNumber(db, t.validation);
    assert.equal(view.ticket?.state, 'redeemed');
    assert.deepEqual(view.ticket?.redemption && [view.ticket.redemption.terminalId, view.ticket.redemption.station], ['T-2', 3]);
    // Every attempt kept, once each: the one before the print, the paid one, the two refused while and after.
    assert.deepEqual(
      view.attempts.map((a) => [a.terminalId, a.outcome, a.reason]),
      [
        ['T-2', 'refused', 'unknown'],
        ['T-2', 'stacked', null],
        ['T-3', 'refused', 'pending-elsewhere'],
        ['T-3', 'refused', 'already-paid'],
      ],
    );
  });

  it('refuses: never issued (right shape), voided, other currency, over the limit, expired, a number the scheme cannot make', async () => {
    const never = validationNumber(m1, 999_999);
    assert.equal((await redeem(db, 'T-2', ask({ validation: never }))).kind === 'refused' && 'unknown', 'unknown');
    const reason = async (v: string, over = {}) => {
      const d = await redeem(db, 'T-2', ask({ validation: v }, over));
      return d.kind === 'refused' ? d.reason : 'approved';
    };
    assert.equal(await reason(never), 'unknown');
    assert.equal(await reason('001111111111111111'), 'unknown');
    const voided = ticket(m1, 2, 500);
    await registerIssue(db, 'T-1', voided);
    assert.deepEqual(await registerVoid(db, 'T-1', voided), { ok: true });
    assert.equal(await reason(voided.validation), 'voided');
    assert.deepEqual(await registerPrinted(db, 'T-1', voided), { ok: false, error: 'voided', message: 'the ticket was voided' });
    const hkd = ticket(m1, 3, 500, { currency: 'HKD' });
    await registerIssue(db, 'T-1', hkd);
    await registerPrinted(db, 'T-1', hkd);
    assert.equal(await reason(hkd.validation), 'other-currency');
    assert.equal(await reason(hkd.validation, { currency: 'HKD' }), 'approved');
    const big = ticket(m1, 4, 5_000_000);
    await registerIssue(db, 'T-1', big);
    await registerPrinted(db, 'T-1', big);
    assert.equal(await reason(big.validation, { limit: 4_999_999 }), 'over-limit');
    const old = ticket(m1, 5, 700, { issuedAt: Date.now() - 40 * DAY, days: 30 });
    await registerIssue(db, 'T-1', old);
    await registerPrinted(db, 'T-1', old);
    assert.equal(await reason(old.validation), 'expired');
    assert.equal((await ticketByNumber(db, old.validation)).ticket?.state, 'expired');
  });

  it('a ticket the casino system numbered (SAS system validation) is never registered here, alarms nothing, and is never paid here', async () => {
    const t = TICKET_PAYLOADS['ticket.issue'].parse({
      validation: '120000000000004801',
      systemId: 12,
      requestId: requestId(),
      sequence: 9,
      station: 1,
      amount: 10_000,
      currency: 'MOP',
      issuedAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 30 * DAY).toISOString(),
    });
    const before = (await alarms(db, 'T-3')).length;
    assert.deepEqual(await registerIssue(db, 'T-3', t), {
      ok: false,
      error: 'system-validated',
      message: 'the casino system that numbered this ticket is its validation authority',
    });
    assert.equal((await registerPrinted(db, 'T-3', t)).ok, false, 'printed: no ticket of this table has the number');
    assert.equal((await ticketByNumber(db, t.validation)).ticket, null);
    assert.equal((await alarms(db, 'T-3')).length, before, 'not another table’s number: no alarm');
    const d = await redeem(db, 'T-2', ask(t));
    assert.equal(d.kind === 'refused' ? d.reason : d.kind, 'unknown');
  });

  it('a table cannot register a number of another table, nor the same number with other terms', async () => {
    const theirs = ticket(m2, 1, 100);
    assert.deepEqual((await registerIssue(db, 'T-1', theirs)).ok, false);
    assert.equal((await ticketByNumber(db, theirs.validation)).ticket, null);
    const t = ticket(m1, 6, 100);
    await registerIssue(db, 'T-1', t);
    assert.deepEqual(await registerIssue(db, 'T-1', t), { ok: true });
    assert.deepEqual((await registerIssue(db, 'T-1', { ...t, amount: 100_000 })).ok, false);
    const kinds = (await alarms(db, 'T-1')).map((a) => a.kind);
    assert.ok(kinds.includes('ticket-foreign-issuer') && kinds.includes('ticket-disagreement'), kinds.join());
  });

  it("the table's journal, not its word, says what a ticket is worth: a word that said more is corrected at sync, and a later word changes nothing", async () => {
    await enrolTerminal(db, 'W');
    const mW = await machineIdOf(db, 'W');
    const truth = ticket(mW, 1, 100, { station: 2 });
    const word = { ...truth, amount: 5_000_000 }; // the same number, told directly with another amount
    assert.deepEqual(await registerIssue(db, 'W', word), { ok: true });
    assert.deepEqual(await registerPrinted(db, 'W', word), { ok: true });
    const j = new FakeJournal('W');
    const r = await ingest(
      db,
      j.batch([
        { type: 'ticket.issue', payload: truth },
        { type: 'ticket.printed', payload: { validation: truth.validation, station: 2 } },
      ]),
    );
    assert.equal(r.status, 200);
    assert.equal((await ticketByNumber(db, truth.validation)).ticket?.amount, 100, 'the journal’s amount');
    assert.deepEqual((await registerIssue(db, 'W', word)).ok, false, 'a later word with other terms is refused');
    assert.equal((await ticketByNumber(db, truth.validation)).ticket?.amount, 100);
    const d = await redeem(db, 'T-2', ask(truth, { limit: 10_000_000 }));
    assert.equal(d.kind === 'approved' ? d.amount : d.kind, 100, 'paid what was printed, never what was only said');
    // Once an approval is out, the register is not rewritten under it: the alarm is the record.
    const held = ticket(mW, 2, 200);
    await registerIssue(db, 'W', { ...held, amount: 900 });
    await registerPrinted(db, 'W', held);
    assert.equal((await redeem(db, 'T-3', ask(held))).kind, 'approved');
    await ingest(db, j.batch([{ type: 'ticket.issue', payload: held }]));
    assert.equal((await ticketByNumber(db, held.validation)).ticket?.amount, 900);
    const what = (await alarms(db, 'W')).map((a) => (a.detail as { what?: string }).what);
    assert.deepEqual(what.slice(0, 2), ["the journal's terms differ from a ticket already in redemption: left as it stands", 'issued again with other terms']);
    assert.ok(what.includes("the journal's terms replace those first told"), what.join());
  });

  it('a cancel makes a pending ticket redeemable again; a cancel before the answer refuses the late approval', async () => {
    const t = ticket(m1, 7, 800);
    await registerIssue(db, 'T-1', t);
    await registerPrinted(db, 'T-1', t);
    const a = ask(t);
    assert.equal((await redeem(db, 'T-2', a)).kind, 'approved');
    assert.deepEqual(await cancel(db, 'T-2', a.requestId, a), { ok: true });
    assert.equal((await ticketByNumber(db, t.validation)).ticket?.state, 'printed');
    // A confirm of the returned attempt: the table credited a ticket it gave back. Refused, alarmed.
    assert.equal((await confirm(db, 'T-2', a.requestId, a)).ok, false);
    const late = ask(t);
    assert.deepEqual(await cancel(db, 'T-3', late.requestId, late), { ok: true });
    assert.deepEqual(await redeem(db, 'T-3', late), { kind: 'refused', requestId: late.requestId, reason: 'offline' });
    assert.equal((await ticketByNumber(db, t.validation)).ticket?.state, 'printed');
    const b = ask(t);
    assert.equal((await redeem(db, 'T-3', b)).kind, 'approved');
  });

  it("the tables' journals resolve: issued and printed by sync alone; a pending redemption closed by the redeeming table's journal", async () => {
    const j1 = new FakeJournal('T-1');
    const j2 = new FakeJournal('T-2');
    const t = ticket(m1, 8, 4_200, { station: 2 });
    const stackedTicket = ticket(m1, 9, 1_000, { station: 2 });
    const at = { station: 2 };
    let r = await ingest(
      db,
      j1.batch([
        { type: 'ticket.issue', payload: t },
        { type: 'ticket.printed', payload: { validation: t.validation, ...at } },
        { type: 'ticket.issue', payload: stackedTicket },
        { type: 'ticket.printed', payload: { validation: stackedTicket.validation, ...at } },
      ]),
    );
    assert.equal(r.status, 200);
    assert.equal((await ticketByNumber(db, t.validation)).ticket?.state, 'printed');
    // T-2 is approved for both, then killed before confirming either: both pending.
    const a = ask(t);
    const b = ask(stackedTicket);
    assert.equal((await redeem(db, 'T-2', a)).kind, 'approved');
    assert.equal((await redeem(db, 'T-2', b)).kind, 'approved');
    // Its journal, synced after its restart: one returned (it was still in escrow), one stacked.
    r = await ingest(
      db,
      j2.batch([
        { type: 'ticket.redeem.request', payload: { requestId: a.requestId, validation: t.validation, station: 3 } },
        { type: 'ticket.redeem.request', payload: { requestId: b.requestId, validation: stackedTicket.validation, station: 3 } },
        {
          type: 'ticket.redeem.approved',
          payload: { requestId: b.requestId, validation: stackedTicket.validation, station: 3, amount: 1_000, currency: 'MOP' },
        },
        { type: 'ticket.redeem.returned', payload: { requestId: a.requestId, validation: t.validation, station: 3, reason: 'acceptor-returned' } },
        {
          type: 'ticket.redeem.stacked',
          payload: { requestId: b.requestId, validation: stackedTicket.validation, station: 3, amount: 1_000, currency: 'MOP' },
        },
      ]),
    );
    assert.equal(r.status, 200);
    assert.equal((await ticketByNumber(db, t.validation)).ticket?.state, 'printed');
    assert.equal((await ticketByNumber(db, stackedTicket.validation)).ticket?.state, 'redeemed');
    // A journal that credits a ticket never approved for it: stored, alarmed, the ticket untouched.
    const before = (await alarms(db, 'T-3')).length;
    const j3 = new FakeJournal('T-3');
    r = await ingest(
      db,
      j3.batch([
        { type: 'ticket.redeem.stacked', payload: { requestId: 'never-asked-1', validation: t.validation, station: 1, amount: 4_200, currency: 'MOP' } },
      ]),
    );
    assert.equal(r.status, 200);
    assert.equal((await ticketByNumber(db, t.validation)).ticket?.state, 'printed');
    assert.equal((await alarms(db, 'T-3')).length, before + 1);
  });

  it('the liability: issued or printed and not expired, or pending; per currency', async () => {
    const before = await ticketLiability(db);
    await enrolTerminal(db, 'L');
    const m = await machineIdOf(db, 'L');
    const mk = async (seq: number, amount: number, o: Parameters<typeof ticket>[3] = {}) => {
      const t = ticket(m, seq, amount, { currency: 'SGD', ...o });
      await registerIssue(db, 'L', t);
      return t;
    };
    await mk(1, 100); // issued, not yet printed: counts
    const printed = await mk(2, 200);
    await registerPrinted(db, 'L', printed);
    const paid = await mk(3, 400);
    await registerPrinted(db, 'L', paid);
    const p = ask(paid, { currency: 'SGD' });
    await redeem(db, 'L', p);
    await confirm(db, 'L', p.requestId, p);
    const voided = await mk(4, 800);
    await registerVoid(db, 'L', voided);
    const expired = await mk(5, 1_600, { issuedAt: Date.now() - 10 * DAY, days: 1 });
    await registerPrinted(db, 'L', expired);
    const pending = await mk(6, 3_200);
    await registerPrinted(db, 'L', pending);
    assert.equal((await redeem(db, 'L', ask(pending, { currency: 'SGD' }))).kind, 'approved');
    await mk(7, 6_400, { currency: 'EUR' });
    const l = await ticketLiability(db);
    assert.equal(
      before.currencies.find((c) => c.currency === 'SGD' || c.currency === 'EUR'),
      undefined,
    );
    assert.deepEqual(
      l.currencies.filter((c) => c.currency === 'SGD' || c.currency === 'EUR'),
      [
        { currency: 'EUR', tickets: 1, amount: 6_400 },
        { currency: 'SGD', tickets: 3, amount: 100 + 200 + 3_200 },
      ],
    );
  });

  it("a table validated by the casino's system (entries labelled sas): nothing registered, nothing alarmed, but what concerns this register still settles or alarms", async () => {
    await enrolTerminal(db, 'S');
    const sasId = 9_000; // the id the casino's system set by long poll 0x4C, outside the upstream's
    const j = new FakeJournal('S');
    const sas = { authority: 'sas' } as const;
    const own = ticket(sasId, 1, 2_500);
    const inserted = ticket(sasId + 1, 7, 3_000); // another SAS table's ticket, paid at S through the system
    const returned = ticket(sasId + 1, 8, 3_500);
    const rq = requestId();
    const back = requestId();
    const before = (await alarms(db, 'S')).length;
    let r = await ingest(
      db,
      j.batch([
        { type: 'ticket.issue', payload: { ...own, ...sas } },
        { type: 'ticket.printed', payload: { validation: own.validation, station: 1 } },
        { type: 'ticket.redeem.request', payload: { requestId: rq, validation: inserted.validation, station: 2, ...sas } },
        { type: 'ticket.redeem.approved', payload: { requestId: rq, validation: inserted.validation, station: 2, amount: 3_000, currency: 'MOP', ...sas } },
        { type: 'ticket.redeem.stacked', payload: { requestId: rq, validation: inserted.validation, station: 2, amount: 3_000, currency: 'MOP', ...sas } },
        { type: 'ticket.redeem.request', payload: { requestId: back, validation: returned.validation, station: 2, ...sas } },
        { type: 'ticket.redeem.returned', payload: { requestId: back, validation: returned.validation, station: 2, reason: 'unknown', ...sas } },
      ]),
    );
    assert.equal(r.status, 200);
    assert.equal((await alarms(db, 'S')).length, before, 'the casino system’s own tickets and credits: no alarm');
    assert.equal((await ticketByNumber(db, own.validation)).ticket, null, 'the system’s ticket is not registered here');
    const attempts = await db.query("SELECT 1 FROM ticket_redemptions WHERE terminal_id = 'S'");
    assert.equal(attempts.rows.length, 0, 'no attempt recorded for the system’s redemptions');

    // What concerns this register: a ticket of ours credited through the system, an attempt of ours
    // labelled the system's, and a system's ticket under the very id this register gave S.
    const ours = ticket(m1, 40, 1_200);
    assert.deepEqual(await registerIssue(db, 'T-1', ours), { ok: true });
    assert.deepEqual(await registerPrinted(db, 'T-1', ours), { ok: true });
    const approvedHere = ask(ours);
    assert.equal((await redeem(db, 'S', approvedHere)).kind, 'approved');
    const mS = await machineIdOf(db, 'S');
    const paper = { validation: ours.validation, station: 3 };
    r = await ingest(
      db,
      j.batch([
        { type: 'ticket.redeem.request', payload: { requestId: approvedHere.requestId, ...paper, ...sas } },
        { type: 'ticket.redeem.approved', payload: { requestId: approvedHere.requestId, ...paper, amount: 1_200, currency: 'MOP', ...sas } },
        { type: 'ticket.redeem.stacked', payload: { requestId: approvedHere.requestId, ...paper, amount: 1_200, currency: 'MOP', ...sas } },
        { type: 'ticket.redeem.stacked', payload: { requestId: requestId(), ...paper, amount: 1_200, currency: 'MOP', ...sas } },
        { type: 'ticket.issue', payload: { ...ticket(mS, 1, 900), ...sas } },
      ]),
    );
    assert.equal(r.status, 200);
    assert.equal((await ticketByNumber(db, ours.validation)).ticket?.state, 'redeemed', 'the attempt this register approved is settled, label or not');
    const raised = (await alarms(db, 'S')).slice(0, 2).map((a) => (a.detail as { what?: string }).what);
    assert.deepEqual(raised.sort(), [
      "a casino system's ticket under the validation id this register assigned the table",
      'credited through the casino system a ticket this register holds',
    ]);
    assert.equal((await ticketByNumber(db, validationNumber(mS, 1))).ticket, null);
  });

  it('a table whose redemptions keep being refused as unknown or already paid (numbers guessed) is refused all redemptions for a while, with one alarm', async () => {
    await enrolTerminal(db, 'G');
    await enrolTerminal(db, 'V');
    const mV = await machineIdOf(db, 'V');
    const real = ticket(mV, 1, 5_000);
    await registerIssue(db, 'V', real);
    await registerPrinted(db, 'V', real);
    const limit = { count: 3, windowMs: 60_000 };
    // Three guesses, each a number the scheme makes and no table printed: refused as unknown.
    for (let s = 2; s <= 4; s++) assert.equal((await redeem(db, 'G', ask(ticket(mV, s, 1)), limit)).kind, 'refused');
    // The fourth ask names a real ticket: refused all the same, the register not read, the ticket untouched.
    const guessed = ask(real);
    const d = await redeem(db, 'G', guessed, limit);
    assert.deepEqual(d, { kind: 'refused', requestId: guessed.requestId, reason: 'offline' });
    assert.equal((await ticketByNumber(db, real.validation)).ticket?.state, 'printed');
    assert.deepEqual(await redeem(db, 'G', guessed, limit), d, 'asked again: the same answer');
    await redeem(db, 'G', ask(real), limit);
    const stopped = (await alarms(db, 'G')).filter((a) => a.kind === 'ticket-refusals');
    assert.equal(stopped.length, 1, 'one alarm for the window, not one per ask');
    // Another table is not touched by G's refusals; and without a limit nothing is refused for it.
    assert.equal((await redeem(db, 'V', ask(real), limit)).kind, 'approved');
  });

  it("an id the table's configuration names is the table's when no other holds it: claimed at its ask, or by its first ticket; never one another table holds", async () => {
    for (const t of ['C-1', 'C-2', 'C-3', 'C-4']) await enrolTerminal(db, t);
    assert.equal(await machineIdOf(db, 'C-1', 50_000), 50_000, 'free: claimed');
    assert.equal(await machineIdOf(db, 'C-1', 60_000), 50_000, 'the table keeps the id it has');
    const other = await machineIdOf(db, 'C-2', 50_000);
    assert.notEqual(other, 50_000, 'held by another table: the next free one instead');
    // Offline at its first cash-out, a table numbered under its configured id: its first ticket claims it.
    const offline = ticket(70_000, 1, 300);
    assert.deepEqual(await registerIssue(db, 'C-3', offline), { ok: true });
    assert.equal(await machineIdOf(db, 'C-3'), 70_000);
    assert.equal((await ticketByNumber(db, offline.validation)).ticket?.state, 'issued');
    // Another table's id is never claimed that way.
    assert.equal((await registerIssue(db, 'C-4', ticket(70_000, 2, 300))).ok, false);
    assert.equal((await registerIssue(db, 'C-4', ticket(50_000, 9, 300))).ok, false);
    // A table that claims the top of the range leaves the others their ids: the next is a free one, and a table's own is kept.
    await enrolTerminal(db, 'C-5');
    await enrolTerminal(db, 'C-6');
    assert.equal(await machineIdOf(db, 'C-5', 0xff_ff_ff), 0xff_ff_ff);
    const next = await machineIdOf(db, 'C-6');
    assert.ok(next >= 1 && next < 0xff_ff_ff);
    assert.equal(await machineIdOf(db, 'C-1'), 50_000);
    assert.equal(await machineIdOf(db, 'C-6', 123), next);
  });

  it("a ticket registered on a table's word that its journal, synced past it, never brings is alarmed once (made by credentials, not by a cash-out)", async () => {
    await enrolTerminal(db, 'M');
    const mM = await machineIdOf(db, 'M');
    const minute = 60_000;
    // Dated ahead of the upstream's clock, a word would pass the check only when the journal's clock did: refused.
    const ahead = ticket(mM, 9, 4_000_000, { issuedAt: Date.now() + 365 * 24 * 60 * minute });
    assert.deepEqual((await registerIssue(db, 'M', ahead)).ok, false);
    assert.equal((await ticketByNumber(db, ahead.validation)).ticket, null);
    const minted = ticket(mM, 1, 4_000_000, { issuedAt: Date.now() - 5 * minute });
    const honest = ticket(mM, 2, 1_000, { issuedAt: Date.now() - 4 * minute });
    const recent = ticket(mM, 3, 1_000, { issuedAt: Date.now() - 10_000 });
    for (const t of [minted, honest, recent]) {
      assert.deepEqual(await registerIssue(db, 'M', t), { ok: true });
      assert.deepEqual(await registerPrinted(db, 'M', t), { ok: true });
    }
    const j = new FakeJournal('M');
    // The journal brings the honest ticket and goes on to now: the minted one was never in it; the recent one is within the grace.
    let r = await ingest(
      db,
      j.batch([
        { type: 'ticket.issue', payload: honest },
        { type: 'ticket.printed', payload: { validation: honest.validation, station: 1 } },
      ]),
    );
    assert.equal(r.status, 200);
    const unjournalled = async () =>
      (await alarms(db, 'M')).filter((a) => (a.detail as { what?: string }).what === 'registered on the table’s word and never in its journal');
    assert.deepEqual(
      (await unjournalled()).map((a) => (a.detail as { validation?: string }).validation),
      [minted.validation],
    );
    r = await ingest(db, j.batch([{ type: 'bill.credit', payload: { station: 1, amount: 100 } }]));
    assert.equal(r.status, 200);
    assert.equal((await unjournalled()).length, 1, 'once');
  });

  it('a ticket that expires when it is issued (or before) is refused as such, not as another issuer’s (a review of 4 December)', async () => {
    await enrolTerminal(db, 'X');
    const mX = await machineIdOf(db, 'X');
    const bad = ticket(mX, 1, 500, { days: 0 });
    // Before: { ok: false, error: 'foreign-issuer' } and a ticket-foreign-issuer alarm, for a number the table does make.
    assert.deepEqual(await registerIssue(db, 'X', bad), { ok: false, error: 'bad-dates', message: 'the ticket expires when or before it is issued' });
    assert.deepEqual(
      (await alarms(db, 'X')).map((a) => [a.kind, (a.detail as { what?: string }).what]),
      [['ticket-disagreement', 'expires when or before it is issued']],
    );
    assert.equal((await ticketByNumber(db, bad.validation)).ticket, null);
    // The table's own numbers stay its own: the next, with its dates right, is registered.
    assert.deepEqual(await registerIssue(db, 'X', ticket(mX, 2, 500)), { ok: true });
  });

  it("a printed ticket is not voided by its table's word, only by its journal: the same table's key in other hands cannot void paper a player holds", async () => {
    await enrolTerminal(db, 'T-V');
    const mV = await machineIdOf(db, 'T-V');
    const paper = ticket(mV, 1, 4_200);
    await registerIssue(db, 'T-V', paper);
    assert.deepEqual(await registerPrinted(db, 'T-V', paper), { ok: true });
    // The table's host sends one end per ticket: a void word after its printed word is not its host's.
    const w = await registerVoid(db, 'T-V', paper);
    assert.equal(w.ok ? 'ok' : w.error, 'not-voidable');
    assert.equal((await ticketByNumber(db, paper.validation)).ticket?.state, 'printed', 'still redeemable');
    assert.ok(
      (await ticketLiability(db)).currencies.some((c) => c.currency === 'MOP' && c.amount >= 4_200),
      'still owed by the floor',
    );
    const what = (await alarms(db, 'T-V')).map((a) => (a.detail as { what?: string }).what);
    assert.ok(what.includes('a void word for a ticket printed'), what.join());
    assert.equal((await redeem(db, 'T-2', ask(paper))).kind, 'approved', 'the player is paid');
    // The journal, the table's truth, still voids a ticket a word said printed (its printer did not print it).
    const unprinted = ticket(mV, 2, 300);
    await registerIssue(db, 'T-V', unprinted);
    await registerPrinted(db, 'T-V', unprinted);
    const j = new FakeJournal('T-V');
    await ingest(
      db,
      j.batch([
        { type: 'ticket.issue', payload: unprinted },
        { type: 'ticket.void', payload: { validation: unprinted.validation, station: unprinted.station, reason: 'not printed: paper out' } },
      ]),
    );
    assert.equal((await ticketByNumber(db, unprinted.validation)).ticket?.state, 'voided');
  });
});
