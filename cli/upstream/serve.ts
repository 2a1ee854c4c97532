import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { startUpstream } from '../../upstream/index.js';
import { dbChoice, DB_OPTIONS, options, tool, UsageError } from './common.js';

const USAGE = `Usage: npm run --silent upstream -- [--pg postgres://… | --data-dir DIR] [--listen HOST:PORT] [--admin-token-file F]
  --pg URL            PostgreSQL connection string
  --data-dir DIR      embedded PGlite database in DIR (instead of --pg; no server needed)
  --listen HOST:PORT  default 127.0.0.1:8787
  --admin-token-file  bearer token for the query/admin routes (or env UPSTREAM_ADMIN_TOKEN);
                      without one those routes answer loopback callers only
Serve behind a TLS-terminating proxy (or on loopback): kiosks accept https:// only, except loopback.`;

export function run(argv: string[]): Promise<number> {
  return tool(async () => {
    const v = options(argv, { ...DB_OPTIONS, listen: { type: 'string' }, 'admin-token-file': { type: 'string' } }, USAGE);
    // No silent in-memory default: an upstream that forgets on restart is worse than none.
    const db = dbChoice(v, USAGE);
    const m = /^(.+):(\d{1,5})$/.exec(String(v.listen ?? '127.0.0.1:8787'));
    const port = Number(m?.[2]);
    if (!m || port > 65535) throw new UsageError(`--listen must be HOST:PORT\n${USAGE}`);
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
  });
}
