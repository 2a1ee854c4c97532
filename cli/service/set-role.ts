import { existsSync } from 'node:fs';
import { ServiceRole } from '../../protocol/index.js';
import { defineCommand, options } from '../command.js';
import { UsageError } from '../tool.js';
import { openAccounts } from './open-accounts.js';
import { secretReader } from './read-secret.js';

export const command = defineCommand({
  name: 'service set-role',
  summary:
    "Gives an account another role. A supervisor does it (--by) with their PIN, read from the terminal\n(or standard input), never their own account; journalled in the folder's ledger before the account changes.",
  usage: 'usage: etg service set-role --data-dir D --staff NUMBER --role technician|supervisor|auditor --by SUPERVISOR_STAFF',
  options: {
    'data-dir': { type: 'string', value: 'D', help: "the kiosk's data folder" },
    staff: { type: 'string', value: 'NUMBER', help: 'the account' },
    role: { type: 'string', value: 'ROLE', help: 'technician, supervisor or auditor' },
    by: { type: 'string', value: 'SUPERVISOR_STAFF', help: 'the supervisor who does it' },
  },
});

export async function run(argv: string[]): Promise<number> {
  const o = options(command, argv);
  if (!o['data-dir'] || !o.staff || !o.role || !o.by) throw new UsageError(command.usage);
  if (!existsSync(o['data-dir'])) throw new UsageError(`no data folder ${o['data-dir']}`);
  const role = ServiceRole.safeParse(o.role);
  if (!role.success) throw new UsageError(`--role is technician, supervisor or auditor\n${command.usage}`);
  const { store, close } = openAccounts(o['data-dir'], 'etg service set-role');
  const secrets = secretReader();
  try {
    const by = { staff: o.by, pin: await secrets.read(`PIN of supervisor ${o.by}: `) };
    const a = await store.setRole(o.staff, role.data, by);
    console.log(JSON.stringify({ staff: a.staff, name: a.name, role: a.role }));
    return 0;
  } finally {
    secrets.close();
    close();
  }
}
