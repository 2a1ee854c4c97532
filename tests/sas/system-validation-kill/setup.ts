// What the system validation kill test's station process and its driver share
// (tests/sas/system-validation-kill.e2e.test.ts): the table's configuration — station 1 on a SAS
// link, numbered by the casino's system (`sas.validation: "system"`, `tickets.authority: "sas"`),
// with a simulated printer — its start, and the kill points.
import path from 'node:path';
import pino from 'pino';
import { simulatedTableConfig, type TableConfig } from '../../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../../host/start-host.js';

export const STATION = 1;
export const ADDRESS = 23;

/**
 * Where the station process kills itself: right after the entry commits, inside the journal's
 * write — the wait journalled (before 57 is raised), the system's number journalled (before 0x58
 * is answered and before `ticket.issue`), the ticket issued (before the print command).
 */
export const KILL_AFTER = { request: 'ticket.validation.request', end: 'ticket.validation.end', issue: 'ticket.issue' } as const;
export type KillPoint = keyof typeof KILL_AFTER;

function config(machinePty: string): TableConfig {
  const c = simulatedTableConfig('war');
  c.stations = c.stations.map((s) =>
    s.station === STATION ? { ...s, printer: 'sim', sas: { link: `serial:${machinePty}`, address: ADDRESS, validation: 'system' } } : s,
  );
  c.tickets = { ...c.tickets, authority: 'sas' };
  return c;
}

/** The real host start on the trial's data folder (the station process's, and the restart's). */
export function startSystemValidationStation(dataDir: string, machinePty: string): Promise<RunningHost> {
  return startHost({
    dataDir,
    rendererDir: path.join(dataDir, 'none'),
    logger: pino({ level: 'silent' }),
    config: config(machinePty),
    simulatedDealer: false,
    // No silence is a link-down, and no wait times out, within a trial.
    sasTiming: { silenceMs: 60_000, ackTimeoutMs: 120_000, systemValidationMs: 60_000 },
  });
}
