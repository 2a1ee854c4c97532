// What the AFT kill campaign's station process and its driver share: the table's configuration
// (station 1 on a SAS link with AFT), its start, and the kill points.
import path from 'node:path';
import pino from 'pino';
import { z } from 'zod';
import { simulatedTableConfig, type TableConfig } from '../../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../../host/start-host.js';

export const STATION = 1;
export const ADDRESS = 21;
export const ASSET = 48_000_777;
export const LIMIT = 500_000;

/**
 * Where a transfer is killed. The first two are inside the journal's write of its entry (the
 * station kills itself); the rest are the campaign's SIGKILL from outside: after the system has
 * the 0x72 answer (not yet acknowledged), after it read exception 69 (not acknowledged), and after
 * it acknowledged 69.
 */
export const KILL_POINTS = ['before-commit', 'after-commit', 'after-answer', 'after-69-read', 'after-69-acked'] as const;
export type KillPoint = (typeof KILL_POINTS)[number];

export const KillArm = z.object({ at: z.enum(['before-commit', 'after-commit']), id: z.string() });
export type KillArm = z.infer<typeof KillArm>;

export function aftConfig(machinePty: string): TableConfig {
  const c = simulatedTableConfig('war');
  c.stations = c.stations.map((s) =>
    s.station === STATION ? { ...s, sas: { link: `serial:${machinePty}`, address: ADDRESS, aft: { assetNumber: ASSET, limit: LIMIT } } } : s,
  );
  return c;
}

/** The real host start on the trial's data folder (the station process's, and the restart's in the campaign). */
export function startAftStation(dataDir: string, machinePty: string): Promise<RunningHost> {
  return startHost({
    dataDir,
    rendererDir: path.join(dataDir, 'none'),
    logger: pino({ level: 'silent' }),
    config: aftConfig(machinePty),
    simulatedDealer: false,
    // No silence in a trial is a link-down: the link's faults have their own test.
    sasTiming: { silenceMs: 60_000, ackTimeoutMs: 120_000 },
  });
}
