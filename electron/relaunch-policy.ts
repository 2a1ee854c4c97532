/**
 * When the kiosk relaunches itself (the host died, a screen or the GPU keeps crashing) and when it
 * stops trying. The count of consecutive relaunches travels on the relaunched process's command
 * line; a run that lasted `resetAfterMs` starts it again. Past `max` in a row the kiosk shows the
 * out-of-service page instead of looping (or leaving a desktop or a black screen), with the
 * reason in the log.
 */
export interface RelaunchPolicy {
  max: number;
  resetAfterMs: number;
}

export const RELAUNCH_POLICY: RelaunchPolicy = { max: 3, resetAfterMs: 5 * 60_000 };

export type RelaunchDecision = { action: 'relaunch'; count: number } | { action: 'out-of-service'; count: number };

export function relaunchDecision(previous: number, startedAt: number, now: number, policy: RelaunchPolicy = RELAUNCH_POLICY): RelaunchDecision {
  const count = now - startedAt >= policy.resetAfterMs || !Number.isFinite(previous) ? 0 : Math.max(0, Math.trunc(previous));
  return count >= policy.max ? { action: 'out-of-service', count } : { action: 'relaunch', count: count + 1 };
}

/** The argument carrying the count; anything else of the command line is kept as it was. */
export const RELAUNCHES_ARG = '--relaunches=';

export function relaunchArgs(argv: readonly string[], count: number): string[] {
  return [...argv.filter((a) => !a.startsWith(RELAUNCHES_ARG)), `${RELAUNCHES_ARG}${count}`];
}
