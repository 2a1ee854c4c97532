// A service action's money step and its `service.action` record (who did what) under a journal
// that refuses the record (a full disk). The person's answer must match the journal: done with the
// step and its record journalled (and the screens redrawn), or failed with nothing journalled; and
// a retry after a failure never journals the money step twice (a second meter clear). The table's
// own steps (a void, a correction, a card entered, a dealing error, a jackpot reset):
// table-step-record-fault.test.ts.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { layoutDefined, printerRig, type PrinterRig } from '../../../hardware/printer/printer-rig.js';
import { billCredit } from '../../../ledger/fixtures.js';
import { Ledger } from '../../../ledger/index.js';
import { ticketInTxId } from '../../../ledger/ticket-postings.js';
import { validationNumber } from '../../../terms/validation-number.js';
import { simulatedTableConfig, TableConfig } from '../../config/table-config.js';
import { TicketIn } from '../../devices/ticket-in.js';
import { Handpays } from '../../floor/handpays.js';
import { TicketOut } from '../../floor/ticket-out.js';
import { TiltManager } from '../../tilts/tilt-manager.js';
import { refusingOnce } from '../../testing/refusing-ledger.js';
import { credit, silent } from '../../testing/table-kit.js';
import type { BackendResult } from '../service-backend.js';
import type { Changes } from './changes.js';
import { handpays } from './handpays.js';
import { meters } from './meters.js';
import { tickets } from './tickets.js';

const BY: [string, string] = ['Ana Lei (1001)', 'Bo Chan (1002)'];

/** The screens' change signal, counted; and a quiet log. */
function harness() {
  let redraws = 0;
  const changes = { changed: () => void redraws++, onChange: () => () => undefined } as unknown as Changes;
  const log = pino({ level: 'silent' });
  return { changes, log, redraws: () => redraws };
}

/** The answer, or the throw as the person sees it (a failure). */
function answer(act: () => BackendResult): BackendResult | 'threw' {
  try {
    return act();
  } catch {
    return 'threw';
  }
}

/** Every entry of the journal, oldest first. */
const journal = (ledger: Ledger) => Array.from({ length: ledger.headOf().seq }, (_, i) => ledger.entry(i + 1)).filter((e) => e !== undefined);
const count = (ledger: Ledger, type: string) => journal(ledger).filter((e) => e.type === type).length;
const ok = (r: BackendResult | 'threw') => r !== 'threw' && r.ok;

/**
 * The journal and the answer agree: done with the step and its record in the journal, the screens
 * redrawn; or failed with neither journalled.
 */
function agrees(
  h: ReturnType<typeof harness>,
  r: BackendResult | 'threw',
  step: { before: number; after: number },
  records: { before: number; after: number },
): void {
  if (ok(r)) {
    assert.equal(step.after, step.before + 1, 'answered done: the step is journalled');
    assert.equal(records.after, records.before + 1, 'answered done: its record with it');
    assert.ok(h.redraws() > 0, 'the screens are redrawn');
  } else {
    assert.equal(step.after, step.before, `answered failed (${JSON.stringify(r)}): the step must not be journalled`);
    assert.equal(records.after, records.before, 'answered failed: no record');
  }
}

const rigs: PrinterRig[] = [];
after(async () => {
  for (const r of rigs) await r.p.close();
});

describe('a service action whose service.action record the journal refuses', () => {
  it('handpay confirm: paid and recorded, or neither; a retry pays it once', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-HP' });
    const h = harness();
    const config = TableConfig.parse(simulatedTableConfig('baccarat'));
    const floor = new Handpays({ config, ledger, log: silent, hasBets: () => false, onChanged: () => {} });
    const part = handpays({ floor: { handpays: floor } as never, ledger, config }, h.changes);
    credit(ledger, 1, 5_000);
    const req = floor.cashOut(1);
    assert.ok(req.ok);
    refusingOnce(ledger, 'service.action');
    const [paid, acts] = [count(ledger, 'handpay.confirm'), count(ledger, 'service.action')];
    const r = answer(() => part.confirmHandpay(1, req.requestTxId, BY));
    agrees(h, r, { before: paid, after: count(ledger, 'handpay.confirm') }, { before: acts, after: count(ledger, 'service.action') });
    if (!ok(r)) assert.equal(ok(answer(() => part.confirmHandpay(1, req.requestTxId, BY))), true, 'the retry is taken');
    assert.equal(count(ledger, 'handpay.confirm'), paid + 1, 'paid once');
    assert.equal(count(ledger, 'service.action'), acts + 1, 'recorded once');
    ledger.close();
  });

  it('meter clear: cleared and recorded, or neither; a retry clears once', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-MC' });
    const h = harness();
    const config = TableConfig.parse(simulatedTableConfig('baccarat'));
    const part = meters({ ledger, config, log: h.log } as never, h.changes);
    refusingOnce(ledger, 'service.action');
    const [cleared, acts] = [count(ledger, 'meter.clear'), count(ledger, 'service.action')];
    const clear = () => part.clear('table', 'DICJ-2026-7', 'RAM clear', BY);
    const r = answer(clear);
    agrees(h, r, { before: cleared, after: count(ledger, 'meter.clear') }, { before: acts, after: count(ledger, 'service.action') });
    if (!ok(r)) assert.equal(ok(answer(clear)), true, 'the retry is taken');
    assert.equal(count(ledger, 'meter.clear'), cleared + 1, 'one meter.clear for one clear asked');
    ledger.close();
  });

  it('ticket out settled by hand (void): the credit back and recorded, or neither; a retry voids it once', async () => {
    const r = printerRig();
    rigs.push(r);
    await layoutDefined(r);
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-TO' });
    const h = harness();
    ledger.append(billCredit(3, 123_450, 'bill-3'));
    const c = simulatedTableConfig();
    const out = new TicketOut({
      config: { ...c, tickets: { ...c.tickets, machineId: 4242 } },
      ledger,
      log: silent,
      printerAt: (s) => (s === 3 ? r.p : undefined),
      faults: new TiltManager({ ledger, log: silent }),
      now: () => new Date('2026-11-26T10:00:00.000Z'),
      onChanged: () => undefined,
    });
    r.sim.tell('jam-claims-printed', 1);
    assert.equal((await out.cashOut(3)).kind, 'unresolved', 'held for a person');
    const page = tickets({ ledger, config: c, floor: { tickets: out } }, h.changes);
    const [held] = page.held();
    assert.ok(held);
    refusingOnce(ledger, 'service.action');
    const [voids, acts] = [count(ledger, 'ticket.void'), count(ledger, 'service.action')];
    const settle = () => page.settle(3, held.last4, 'void', BY);
    const first = answer(settle);
    agrees(h, first, { before: voids, after: count(ledger, 'ticket.void') }, { before: acts, after: count(ledger, 'service.action') });
    if (!ok(first)) assert.equal(ok(answer(settle)), true, 'the retry is taken');
    assert.equal(count(ledger, 'ticket.void'), voids + 1, 'voided once');
    assert.equal(ledger.credit(3), 123_450, 'the credit back once');
    page.dispose();
    ledger.close();
  });

  it('ticket in settled by hand: credited and answered done, or neither', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-TI' });
    const h = harness();
    const config = simulatedTableConfig('baccarat');
    const theirs = validationNumber(12, 9);
    const r1 = '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
    ledger.append({ type: 'ticket.redeem.request', payload: { requestId: r1, validation: theirs, station: 3 }, txId: ticketInTxId(r1, 'request') });
    ledger.append({
      type: 'ticket.redeem.approved',
      payload: { requestId: r1, validation: theirs, station: 3, amount: 12_500, currency: 'MOP' },
      txId: ticketInTxId(r1, 'approved'),
    });
    const ticketsIn = new TicketIn({ config, ledger, log: silent, authority: null });
    const out = { held: () => [], settleByHand: () => assert.fail('not asked') };
    const page = tickets({ ledger, config, floor: { tickets: out, ticketsIn } }, h.changes);
    const [held] = page.heldIn();
    assert.ok(held);
    refusingOnce(ledger, 'service.action');
    const [stacked, acts] = [count(ledger, 'ticket.redeem.stacked'), count(ledger, 'service.action')];
    const r = answer(() => page.settleIn({ station: 3, seq: held.seq, last4: held.last4 }, 'stacked', BY));
    agrees(h, r, { before: stacked, after: count(ledger, 'ticket.redeem.stacked') }, { before: acts, after: count(ledger, 'service.action') });
    assert.equal(ledger.credit(3), ok(r) ? 12_500 : 0);
    page.dispose();
    ledger.close();
  });
});
