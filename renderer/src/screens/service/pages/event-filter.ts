import type { PageChoices } from './choices.js';
import { EVENT_GROUPS } from './event-groups.js';

/** How far back each span reaches; a shift is eight hours. */
const SPAN_MS = { hour: 3_600_000, shift: 8 * 3_600_000, day: 86_400_000, week: 7 * 86_400_000 } as const;

/** The filter the host applies to the event log, from the screen's choices at `now`. */
export function eventFilter(c: PageChoices, now: number): Record<string, unknown> {
  const types = c.eventGroups.flatMap((g) => EVENT_GROUPS[g]);
  const from = c.eventSince === 'custom' ? c.eventFrom : c.eventSince === 'all' ? null : now - SPAN_MS[c.eventSince];
  const to = c.eventSince === 'custom' ? c.eventTo : null;
  return {
    ...(types.length ? { types } : {}),
    ...(c.eventSeverity !== 'all' ? { severity: c.eventSeverity } : {}),
    ...(from !== null ? { from: new Date(from).toISOString() } : {}),
    // A typed minute includes its whole minute.
    ...(to !== null ? { to: new Date(to + 59_999).toISOString() } : {}),
  };
}
