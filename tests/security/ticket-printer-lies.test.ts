// Hostile printers at the table host, end to end (issue 47 item 6): the real TCL driver over the
// byte-level simulator telling its lies, the table's cash-out (TicketOut) journalling by it, and
// the upstream as the validation authority. A printer that prints twice gives the player two
// whole tickets with one number: the table journals one ticket and takes the credit once, and the
// floor pays one copy only (also when both are inserted at two tables at the same moment). A
// printer that says printed when it jammed: never journalled printed, so its number is never
// redeemable (`unknown` at every table) and the station waits for a person, the credit on neither
// the meter nor a ticket. (The driver's side of each lie: tests/security/hostile-printer.test.ts.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { layoutDefined, printerRig, type PrinterRig } from '../../hardware/printer/printer-rig.js';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { TicketOut } from '../../host/floor/ticket-out.js';
import { TiltManager } from '../../host/tilts/tilt-manager.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/ledger.js';
import { TICKET_ACCOUNTS, ticketOutTxId } from '../../ledger/ticket-postings.js';
import { ValidationNumber } from '../../terms/validation-number.js';
import { migrateUpstream, openPglite, type Db, type RunningUpstream } from '../../upstream/index.js';
import { ticketByNumber } from '../../upstream/ticket-queries.js';
import { redemption, startFloor, type FloorTable } from '../tickets/kit.js';

let db: Db;
let up: RunningUpstream;
let t1: FloorTable;
let t2: FloorTable;
const rigs: PrinterRig[] = [];
const ledgers: Ledger[] = [];

before(async () => {
  db = await openPglite();
  await migrateUpstream(db);
  const floor = await startFloor(db, 2);
  up = floor.up;
  [t1, t2] = floor.tables as [FloorTable, FloorTable];
});
after(async () => {
  for (const r of rigs) await r.p.close();
  for (const l of ledgers) l.close();
  await up?.close();
  await db?.close();
});

/**
 * Table 1's station 3 with 1,234.50 on its meter and a ready printer (a new one each time), cashing
 * out through TicketOut to the upstream; the table's one journal numbers its tickets in turn.
 */
async function station(): Promise<{ ledger: Ledger; rig: PrinterRig; out: TicketOut }> {
  const rig = printerRig();
  rigs.push(rig);
  await layoutDefined(rig);
  const ledger = ledgers[0] ?? Ledger.open({ file: ':memory:', terminalId: t1.id });
  if (ledgers.length === 0) ledgers.push(ledger);
  ledger.append(billCredit(3, 123_450, `bill-${rigs.length}`));
  const c = simulatedTableConfig();
  const out = new TicketOut({
    config: { ...c, tickets: { ...c.tickets, machineId: t1.machineId } },
    ledger,
    log: pino({ level: 'silent' }),
    printerAt: (s) => (s === 3 ? rig.p : undefined),
    authority: t1.authority,
    faults: new TiltManager({ ledger, log: pino({ level: 'silent' }) }),
    now: () => new Date(),
    onChanged: () => {},
  });
  return { ledger, rig, out };
}

/** Waits (polling the register) until the ticket is in `state`. */
async function settles(v: string, state: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if ((await ticketByNumber(db, v)).ticket?.state === state) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.equal((await ticketByNumber(db, v)).ticket?.state, state);
}

describe('a hostile printer at the table, against the floor’s authority', () => {
  it('prints twice: one ticket journalled and the credit taken once; of the two copies the floor pays one, also inserted at two tables at once', async () => {
    const { ledger, rig, out } = await station();
    rig.sim.tell('print-twice', 1);
    const r = await out.cashOut(3);
    assert.equal(r.kind, 'printed', JSON.stringify(r));
    if (r.kind !== 'printed') return;
    await rig.rec.until(() => rig.sim.paper.filter((t) => t.barcode === r.validation && t.whole).length === 2, 3000, 'two whole copies came out');
    assert.equal(ledger.credit(3), 0, 'the credit left the meter once');
    assert.equal(ledger.meters('station:3').ticketsOut, 1, 'one ticket out');
    assert.equal(ledger.balance(TICKET_ACCOUNTS.out), -123_450, 'the table owes one ticket');
    await settles(r.validation, 'printed');
    // The player inserts both copies, at two tables, at the same moment.
    const copy = ValidationNumber.parse(r.validation);
    const [a, b] = await Promise.all([t1.authority.redeem(redemption({ validation: copy }, 1)), t2.authority.redeem(redemption({ validation: copy }, 2))]);
    const approved = [a, b].filter((x) => x.kind === 'approved');
    assert.equal(approved.length, 1, JSON.stringify([a, b]));
    const other = [a, b].find((x) => x.kind === 'refused');
    assert.deepEqual(other && other.kind === 'refused' ? other.reason : null, 'pending-elsewhere');
    const winner = a.kind === 'approved' ? { table: t1, answer: a, station: 1 } : { table: t2, answer: b, station: 2 };
    assert.deepEqual(await winner.table.authority.confirm(winner.answer.requestId, { validation: copy, station: winner.station }), { ok: true });
    // The copy the player kept, inserted again anywhere: already paid.
    for (const t of [t1, t2]) {
      const again = await t.authority.redeem(redemption({ validation: copy }, 1));
      assert.deepEqual(again.kind === 'refused' ? again.reason : again.kind, 'already-paid');
    }
    await settles(r.validation, 'redeemed');
  });

  it('says printed when it jammed: never journalled printed, its number unknown at every table, the credit held for a person', async () => {
    const { ledger, rig, out } = await station();
    rig.sim.tell('jam-claims-printed', 1);
    const r = await out.cashOut(3);
    assert.equal(r.kind, 'unresolved', JSON.stringify(r));
    if (r.kind !== 'unresolved') return;
    assert.equal(ledger.byTxId(ticketOutTxId(r.validation, 'end')), undefined, 'neither printed nor voided');
    assert.equal(ledger.credit(3), 0, 'not given back');
    assert.equal(ledger.balance(TICKET_ACCOUNTS.printing), -123_450, 'held in print');
    assert.equal(rig.sim.paper.filter((t) => t.barcode === r.validation && t.whole && t.barcodeComplete).length, 0, 'no whole ticket came out');
    await settles(r.validation, 'issued');
    // Its number is public (the scheme is): a barcode printed by anyone for it is refused everywhere.
    for (const t of [t1, t2]) {
      const answer = await t.authority.redeem(redemption({ validation: ValidationNumber.parse(r.validation) }, 2));
      assert.deepEqual(answer.kind === 'refused' ? answer.reason : answer.kind, 'unknown');
    }
    assert.equal(out.isPrinting(3), true, 'the station waits for a person');
  });
});
