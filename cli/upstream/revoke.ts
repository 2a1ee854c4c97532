import { openUpstreamDb, revokeTerminal } from '../../upstream/index.js';
import { dbChoice, DB_OPTIONS, options, tool, UsageError } from './common.js';

const USAGE = `Usage: npm run --silent upstream -- revoke --terminal-id ID (--pg URL | --data-dir DIR)
  Refuses the terminal's requests from now on (a running service notices within 10 s). Its
  journal is kept; "enroll --rotate" issues a new key.`;

export function run(argv: string[]): Promise<number> {
  return tool(async () => {
    const v = options(argv, { ...DB_OPTIONS, 'terminal-id': { type: 'string' } }, USAGE);
    if (!v['terminal-id']) throw new UsageError(`--terminal-id is required\n${USAGE}`);
    const db = await openUpstreamDb(dbChoice(v, USAGE));
    try {
      const done = await revokeTerminal(db, String(v['terminal-id']));
      console.log(done ? `revoked ${String(v['terminal-id'])}` : `no live terminal ${String(v['terminal-id'])}`);
      return done ? 0 : 1;
    } finally {
      await db.close();
    }
  });
}
