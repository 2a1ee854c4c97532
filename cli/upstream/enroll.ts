import { writeFileSync } from 'node:fs';
import { enrolTerminal } from '../../upstream/index.js';
import { dbChoice, DB_OPTIONS, defineCommand, openToolDb, options, UsageError } from './common.js';

export const command = defineCommand({
  name: 'upstream enroll',
  summary:
    "Creates the terminal's secret key and prints its credentials as JSON (once). Save them on the\nkiosk as <kiosk data dir>/upstream-credentials.json (mode 0600). With PGlite, run this while\nthe service is stopped (or use POST /v1/admin/terminals on the running service).",
  usage: 'usage: etg upstream enroll --terminal-id ID (--pg URL | --data-dir DIR) [--upstream-url URL] [--out FILE] [--rotate]',
  options: {
    ...DB_OPTIONS,
    'terminal-id': { type: 'string', value: 'ID', help: 'the terminal to enrol' },
    'upstream-url': { type: 'string', value: 'URL', help: 'the service URL to write into the credentials' },
    out: { type: 'string', value: 'FILE', help: 'write the credentials here, mode 0600 (default: standard output)' },
    rotate: { type: 'boolean', help: 'issue a new key to an enrolled terminal' },
  },
});

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  if (!v['terminal-id']) throw new UsageError(`--terminal-id is required\n${command.usage}`);
  const db = await openToolDb(dbChoice(v, command.usage), 'etg upstream enroll');
  try {
    const c = await enrolTerminal(db, String(v['terminal-id']), v.rotate === true);
    const text = `${JSON.stringify({ ...c, ...(v['upstream-url'] ? { upstream: String(v['upstream-url']) } : {}) }, null, 2)}\n`;
    if (v.out) writeFileSync(String(v.out), text, { mode: 0o600 });
    else process.stdout.write(text);
    return 0;
  } finally {
    await db.close();
  }
}
