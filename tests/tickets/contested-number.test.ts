// One validation number, two papers: table A numbering under table B's id (two tables configured
// with one id, a swapped floor-validation.json: tests/tickets/floor-id-swapped.test.ts) prints the
// same 18 digits B prints for the same sequence. The upstream refuses A's registration as another
// issuer's (`foreign-issuer`, an alarm), but until now the number stayed B's: A's 700.00 paper was
// paid as B's 100.00 wherever it was inserted first, and B's own player was then refused as paid.
// A number that drew a foreign-issuer registration is now contested (migration 23,
// `ticket_contests`): refused `contested` at every table, both players' papers, whichever table
// printed first, so the cage settles it from the papers. Against the upstream on PGlite.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseValidationNumber, ValidationNumber } from '../../terms/validation-number.js';
import { enrolTerminal, migrateUpstream, openPglite, type Db } from '../../upstream/index.js';
import { confirmIn, machineIdOf, redeem, registerIssue, registerPrinted, type RedeemDecision } from '../../upstream/tickets.js';
import { ticketByNumber } from '../../upstream/ticket-queries.js';
import { requestId, ticket } from './kit.js';

const outcome = (d: RedeemDecision): string => (d.kind === 'refused' ? d.reason : `approved ${d.amount}`);

describe('a validation number two tables printed', () => {
  let db: Db;
  let b: number;
  before(async () => {
    db = await openPglite();
    await migrateUpstream(db);
    for (const t of ['A', 'B', 'C']) await enrolTerminal(db, t);
    await machineIdOf(db, 'A');
    b = await machineIdOf(db, 'B');
  });
  after(async () => {
    await db.close();
  });

  const redeemAt = (table: string, validation: string, id = requestId()) =>
    redeem(db, table, { requestId: id, validation, station: 2, currency: 'MOP', limit: 10_000_000 });
  const printedByB = async (sequence: number, amount: number) => {
    const t = ticket(b, sequence, amount);
    assert.deepEqual(await registerIssue(db, 'B', t), { ok: true });
    assert.deepEqual(await registerPrinted(db, 'B', t), { ok: true });
    return t;
  };
  const claimedByA = async (sequence: number, amount: number) => {
    const t = ticket(b, sequence, amount);
    const word = await registerIssue(db, 'A', t);
    assert.equal(word.ok ? 'ok' : word.error, 'foreign-issuer');
    return t;
  };
  const foreignAlarm = async (validation: string) => {
    const r = await db.query<{ detail: Record<string, unknown> }>(
      `SELECT detail FROM alarms WHERE terminal_id = 'A' AND kind = 'ticket-foreign-issuer' AND detail->>'validation' = $1 ORDER BY id DESC LIMIT 1`,
      [validation],
    );
    return r.rows[0]?.detail;
  };

  it('B printed it first: once A’s registration is refused as another issuer’s, the number is refused contested everywhere, both papers', async () => {
    const bOwn = await printedByB(2, 10_000);
    const aPaper = await claimedByA(2, 70_000);
    assert.equal(aPaper.validation, bOwn.validation, 'the same 18 digits');
    // Before: approved 10000 at C (A's 700.00 paper paid as B's 100.00), B's player then refused already-paid.
    const atC = requestId();
    assert.equal(outcome(await redeemAt('C', aPaper.validation, atC)), 'contested');
    assert.equal(outcome(await redeemAt('B', bOwn.validation)), 'contested', 'at the table that printed it too');
    assert.equal(outcome(await redeemAt('C', aPaper.validation, atC)), 'contested', 'asked again: the same answer');
    assert.equal((await confirmIn(db, 'C', atC, { validation: aPaper.validation, station: 2 })).ok, false, 'nothing to confirm');
    const alarm = await foreignAlarm(aPaper.validation);
    assert.equal(alarm?.contested, true, JSON.stringify(alarm));
    assert.equal(alarm?.state, 'printed', 'the alarm says what the number was when the claim came');
    // The cage's lookup (GET /v1/tickets/:validation, etg upstream ticket) shows B's ticket and A's claim beside it.
    const view = await ticketByNumber(db, aPaper.validation);
    assert.equal(view.ticket?.amount, 10_000);
    assert.deepEqual(
      view.contests.map((c) => [c.terminalId, c.amount]),
      [['A', 70_000]],
    );
    const refused = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM alarms WHERE kind = 'ticket-refused' AND detail->>'validation' = $1 AND detail->>'reason' = 'contested'`,
      [aPaper.validation],
    );
    assert.equal(refused.rows[0]?.n, 2, 'each paper presented is told to the floor (the cage looks for its player)');
  });

  it('A’s claim came first: B’s ticket of that number registers and prints, and is refused contested', async () => {
    const aPaper = await claimedByA(3, 70_000);
    // Before: A's claim left nothing, and B's later ticket was paid to whichever paper came first.
    const bOwn = await printedByB(3, 10_000);
    assert.equal(outcome(await redeemAt('C', aPaper.validation)), 'contested');
    assert.equal(outcome(await redeemAt('C', bOwn.validation)), 'contested');
    const alarm = await foreignAlarm(aPaper.validation);
    assert.equal(alarm?.state, 'none', 'no table had that number when the claim came');
  });

  it('already paid when the claim comes: it stays paid (once, at B’s amount), the alarm says so, and the number is refused contested after', async () => {
    const bOwn = await printedByB(4, 10_000);
    const atC = requestId();
    assert.equal(outcome(await redeemAt('C', bOwn.validation, atC)), 'approved 10000');
    assert.deepEqual(await confirmIn(db, 'C', atC, { validation: bOwn.validation, station: 2 }), { ok: true });
    await claimedByA(4, 70_000);
    const alarm = await foreignAlarm(bOwn.validation);
    assert.equal(alarm?.state, 'redeemed', JSON.stringify(alarm));
    assert.equal(alarm?.paidBy, 'C', 'the table that paid it');
    assert.equal(alarm?.paidAmount, 10_000);
    // Before: already-paid (the second paper's holder told it was paid).
    assert.equal(outcome(await redeemAt('B', bOwn.validation)), 'contested');
  });

  it('a claim with a number the scheme cannot make contests nothing (refused unknown, as before)', async () => {
    const t = { ...ticket(b, 5, 70_000), validation: ValidationNumber.parse('001234567890123456') };
    assert.equal(parseValidationNumber(t.validation).ok, false, 'no id and sequence make it');
    const word = await registerIssue(db, 'A', t);
    assert.equal(word.ok ? 'ok' : word.error, 'foreign-issuer');
    const n = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ticket_contests WHERE validation = $1`, [t.validation]);
    assert.equal(n.rows[0]?.n, 0);
  });

  it('the same table claiming the number again keeps one contest; another table’s claim adds its own', async () => {
    const bOwn = await printedByB(6, 10_000);
    await claimedByA(6, 70_000);
    await claimedByA(6, 70_000);
    const word = await registerIssue(db, 'C', ticket(b, 6, 20_000));
    assert.equal(word.ok ? 'ok' : word.error, 'foreign-issuer');
    const r = await db.query<{ terminal_id: string; amount: string }>(
      `SELECT terminal_id, amount FROM ticket_contests WHERE validation = $1 ORDER BY terminal_id`,
      [bOwn.validation],
    );
    assert.deepEqual(
      r.rows.map((x) => [x.terminal_id, Number(x.amount)]),
      [
        ['A', 70_000],
        ['C', 20_000],
      ],
      'each claimant with the amount its paper says',
    );
  });
});
