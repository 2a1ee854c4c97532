import { defineCommand, options } from '../command.js';
import { UsageError } from '../tool.js';
import { withPeerRegistry } from './peer-people.js';

export const command = defineCommand({
  name: 'service peer-withdraw',
  summary:
    "Revokes the credential a peer table dials this table with (made by peer-file or the service screen),\njournalled; this table's own link to that peer stays. A supervisor (--by) and a second person\n(--second), their PINs read from the terminal (or standard input); the host stopped.",
  usage: 'usage: etg service peer-withdraw --data-dir D --for TABLE --by SUPERVISOR_STAFF --second STAFF',
  options: {
    'data-dir': { type: 'string', value: 'D', help: "the kiosk's data folder" },
    for: { type: 'string', value: 'TABLE', help: 'the peer table whose credential is revoked' },
    by: { type: 'string', value: 'SUPERVISOR_STAFF', help: 'the supervisor who asks' },
    second: { type: 'string', value: 'STAFF', help: 'the second person, who confirms' },
  },
});

export async function run(argv: string[]): Promise<number> {
  const o = options(command, argv);
  if (!o['data-dir'] || !o.for || !o.by || !o.second) throw new UsageError(command.usage);
  const r = await withPeerRegistry({ dataDir: o['data-dir'], by: o.by, second: o.second, what: 'etg service peer-withdraw' }, (registry, by) =>
    registry.withdraw(o.for ?? '', by),
  );
  if (!r.ok) throw new Error(r.detail);
  if (r.unwritten)
    throw new Error(
      `${r.table}: the withdrawal is journalled, but peer-credentials.json could not be written (${r.unwritten}): the next start refuses ${r.table} (peer-integrity) until two people withdraw it again with the disk freed`,
    );
  console.log(JSON.stringify({ for: r.table, withdrawn: true }));
  return 0;
}
