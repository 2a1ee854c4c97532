import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import type { BillAcceptorEvent } from '../../hardware/billacceptor/types.js';
import { ticketStackedTxId } from '../../ledger/ticket-postings.js';
import { validationNumber } from '../../terms/validation-number.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { BillAcceptors } from '../devices/bill-acceptors.js';
import { tableCreditRule } from '../devices/credit-rule/table-credit-rule.js';
import { TicketIn } from '../devices/ticket-in.js';
import { credit, silent, testTable } from '../testing/table-kit.js';
import type { TicketAuthority } from '../tickets/authority.js';
import { simControls } from './sim-controls.js';

describe("the sim controls' end of a countdown", () => {
  // A browser test ended the betting window through /sim/end-countdown while baccarat's shoe-start
  // burns were still being dealt (CI, 29 November): the control said ok, the table opened the window
  // again whole (closeBetting: the shoe comes first) and the test's 90 s wait for the coup ran out.
  it('refuses to end a betting window while the shoe procedure is due, saying why, and ends it once the shoe is ready', () => {
    const t = testTable({ game: 'baccarat' });
    try {
      const sim = simControls('token', {
        billAcceptors: { simulator: () => null, onEvent: () => () => true },
        printers: { simulator: () => null },
        table: t.table,
        simDealer: () => null,
      });
      credit(t.ledger, 1, 100_000);
      // The shoe-start procedure: the first card turned (a 9: nine more burned, Macau baccarat Art. 2 n.1).
      t.table.shoe.onCard(parseCard('9H'));
      const burns = ['2C', '3D', '4H', '5S', '6C', '7D', '8H', '9S', 'TC', 'JD'];
      for (const c of burns.slice(0, 4)) t.table.shoe.onCard(parseCard(c));
      assert.equal(t.table.reads.cue()?.kind, 'card', 'burns still due');
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'banker' }, 10_000), { ok: true });
      const refused = sim.endCountdown('betting');
      assert.match(refused ?? '', /shoe/);
      assert.equal(t.table.reads.view().phase, 'betting');
      // The burns done, the window ends when asked and the coup is dealt.
      for (const c of burns.slice(4)) if (t.table.reads.cue()?.kind === 'card') t.table.shoe.onCard(parseCard(c));
      assert.equal(t.table.reads.cue(), null, 'the burns done');
      assert.equal(sim.endCountdown('betting'), null);
      assert.equal(t.table.reads.view().phase, 'dealing');
      // No countdown of the kind running: said, as before.
      assert.match(sim.endCountdown('betting') ?? '', /no betting countdown is running/);
    } finally {
      t.close();
    }
  });
});

describe("the sim controls' ticket inserted", () => {
  /** An authority that approves every ticket at 25 patacas, once per number. */
  function approving(): TicketAuthority {
    const ok = async () => ({ ok: true }) as const;
    const asked = new Set<string>();
    return {
      machineId: async () => ({ ok: true, machineId: 31 }),
      registerIssue: ok,
      registerPrinted: ok,
      registerVoid: ok,
      redeem: async (r) => {
        if (asked.has(r.validation)) return { kind: 'refused', requestId: r.requestId, reason: 'pending-elsewhere' };
        asked.add(r.validation);
        return { kind: 'approved', requestId: r.requestId, validation: r.validation, amount: 2_500, currency: r.currency };
      },
      confirm: ok,
      cancel: ok,
    };
  }

  async function until(ok: () => boolean, what: string, ms = 20_000): Promise<void> {
    const end = Date.now() + ms;
    while (!ok()) {
      if (Date.now() > end) throw new Error(`timed out: ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  // The browser test of a ticket in held (tests/browser/ticket-in-held.spec.ts) needs the acceptor
  // to break its protocol after STACK, as host/devices/ticket-in-held.test.ts makes its simulator do.
  it('with swapAfterStack: the simulated ID-003 unit reports other digits once told to STACK (escrow-changed), the approved ticket held, never credited; without it, credited', async (t) => {
    const tt = testTable({ game: 'war' });
    const base = simulatedTableConfig('war');
    const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 1) });
    const tickets = new TicketIn({ config, ledger: tt.ledger, log: silent, authority: approving() });
    const acceptors = new BillAcceptors({
      config,
      ledger: tt.ledger,
      log: silent,
      credits: tableCreditRule({ config, ledger: tt.ledger, log: silent, fault: () => undefined }),
      tickets,
    });
    const events: BillAcceptorEvent[] = [];
    acceptors.onEvent((_s, e) => void events.push(e));
    acceptors.start();
    t.after(() => {
      acceptors.close();
      tt.close();
    });
    const sim = simControls('token', { billAcceptors: acceptors, printers: { simulator: () => null }, table: tt.table, simDealer: () => null });
    await until(() => acceptors.statuses().some((s) => s.state === 'ready'), 'the acceptor ready');
    const [held, honest, other] = [validationNumber(31, 5), validationNumber(31, 6), validationNumber(31, 7)];

    assert.equal(sim.insertTicket(1, held, { swapAfterStack: other }), null);
    await until(() => events.some((e) => e.type === 'protocolViolation'), 'the acceptor’s dispute');
    const violation = events.find((e) => e.type === 'protocolViolation');
    assert.equal(violation?.type === 'protocolViolation' ? violation.rule : null, 'escrow-changed');
    await until(() => tickets.held().length === 1, 'the ticket held for a person');
    assert.deepEqual(
      tickets.held().map((h) => [h.station, h.last4, h.amount]),
      [[1, held.slice(-4), 2_500]],
    );
    assert.equal(tt.ledger.byTxId(ticketStackedTxId(held)), undefined, 'never credited on the word of a unit in dispute');
    assert.equal(tt.ledger.credit(1), 0);

    // Without the lie the unit stacks as it should: credited once.
    assert.equal(sim.insertTicket(1, honest), null);
    await until(() => tickets.lastAt(1)?.state === 'credited', 'the honest ticket credited');
    assert.equal(tt.ledger.credit(1), 2_500);
    assert.equal(events.filter((e) => e.type === 'protocolViolation').length, 1, 'one dispute: the lie was that ticket’s only');

    // A station with no simulated ID-003 acceptor: said.
    assert.match(sim.insertTicket(2, honest, { swapAfterStack: other }) ?? '', /no simulated ID-003 acceptor/);
  });
});
