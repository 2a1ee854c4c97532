import { revokeTerminal } from '../../upstream/index.js';
import { dbChoice, DB_OPTIONS, defineCommand, openToolDb, options, UsageError } from './common.js';

export const command = defineCommand({
  name: 'upstream revoke',
  summary: 'Refuses the terminal\'s requests from now on (a running service notices within 10 s). Its\njournal is kept; "enroll --rotate" issues a new key.',
  usage: 'usage: etg upstream revoke --terminal-id ID (--pg URL | --data-dir DIR)',
  options: { ...DB_OPTIONS, 'terminal-id': { type: 'string', value: 'ID', help: 'the terminal to revoke' } },
});

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  if (!v['terminal-id']) throw new UsageError(`--terminal-id is required\n${command.usage}`);
  const db = await openToolDb(dbChoice(v, command.usage), 'etg upstream revoke');
  try {
    const terminalId = v['terminal-id'];
    const done = await revokeTerminal(db, terminalId);
    console.log(v.json ? JSON.stringify({ terminalId, revoked: done }) : done ? `revoked ${terminalId}` : `no live terminal ${terminalId}`);
    return done ? 0 : 1;
  } finally {
    await db.close();
  }
}
