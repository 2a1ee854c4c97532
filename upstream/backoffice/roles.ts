import { z } from 'zod';

/** The back office's roles (issue 49): who may see, acknowledge, read the money, configure. */
export const BackofficeRole = z.enum(['viewer', 'supervisor', 'accounting', 'administrator']);
export type BackofficeRole = z.infer<typeof BackofficeRole>;

/** What a signed-in user may do; every route names the one it needs. */
export const Permission = z.enum(['floor', 'acknowledge', 'report', 'configure', 'table-config', 'evidence']);
export type Permission = z.infer<typeof Permission>;

/**
 * The matrix, written once. A viewer watches the floor; a supervisor works its alarms, reads
 * the gaming day, and proposes or approves a table's configuration change (`table-config`: never
 * their own, a second such person approves it) and reads a round's evidence bundle (`evidence`: the
 * round's full journal entries, for a dispute); accounting reads the gaming day and the evidence; an administrator
 * does all of that and configures the back office (the gaming day's start, the offline limit).
 * Users themselves are made by `etg upstream user`, on the server, never from a browser.
 */
const GRANTS: Record<BackofficeRole, readonly Permission[]> = {
  viewer: ['floor'],
  supervisor: ['floor', 'acknowledge', 'report', 'table-config', 'evidence'],
  accounting: ['floor', 'report', 'evidence'],
  administrator: ['floor', 'acknowledge', 'report', 'configure', 'table-config', 'evidence'],
};

export function may(role: BackofficeRole, what: Permission): boolean {
  return GRANTS[role].includes(what);
}

export function permissionsOf(role: BackofficeRole): Permission[] {
  return [...GRANTS[role]];
}

/** A user's name: lower case letters, digits, dot, dash, underscore; 2 to 32 characters. */
export const UserName = z.string().regex(/^[a-z0-9][a-z0-9._-]{1,31}$/);
