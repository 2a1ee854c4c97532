import { Autoplay } from '../autoplay/autoplay.js';
import { startSimAttendant, type AttendantTickets } from '../autoplay/sim-attendant.js';
import { SimDealer } from '../devices/sim-dealer.js';
import type { RemoteSas } from '../devices/remote-sas.js';
import type { TableShoe } from '../devices/shoe.js';
import { clearRemovedPrinterFaults, type Printers } from '../devices/printers.js';
import { jackpotsPaidMeanwhile, type WiredFloorServices } from '../floor/floor-services.js';
import type { LaunchTokens } from '../screens/launch-tokens.js';
import { openSasLinks, type SasLinks } from './sas-links.js';
import type { ScreenSessions } from './screen-sessions.js';
import type { HostOptions } from './host-options.js';
import type { Opened } from './opened.js';
import type { TableRuntime } from './table-runtime.js';
import type { StartStops } from './stops.js';

/** What runs once the devices are open, and how each stops. */
export interface RunningDevices {
  simDealer: SimDealer | null;
  /** The stations' ticket printers, started here, closed at shutdown. */
  printers: Printers;
  autoplay: Autoplay | null;
  stopDealer: () => void;
  stopAttendant: () => void;
  /** The stations' SAS links to the casino's system (docs/sas.md), for those configured with one. */
  sas: SasLinks;
}

/**
 * Devices open once the screens can be served: a note inserted at start-up credits a screen that
 * exists. Then the recovered table is put in play, the shoe started, and in simulated mode the
 * dealer, the players and the attendant.
 */
export function startDevices(
  options: HostOptions,
  o: Pick<Opened, 'config' | 'ledger' | 'log' | 'syncEvents' | 'layout' | 'manifest'>,
  rt: Pick<TableRuntime, 'billAcceptors' | 'printers' | 'game' | 'recovery' | 'paramsNow' | 'table' | 'timers' | 'tilts' | 'sasTickets'>,
  w: { shoe: TableShoe; floor: WiredFloorServices; tokens: LaunchTokens; openSession: ScreenSessions['openSession']; remoteSas?: RemoteSas },
  stops: StartStops,
): RunningDevices {
  const { config, ledger, log, syncEvents } = o;
  const { billAcceptors, printers, game, recovery, paramsNow, table, timers } = rt;
  billAcceptors.start();
  stops.add('devices', 'the bill acceptors', () => billAcceptors.close());
  printers.start();
  clearRemovedPrinterFaults(rt.tilts, config);
  stops.add('devices', 'the printers', () => printers.close());
  // Tickets a kill left in print: each printer is asked once it answers (docs/tito.md).
  void w.floor.tickets.recover().catch((err: unknown) => log.error({ err }, 'tickets in print at start could not be settled'));
  // A simulated shoe is a new device after an unclean stop: no new round before its shoe is in.
  // The parameters now, the journalled configuration changes applied again (by the floor services, above).
  game.resume({ newShoe: !syncEvents.clean && config.shoe === 'sim' && recovery.resumedRound === null, params: paramsNow() });
  // Portugal rule 49: an award confirmed paid before a kill journalled the table's word of it.
  jackpotsPaidMeanwhile(table, w.floor.handpays);
  w.shoe.start();
  const dealer = options.simulatedDealer ?? { dealMs: 800 };
  const simDealer = w.shoe.simulator() && dealer !== false ? new SimDealer(table, w.shoe, timers, log, dealer.dealMs, options.roundScript?.cards) : null;
  const stopDealer = simDealer ? simDealer.start() : () => undefined;
  stops.add('rounds', 'the simulated dealer', stopDealer);
  const autoplay = options.autoplay
    ? new Autoplay({
        config,
        // Simulated players act at the test's speed (30 ms betting windows), not a hand's: no rate limit.
        openSession: (transport) => w.openSession(transport, true),
        tokenFor: (view) => w.tokens.tokenFor(view),
        insertNote: (station, note) => {
          const sim = billAcceptors.simulator(station);
          // One at a time, as at a real slot: a fast soak's player short of credit every round
          // otherwise queued a note a round, and a ticket behind them waited for ever (issue 47).
          if (!sim || sim.busy) return false;
          sim.insertNote(note);
          return true;
        },
        seed: options.seed ?? 1,
        log,
        credit: (station) => ledger.credit(station),
        // With simulated printers and a validation authority (etg soak --tickets: --sim-controls
        // --upstream), players cash out to tickets more often and insert them at other stations.
        ...(config.stations.some((s) => s.printer) && options.upstream !== undefined ? simulatedTicketHands(printers, billAcceptors) : {}),
        ...(options.roundScript ? { script: options.roundScript } : {}),
      })
    : null;
  autoplay?.start();
  if (autoplay) stops.add('rounds', 'the simulated players', () => autoplay.stop());
  // Simulated players cash out now and then: a simulated attendant pays their handpays and
  // settles the tickets a kill left held, as the simulated printer's paper says.
  const attendant = {
    handpays: w.floor.handpays,
    tickets: attendantTickets(w.floor.tickets),
    paperAt: (s: number) => {
      const sim = printers.simulator(s);
      return sim && !sim.busy ? sim.paper : null;
    },
  };
  const stopAttendant = options.autoplay ? startSimAttendant(attendant, timers, log) : () => undefined;
  stops.add('rounds', 'the simulated attendant', stopAttendant);
  // The casino's system polls the stations once they play (their meters and disables are the journal's).
  const sas = openSasLinks(options, o, rt, w.floor, w.remoteSas, stops);
  return { simDealer, printers, autoplay, stopDealer, stopAttendant, sas };
}

/** The held tickets as the simulated attendant sees them: each one's whole number, for the paper. */
function attendantTickets(tickets: WiredFloorServices['tickets']): AttendantTickets {
  return {
    held: () => tickets.held(),
    settleByHand: (station, last4, outcome, by) => tickets.settleByHand(station, last4, outcome, by),
    validationAt: (station) => tickets.pendingAt(station)?.terms.validation ?? null,
  };
}

/** Autoplay's hands on the simulated printers and acceptors: tickets taken from a chute, barcodes inserted. */
function simulatedTicketHands(printers: Printers, billAcceptors: TableRuntime['billAcceptors']) {
  return {
    cashOutChance: 0.12,
    takeTickets: (station: number) => {
      const sim = printers.simulator(station);
      if (!sim) return [];
      const barcodes = sim.paper.slice(sim.paper.length - sim.ticketsInChute).map((t) => t.barcode);
      sim.takeTicket();
      return barcodes;
    },
    insertTicket: (station: number, barcode: string) => {
      const sim = billAcceptors.simulator(station);
      if (!sim?.insertTicket || sim.busy) return false;
      sim.insertTicket(barcode);
      return true;
    },
  };
}
