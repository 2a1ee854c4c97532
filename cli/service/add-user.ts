import { existsSync } from 'node:fs';
import { ServiceRole } from '../../protocol/index.js';
import { defineCommand, options } from '../command.js';
import { UsageError } from '../tool.js';
import { openAccounts } from './open-accounts.js';
import { secretReader } from './read-secret.js';

export const command = defineCommand({
  name: 'service add-user',
  summary:
    "Adds a service account. The new PIN is read twice from the terminal (or two lines of standard\ninput). The first account must be a supervisor; every later one needs an existing supervisor\n(--by) and their PIN, read after. Journalled in the folder's ledger before the account exists\n(a folder without a ledger yet: its host journals the accounts at its first start).",
  usage: 'usage: etg service add-user --data-dir D --name NAME --role technician|supervisor|auditor [--staff NUMBER] [--by SUPERVISOR_STAFF]',
  options: {
    'data-dir': { type: 'string', value: 'D', help: "the kiosk's data folder" },
    name: { type: 'string', value: 'NAME', help: 'the person, as shown in service mode' },
    role: { type: 'string', value: 'ROLE', help: 'technician, supervisor or auditor' },
    staff: { type: 'string', value: 'NUMBER', help: 'their staff number (default: the next free one)' },
    by: { type: 'string', value: 'SUPERVISOR_STAFF', help: 'the supervisor who adds the account (every account but the first)' },
  },
});

export async function run(argv: string[]): Promise<number> {
  const o = options(command, argv);
  if (!o['data-dir'] || !o.name || !o.role) throw new UsageError(command.usage);
  if (!existsSync(o['data-dir'])) throw new UsageError(`no data folder ${o['data-dir']}`);
  const role = ServiceRole.safeParse(o.role);
  if (!role.success) throw new UsageError(`--role is technician, supervisor or auditor\n${command.usage}`);
  if (!/^[\p{L}\p{N} .'-]{1,64}$/u.test(o.name)) throw new UsageError('--name is 1 to 64 letters, digits, spaces, dots, apostrophes or hyphens');
  const { store, close } = openAccounts(o['data-dir'], 'etg service add-user');
  const secrets = secretReader();
  try {
    const pin = await secrets.read(`PIN for ${o.name} (4-12 digits): `);
    const again = await secrets.read('Same PIN again: ');
    if (pin !== again) throw new Error('the two PINs differ');
    const by = o.by ? { staff: o.by, pin: await secrets.read(`PIN of supervisor ${o.by}: `) } : null;
    const a = await store.add({ name: o.name, role: role.data, pin, ...(o.staff ? { staff: o.staff } : {}) }, by);
    console.log(
      JSON.stringify({
        staff: a.staff,
        name: a.name,
        role: a.role,
        createdBy: a.createdBy,
        file: store.file,
        ...(a.journalledSeq ? { journalledSeq: a.journalledSeq } : {}),
      }),
    );
    return 0;
  } finally {
    secrets.close();
    close();
  }
}
