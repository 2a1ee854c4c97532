import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { startUpstream } from '../../upstream/index.js';
import { dbChoice, DB_OPTIONS, defineCommand, options, UsageError } from './common.js';

export const command = defineCommand({
  name: 'upstream serve',
  summary: 'The upstream service. Serve behind a TLS-terminating proxy (or on loopback): kiosks accept\nhttps:// only, except loopback.',
  usage: 'usage: etg upstream [serve] [--pg postgres://… | --data-dir DIR] [--listen HOST:PORT] [--admin-token-file F]',
  options: {
    ...DB_OPTIONS,
    listen: { type: 'string', value: 'HOST:PORT', help: 'where to listen', default: '127.0.0.1:8787' },
    'admin-token-file': {
      type: 'string',
      value: 'F',
      help: 'bearer token for the query/admin routes (or env UPSTREAM_ADMIN_TOKEN);\nwithout one those routes answer loopback callers only',
    },
  },
});

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  // No silent in-memory default: an upstream that forgets on restart is worse than none.
  const db = dbChoice(v, command.usage);
  const m = /^(.+):(\d{1,5})$/.exec(String(v.listen ?? '127.0.0.1:8787'));
  const port = Number(m?.[2]);
  if (!m || port > 65535) throw new UsageError(`--listen must be HOST:PORT\n${command.usage}`);
  const host = (m[1] ?? '').replace(/^\[(.*)\]$/, '$1');
  const adminToken = v['admin-token-file'] ? readFileSync(String(v['admin-token-file']), 'utf8').trim() : process.env.UPSTREAM_ADMIN_TOKEN;
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const running = await startUpstream({ ...db, host, port, logger, ...(adminToken ? { adminToken } : {}) });
  console.log(JSON.stringify({ listening: running.url, database: running.db.kind, health: `${running.url}/healthz` }));
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await running.close();
  return 0;
}
