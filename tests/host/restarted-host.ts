import path from 'node:path';
import pino, { type Logger } from 'pino';
import type { TableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import type { RunningHost } from '../../host/start/host-options.js';
import { manualTimers } from '../../host/testing/manual-timers.js';
import type { StreakTable } from '../../host/testing/streak-rounds.js';

/** A real host over a data folder that a test starts again and again (its configuration changed between starts). */
/** Seats as (station, seat) pairs: every station at its own number's seat. */
export const SEATED_AS_NUMBERED: [number, number][] = [1, 2, 3, 4, 5, 6, 7].map((n) => [n, n]);
/** Stations 1 and 2 change seats: seat 1 (station 1's bet) is station 2's now, seat 2 station 1's. */
export const SEATS_1_2_SWAPPED: [number, number][] = SEATED_AS_NUMBERED.map(([station, seat]) => [station, seat === 1 ? 2 : seat === 2 ? 1 : seat]);

export interface RestartedHost extends StreakTable {
  running: RunningHost;
  config: TableConfig;
}

let starts = 0;

/**
 * The hour of a start made in another process (a child the test kills): taken from this process's
 * count, so the child's clock and the starts after it here never repeat an hour or run back.
 */
export function reserveStartHour(): number {
  return ++starts;
}

/**
 * A real host over `dir` with the test's clock, no simulated dealer and each command committed
 * alone (answered at once: the group commit is tested elsewhere). Each start is an hour after the
 * one before in this process (or `hour` hours on, for a child's start): a round's id has its time in it, so ids never repeat across starts.
 */
export async function startAgain(
  dir: string,
  config: TableConfig,
  hour = reserveStartHour(),
  logger: Logger = pino({ level: 'silent' }),
): Promise<RestartedHost> {
  const clock = manualTimers();
  clock.advance(hour * 3_600_000);
  const running = await startHost({
    dataDir: dir,
    rendererDir: path.join(dir, 'none'),
    logger,
    config,
    simulatedDealer: false,
    timers: clock.timers,
    groupCommit: null,
  });
  return { running, config, table: running.table, hub: running.screens.hub, clock, ledger: running.ledger };
}
