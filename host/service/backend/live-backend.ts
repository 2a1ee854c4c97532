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
 * The service backend over what the host has (see `service-backend.ts`): one record of the
 * service areas' functions, each area in its own file and handed only the services it uses.
 */
export function liveServiceBackend(d: LiveBackendDeps): LiveServiceBackend {
  const now = d.now ?? Date.now;
  const changes = changeSignal();
  const journal = serviceJournal(d.ledger, changes);
  const trace = deviceTrace(d, now, changes);
  const tests = deviceTests(d, journal);
  const stations = enrolment(d, now, journal, changes);
  const ticketPage = tickets(d, changes, journal);
  const peers = peerActions(d, now, journal, changes);
  const unlisten = [d.table.onChange(() => changes.changed()), d.floor.tilts.onChange(() => changes.changed())];
  const { dispose: _trace, shoeIdentity: _identity, ...traceReads } = trace;
  const { dispose: _tests, ...testActions } = tests;
  const { dispose: _stations, ...stationActions } = stations;
  const { dispose: _tickets, ...ticketReads } = ticketPage;
  const { dispose: _peers, sessionEnded: _peerFiles, ...peerPage } = peers;
  return {
    tableId: d.config.tableId,
    demonstration: isDemonstration(d.config),
    currency: d.config.currency,
    softwareVersion: d.softwareVersion,
    /** Handpays above this (minor units) need two people: the table configuration's, which may change. */
    get twoPersonHandpayAbove(): number {
      return d.config.handpayTwoPersonAbove;
    },
    ...tableSummary(d),
    ...traceReads,
    ...devices(d, trace, journal, changes),
    ...testActions,
    ...upstreamSync(d, journal),
    ...meters(d, journal, changes),
    ...meterExports(d, now),
    ...recall(d, now),
    ...eventLogReader(d),
    ...configuration(d, changes),
    ...handpays(d, journal, changes),
    ...jackpot(d, journal, changes),
    ...ticketReads,
    ...stationActions,
    ...peerPage,
    ...roundActions(d, journal),
    ...tableActions(d, journal),
    ...programCheck(d, now, journal, changes),
    ...accessJournal(d),
    // A session's end discards what waited for it alone: a station's enrolment file, a peer's.
    sessionEnded(enterSeq) {
      stationActions.sessionEnded(enterSeq);
      peers.sessionEnded(enterSeq);
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
