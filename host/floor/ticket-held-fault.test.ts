// A ticket the printer cannot judge is held for a person (docs/tito.md, "A ticket held after a
// jam"). Before, only the station's screen said "unresolved" and the service page listed it: no
// fault, so the floor (the back office's floor page, service mode's faults) never heard that a
// player waited at a locked station. Now `ticket-held` is raised at the station, naming the
// ticket's last four digits, and cleared once the ticket ends: by a person's settlement, or by the
// printer's own later verdict.
import assert from 'node:assert/strict';
import { tiltSaid } from '../../terms/said.js';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { layoutDefined, printerRig, type PrinterRig } from '../../hardware/printer/printer-rig.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/ledger.js';
import { ticketsInPrint } from '../../ledger/ticket-queries.js';
import { validationNumber } from '../../terms/validation-number.js';
import { simulatedTableConfig } from '../config/table-config.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { TicketOut } from './ticket-out.js';

const rigs: PrinterRig[] = [];
after(async () => {
  for (const r of rigs) await r.p.close();
});

const LAST4 = validationNumber(4242, 1).slice(-4);

async function heldAt3(): Promise<{ t: TicketOut; r: PrinterRig; tilts: TiltManager; l: Ledger }> {
  const r = printerRig();
  rigs.push(r);
  await layoutDefined(r);
  const l = Ledger.open({ file: ':memory:', terminalId: 'T-01' });
  l.append(billCredit(3, 123_450, 'bill-3'));
  const c = simulatedTableConfig();
  const tilts = new TiltManager({ ledger: l, log: pino({ level: 'silent' }) });
  const t = new TicketOut({
    config: { ...c, tickets: { ...c.tickets, machineId: 4242 } },
    ledger: l,
    log: pino({ level: 'silent' }),
    printerAt: (s) => (s === 3 ? r.p : undefined),
    faults: tilts,
    now: () => new Date('2026-11-26T10:00:00.000Z'),
    onChanged: () => undefined,
  });
  r.sim.tell('jam-claims-printed', 1);
  assert.equal((await t.cashOut(3)).kind, 'unresolved');
  return { t, r, tilts, l };
}

const heldFault = (tilts: TiltManager) => tilts.list().filter((f) => f.kind === 'ticket-held');

describe('a ticket held for a person is a fault at its station', () => {
  it('raised when the printer cannot say, naming the last four digits; cleared by the settlement', async () => {
    const { t, tilts } = await heldAt3();
    const f = heldFault(tilts);
    assert.equal(f.length, 1, JSON.stringify(tilts.list()));
    assert.equal(f[0]?.station, 3);
    assert.match(f[0]?.detail ?? '', new RegExp(`…${LAST4}`));
    assert.doesNotMatch(f[0]?.detail ?? '', new RegExp(validationNumber(4242, 1)), 'the whole number never leaves the host for a screen');
    // Said by key, as service mode's fault list shows a detail (a review: the last four digits reached no screen).
    assert.deepEqual(f[0]?.say, { key: 'tiltDetail.ticketHeld', values: { lastDigits: LAST4 } });
    assert.ok(tiltSaid.safeParse(f[0]?.say).success, 'a say the journal takes');
    assert.equal(t.settleByHand(3, LAST4, 'void', ['Ana Lei (1001)']).ok, true);
    assert.deepEqual(heldFault(tilts), [], 'cleared once settled');
  });

  it("cleared by the printer's own later verdict (the jam cleared, its link back: asked again)", async () => {
    const { t, r, tilts, l } = await heldAt3();
    r.sim.faults.clearJam();
    const [ticket] = ticketsInPrint(l);
    assert.ok(ticket);
    r.sim.unplug();
    const asking = t.settle(ticket);
    await new Promise((res) => setTimeout(res, 100));
    r.sim.replug();
    const out = await asking;
    assert.notEqual(out.kind, 'unresolved', JSON.stringify(out));
    assert.deepEqual(heldFault(tilts), []);
  });

  it('a ticket left in print whose printer is gone from the configuration: held at the start, the fault raised', async () => {
    const { l } = await heldAt3();
    const tilts = new TiltManager({ ledger: l, log: pino({ level: 'silent' }) });
    const c = simulatedTableConfig();
    const next = new TicketOut({
      config: { ...c, tickets: { ...c.tickets, machineId: 4242 } },
      ledger: l,
      log: pino({ level: 'silent' }),
      printerAt: () => undefined,
      faults: tilts,
      now: () => new Date('2026-11-26T10:00:00.000Z'),
      onChanged: () => undefined,
    });
    await next.recover();
    assert.equal(next.lastAt(3)?.state, 'unresolved', 'the screen says to wait for an attendant, not "printing"');
    assert.equal(heldFault(tilts).length, 1);
  });

  it('restored at the start with no ticket in print (its end journalled, its clear not, before a kill): cleared (a review)', async () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-01' });
    const log = pino({ level: 'silent' });
    new TiltManager({ ledger: l, log }).raise('ticket-held', { station: 3, detail: '…7528' });
    const tilts = new TiltManager({ ledger: l, log });
    tilts.restore();
    assert.equal(heldFault(tilts).length, 1);
    const c = simulatedTableConfig();
    const next = new TicketOut({
      config: { ...c, tickets: { ...c.tickets, machineId: 4242 } },
      ledger: l,
      log,
      printerAt: () => undefined,
      faults: tilts,
      now: () => new Date('2026-11-26T10:00:00.000Z'),
      onChanged: () => undefined,
    });
    await next.recover();
    assert.deepEqual(heldFault(tilts), []);
  });
});
