import { isDemonstration } from '../../config/authorisation.js';
import type { ServiceBackend } from '../service-backend.js';
import { accessJournal } from './access-journal.js';
import { changeSignal } from './changes.js';
import { configuration } from './config.js';
import type { LiveBackendDeps } from './deps.js';
import { deviceTests } from './device-tests.js';
import { deviceTrace } from './device-trace.js';
import { devices } from './devices.js';
import { enrolment } from './enrolment.js';
import { eventLogReader } from './event-log.js';
import { handpays } from './handpays.js';
import { jackpot } from './jackpot.js';
import { peerActions } from './peers.js';
import { meterExports } from './meter-exports.js';
import { meters } from './meters.js';
import { programCheck } from './program-check.js';
import { recall } from './recall.js';
import { roundActions } from './round-actions.js';
import { serviceJournal } from './service-journal.js';
import { upstreamSync } from './sync.js';
import { tableActions } from './table-actions.js';
import { tableSummary } from './table-summary.js';
import { tickets } from './tickets.js';

/** The service backend over the host's services, and its end when the host stops (timers, listeners, tests waiting). */
export type LiveServiceBackend = ServiceBackend & { dispose(): void };

/**
 * The service backend over what the host has (see `service-backend.ts`): one part per service
 * page, each built from its area's files, each file handed only the services it uses.
 */
export function liveServiceBackend(d: LiveBackendDeps): LiveServiceBackend {
  const now = d.now ?? Date.now;
  const changes = changeSignal();
  const journal = serviceJournal(d.ledger, changes);
  const trace = deviceTrace(d, now, changes);
  const tests = deviceTests(d, journal);
  const stations = enrolment(d, now, journal, changes);
  const ticketPage = tickets(d, changes);
  const peers = peerActions(d, now, journal, changes);
  const unlisten = [d.table.onChange(() => changes.changed()), d.floor.tilts.onChange(() => changes.changed())];
  const summary = tableSummary(d);
  const switches = tableActions(d, journal);
  const log = eventLogReader(d);
  const config = d.config;
  return {
    cabinet: {
      tableId: config.tableId,
      demonstration: isDemonstration(config),
      currency: config.currency,
      softwareVersion: d.softwareVersion,
      /** Handpays above this (minor units) need two people: the table configuration's, which may change. */
      get twoPersonHandpayAbove(): number {
        return config.handpayTwoPersonAbove;
      },
    },
    status: { tilts: summary.tilts, clearTilt: switches.clearTilt, ...programCheck(d, now, journal, changes) },
    holds: { table: summary.table, newShoe: switches.newShoe, setTableOpen: switches.setTableOpen, ...roundActions(d) },
    devices: {
      trace: trace.trace,
      frames: trace.frames,
      ...devices(d, trace, journal, changes),
      testNote: tests.testNote,
      testCard: tests.testCard,
    },
    meters: { ...meters(d, changes), ...meterExports(d, now) },
    recall: recall(d, now),
    events: { list: log.list },
    config: configuration(d, changes),
    cashout: { ...handpays(d, changes), cancelledCredits: log.cancelledCredits },
    tickets: { page: ticketPage.page, held: ticketPage.held, settle: ticketPage.settle, heldIn: ticketPage.heldIn, settleIn: ticketPage.settleIn },
    sync: upstreamSync(d, journal),
    stations: { page: stations.page, enrol: stations.enrol, revoke: stations.revoke, takeEnrolment: stations.takeEnrolment },
    peers: {
      page: peers.page,
      add: peers.add,
      revoke: peers.revoke,
      issueFile: peers.issueFile,
      withdraw: peers.withdraw,
      takeFile: peers.takeFile,
      settle: peers.settle,
    },
    jackpot: jackpot(d, changes),
    sessions: {
      ...accessJournal(d),
      // A session's end discards what waited for it alone: a station's enrolment file, a peer's.
      ended(enterSeq) {
        // Called from a session's timer or its screen's close, where a throw ends the host: each part on its own.
        for (const [part, ended] of [
          ['stations', stations.sessionEnded],
          ['peers', peers.sessionEnded],
        ] as const)
          try {
            ended(enterSeq);
          } catch (err) {
            d.log.error({ err, part, enterSeq }, 'a service session ended; what waited for it could not be discarded whole');
          }
      },
    },
    onChange: changes.onChange,
    dispose() {
      trace.dispose();
      stations.dispose();
      peers.dispose();
      ticketPage.dispose();
      for (const u of unlisten) u();
      tests.dispose();
    },
  };
}
