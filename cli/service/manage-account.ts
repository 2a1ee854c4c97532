import { existsSync } from 'node:fs';
import type { AccountAction } from '../../host/service/accounts.js';
import { defineCommand, options } from '../command.js';
import { UsageError } from '../tool.js';
import { openAccounts } from './open-accounts.js';
import { secretReader } from './read-secret.js';

const WHAT: Record<AccountAction, string> = {
  disable: 'disables an account: refused at sign-in and as a second person until enabled again',
  enable: 'enables a disabled account again',
  unlock: 'lifts the lock that wrong PINs put on an account, and starts its count of tries anew',
  'reset-pin': "sets a new PIN (read twice, then the supervisor's), lifting any lock",
};

/** The command of one account action, e.g. `service disable-user`. */
export function accountCommand(action: AccountAction, name: string) {
  return defineCommand({
    name: `service ${name}`,
    summary: `${WHAT[action]}. The supervisor's PIN is read from the terminal (or standard input)${action === 'reset-pin' ? ', after the new PIN twice' : ''}.`,
    usage: `usage: etg service ${name} --data-dir D --staff NUMBER --by SUPERVISOR_STAFF`,
    options: {
      'data-dir': { type: 'string', value: 'D', help: "the kiosk's data folder" },
      staff: { type: 'string', value: 'NUMBER', help: 'the account' },
      by: { type: 'string', value: 'SUPERVISOR_STAFF', help: 'the supervisor who does it' },
    },
  });
}

/**
 * `disable-user`, `enable-user`, `unlock-user`, `reset-pin`: what a supervisor does to an account.
 * Every one needs that supervisor's staff number (`--by`) and PIN (read from the terminal, never
 * an argument), and is journalled in the folder's ledger (`service.account` with the action)
 * before the account changes, under the folder's lock: while a host runs it refuses (cli/service/open-accounts.ts).
 */
export async function manageAccount(action: AccountAction, command: ReturnType<typeof accountCommand>, argv: string[]): Promise<number> {
  const o = options(command, argv);
  if (!o['data-dir'] || !o.staff || !o.by) throw new UsageError(`${WHAT[action]}\n${command.usage}`);
  if (!existsSync(o['data-dir'])) throw new UsageError(`no data folder ${o['data-dir']}`);
  const { store, close } = openAccounts(o['data-dir'], `etg ${command.name}`);
  const secrets = secretReader();
  try {
    let newPin: string | undefined;
    if (action === 'reset-pin') {
      newPin = await secrets.read(`New PIN for ${o.staff} (4-12 digits): `);
      if (newPin !== (await secrets.read('Same PIN again: '))) throw new Error('the two PINs differ');
    }
    const by = { staff: o.by, pin: await secrets.read(`PIN of supervisor ${o.by}: `) };
    const a = await store.manage(o.staff, action, by, newPin);
    console.log(JSON.stringify({ staff: a.staff, name: a.name, role: a.role, action, disabled: a.disabled === true, lockedUntil: a.lockedUntil }));
    return 0;
  } finally {
    secrets.close();
    close();
  }
}
