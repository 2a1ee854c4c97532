import { writeFileSync } from 'node:fs';
import { enrolTerminal, openUpstreamDb } from '../../upstream/index.js';
import { dbChoice, DB_OPTIONS, options, tool, UsageError } from './common.js';

const USAGE = `Usage: npm run --silent upstream -- enroll --terminal-id ID (--pg URL | --data-dir DIR) [--upstream-url URL] [--out FILE] [--rotate]
  Creates the terminal's secret key and prints its credentials as JSON (once). Save them on the
  kiosk as <kiosk data dir>/upstream-credentials.json (mode 0600). With PGlite, run this while
  the service is stopped (or use POST /v1/admin/terminals on the running service).`;

export function run(argv: string[]): Promise<number> {
  return tool(async () => {
    const v = options(
      argv,
      { ...DB_OPTIONS, 'terminal-id': { type: 'string' }, 'upstream-url': { type: 'string' }, out: { type: 'string' }, rotate: { type: 'boolean' } },
      USAGE,
    );
    if (!v['terminal-id']) throw new UsageError(`--terminal-id is required\n${USAGE}`);
    const db = await openUpstreamDb(dbChoice(v, USAGE));
    try {
      const c = await enrolTerminal(db, String(v['terminal-id']), v.rotate === true);
      const text = `${JSON.stringify({ ...c, ...(v['upstream-url'] ? { upstream: String(v['upstream-url']) } : {}) }, null, 2)}\n`;
      if (v.out) writeFileSync(String(v.out), text, { mode: 0o600 });
      else process.stdout.write(text);
      return 0;
    } finally {
      await db.close();
    }
  });
}
