// The back office (issue 49; docs/backoffice.md): a web page the upstream serves, with its own
// sign-in, the floor live, worked alarms and the gaming day's reports.
import type { FastifyInstance } from 'fastify';
import { registerBackofficeApi, type BackofficeOptions } from './routes.js';

export type BackofficeServerOptions = Omit<BackofficeOptions, 'db'>;

export async function registerBackoffice(app: FastifyInstance, options: BackofficeOptions): Promise<void> {
  await registerBackofficeApi(app, options);
}

export { putUser, disableUser, listUsers, UserError, type BackofficeUser } from './users.js';
export { BackofficeRole } from './roles.js';
export { MIN_PASSWORD_LENGTH, SCRYPT } from './password.js';
