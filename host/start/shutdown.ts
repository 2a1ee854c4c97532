import type { Logger } from 'pino';
import type { StartStops } from './stops.js';

/** What a running host is stopped with: its one list of stops, its log, and the log file's close. */
export interface Started {
  /** Everything the host started, each stop put there by the step that started it (host/start/stops.ts). */
  stops: StartStops;
  log: Pick<Logger, 'info' | 'flush'>;
  /** Closes the log file the host opened (none when it was given a logger): the last act of a stop. */
  closeLog: () => Promise<void>;
}

/**
 * The host stopped: the stops its start put on its one list (host/start/stops.ts), the same a
 * start that fails part-way runs, phase by phase in `STOP_PHASES`' order: what only looks, then
 * what makes rounds (simulated players, the dealer, the floor, the table), then service mode
 * (whoever is signed in is journalled out before the ledger closes, and the exits the journal
 * refused while the host ran are tried once more, else logged), the listeners, the devices, the
 * faults, the service accounts' database once no request can reach it, then the ledger and the
 * data folder, and last the log file: nothing of the folder is left open, no WAL beside a
 * database (issue 52 item 6; tests/host/clean-shutdown.test.ts).
 *
 * Each step runs whatever the one before did, its failure logged: service mode's exits refused by
 * a full journal rejected the whole shutdown, and the devices, the ledger, the folder's lock and
 * the log were never closed (host/start/shutdown-steps.test.ts). Never rejects.
 */
export async function shutdown(s: Started): Promise<void> {
  const { stopped, failed } = await s.stops.stopAll();
  try {
    s.log.info({ failed, stopped }, 'table host stopped');
    s.log.flush();
    await s.closeLog();
  } catch (err) {
    // The log itself failed: said where the supervisor's journal reads it.
    console.error('the host stopping: its log could not be closed', err);
  }
}
