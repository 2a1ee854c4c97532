import type { BillAcceptors } from '../devices/bill-acceptors.js';
import type { Printers } from '../devices/printers.js';
import type { SimDealer } from '../devices/sim-dealer.js';
import type { PrinterSimFault } from '../server/http-deps.js';
import type { HttpServerDeps } from '../server/http-server.js';
import type { LiveTable } from '../table/runtime.js';

/** What the controls reach: the simulated devices, the table and its dealer. */
export interface SimControlDevices {
  billAcceptors: Pick<BillAcceptors, 'simulator' | 'onEvent'>;
  printers: Pick<Printers, 'simulator'>;
  table: LiveTable;
  simDealer: () => SimDealer | null;
}

/**
 * The simulated devices' control channel (`--sim-controls`, tests and demos): a note or a ticket
 * inserted (the acceptor made to break its protocol after STACK, or to jam with the note once the
 * host has decided on it, if asked), the dealer's next card unreadable or a card misdrawn, the dealer held after some cards, an acceptor jammed, a countdown ended or
 * frozen. The dealer is made once the devices open, after the server listens: it is asked for when used.
 */
export function simControls(token: string, { billAcceptors, printers, table, simDealer }: SimControlDevices): NonNullable<HttpServerDeps['simControls']> {
  return {
    token,
    insertNote: (station: number, note: number, lie?: { jamAfterStack: true }) => {
      const sim = billAcceptors.simulator(station);
      if (!sim) return `station ${station} has no simulated bill acceptor`;
      // As host/devices' floor test does: the unit jams in the stacker while the host decides, the
      // note in its path; the host journals it in escrow and answers STACK, which the jam never ends.
      if (lie) {
        // A note the unit refuses before escrow ends the ask: a later note is not jammed by it.
        const off = billAcceptors.onEvent((at, e) => {
          if (at !== station || (e.type !== 'escrowed' && e.type !== 'rejected')) return;
          off();
          if (e.type === 'escrowed') sim.faults.jam('stacker');
        });
      }
      sim.insertNote(note);
      return null;
    },
    insertTicket: (station: number, barcode: string, lie?: { swapAfterStack: string }) => {
      const sim = billAcceptors.simulator(station);
      if (!sim?.insertTicket) return `station ${station} has no simulated ID-003 acceptor (tickets are ID-003 barcodes)`;
      // The lie the unit tests tell (host/devices/ticket-in-held.test.ts): another barcode in escrow once told to STACK.
      sim.insertTicket(barcode, lie ? { swapTo: lie.swapAfterStack, swapAt: 'stacking' } : {});
      return null;
    },
    takeTicket: (station: number) => {
      const sim = printers.simulator(station);
      if (!sim) return `station ${station} has no simulated printer`;
      // The tickets in the chute are the last ones out of the printer: the player takes them all.
      const inChute = sim.ticketsInChute;
      const barcodes = sim.paper.slice(sim.paper.length - inChute).map((t) => t.barcode);
      sim.takeTicket();
      return { barcodes };
    },
    unreadableNext: () => {
      const dealer = simDealer();
      if (!dealer) return 'no simulated dealer at this table';
      dealer.unreadableNext();
      return null;
    },
    misdraw: () => {
      const dealer = simDealer();
      return dealer ? dealer.misdrawNow() : 'no simulated dealer at this table';
    },
    holdDealer: (cards: number) => {
      const dealer = simDealer();
      if (!dealer) return 'no simulated dealer at this table';
      dealer.holdAfterCards(cards);
      return null;
    },
    releaseDealer: () => {
      const dealer = simDealer();
      if (!dealer) return 'no simulated dealer at this table';
      dealer.release();
      return null;
    },
    billFault: (station: number, fault: 'jam' | 'clear') => {
      const sim = billAcceptors.simulator(station);
      if (!sim) return `station ${station} has no simulated bill acceptor`;
      if (fault === 'jam') sim.faults.jam();
      else sim.faults.clear();
      return null;
    },
    printerFault: (station: number, fault: PrinterSimFault) => {
      const faults = printers.simulator(station)?.faults;
      if (!faults) return `station ${station} has no simulated printer`;
      if (fault === 'paper-out') faults.paperOut();
      else if (fault === 'jam') faults.jam();
      else if (fault === 'jam-mid-ticket') faults.jam('validated');
      else {
        faults.paperOut(false);
        faults.clearJam();
      }
      return null;
    },
    ...countdownControls(table),
  };
}

/** The countdowns' controls: the running countdown of a kind ended now, or left to wait until ended. */
function countdownControls(table: LiveTable): Pick<NonNullable<HttpServerDeps['simControls']>, 'endCountdown' | 'freezeCountdown'> {
  return {
    endCountdown: (kind) => {
      // A betting window never closes before the shoe's procedure (a new shoe, the shoe-start
      // burns): its countdown run out then opens the window again whole (engine/table/betting.ts,
      // closeBetting). Ended now it would do the same, and a caller waiting for the coup would wait
      // that whole window: said instead, so the caller asks again once the shoe is ready.
      const cue = kind === 'betting' && table.reads.view().phase === 'betting' ? table.reads.cue() : null;
      if (cue) return `the shoe comes first (${cue.kind === 'card' ? `a card to ${cue.to}` : cue.kind}): the betting window cannot close yet`;
      return table.countdowns.end(kind) ? null : `no ${kind} countdown is running`;
    },
    freezeCountdown: (kind) => (table.countdowns.freeze(kind) ? null : `no ${kind} countdown is running`),
  };
}
