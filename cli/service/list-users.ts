import { existsSync } from 'node:fs';
import { AccountStore, type Account } from '../../host/service/accounts.js';
import { defineCommand, options } from '../command.js';
import { UsageError } from '../tool.js';

export const command = defineCommand({
  name: 'service list-users',
  summary: 'Staff numbers, names, roles and lock state; never the PIN hashes.',
  usage: 'usage: etg service list-users --data-dir D [--json]',
  options: { 'data-dir': { type: 'string', value: 'D', help: "the kiosk's data folder" }, json: { type: 'boolean', help: 'print JSON' } },
});

/** Staff numbers, names, roles and lock state; never the PIN hashes. */
export async function run(argv: string[]): Promise<number> {
  const o = options(command, argv);
  if (!o['data-dir']) throw new UsageError(command.usage);
  // A folder that does not exist has no accounts; listing does not create it.
  let accounts: Account[] = [];
  if (existsSync(o['data-dir'])) {
    const store = new AccountStore(o['data-dir']);
    try {
      accounts = store.list();
    } finally {
      store.close();
    }
  }
  const rows = accounts.map((a) => ({
    staff: a.staff,
    name: a.name,
    role: a.role,
    disabled: a.disabled === true,
    lockedUntil: a.lockedUntil,
    createdAt: a.createdAt,
    createdBy: a.createdBy,
  }));
  if (o.json) console.log(JSON.stringify(rows));
  else
    for (const r of rows)
      console.log(`${r.staff}\t${r.role}\t${r.name}${r.disabled ? '\tdisabled' : ''}${r.lockedUntil ? `\tlocked until ${r.lockedUntil}` : ''}`);
  return 0;
}
