import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../sql.js';
import { audit } from './audit.js';
import { dayOf, dayWindow, hasWindow, readDayHours } from './day-hours.js';
import { gamingDayReport } from './gaming-day.js';
import { hourlyPlots } from './plots.js';
import { reportSync } from './report-sync.js';
import type { Permission } from './roles.js';
import type { Session } from './sessions.js';
import { readSettings } from './settings.js';

/**
 * The gaming day a report is asked for: a day of the calendar (2026-02-30 is a 400, not 2 March under
 * that name) with a window (9998-12-31 is a 400: its window would end on 9999-01-01, out of range).
 */
const ReportQuery = z.strictObject({
  date: z.string().refine(hasWindow, { message: 'a gaming day is YYYY-MM-DD, a day of the calendar from 1970-01-01 to 9998-12-30' }).optional(),
});

type SignedIn = (req: FastifyRequest, reply: FastifyReply, need: Permission) => Promise<Session | null>;

/** The day asked (today by the back office's clock, if none), with its window under the start hour it began at. */
async function dayAsked(db: Db, asked: string | undefined, now: Date) {
  const hours = await readDayHours(db, (await readSettings(db)).gamingDayStartHour);
  const date = asked ?? dayOf(hours, now);
  return { date, window: dayWindow(hours, date) };
}

/** The gaming day's report and its plots (`report`: supervisor, accounting, administrator). */
export function reportRoutes(api: FastifyInstance, db: Db, signedIn: SignedIn, now: () => number): void {
  const scope = api.withTypeProvider<ZodTypeProvider>();
  scope.get('/reports/gaming-day', { schema: { hide: true, querystring: ReportQuery } }, async (req, reply) => {
    const s = await signedIn(req, reply, 'report');
    if (!s) return reply;
    const { date, window } = await dayAsked(db, req.query.date, new Date(now()));
    const { outOfRange, ...day } = await gamingDayReport(db, date, window);
    // The tables left out for figures no table takes in a day are said with how far each had come.
    const report = { ...day, sync: { ...(await reportSync(db, window, new Date(now()))), outOfRange } };
    // The answer's exact bytes, digested in the audit: what was read, should it be disputed.
    const body = JSON.stringify(report);
    const digest = createHash('sha256').update(body).digest('hex');
    await audit(db, { actor: s.name, address: req.ip, action: 'report.read', detail: { date, digest } });
    return reply.type('application/json; charset=utf-8').send(body);
  });
  scope.get('/reports/plots', { schema: { hide: true, querystring: ReportQuery } }, async (req, reply) => {
    if (!(await signedIn(req, reply, 'report'))) return reply;
    const { date, window } = await dayAsked(db, req.query.date, new Date(now()));
    return hourlyPlots(db, date, window);
  });
}
