import { existsSync } from 'node:fs';
import { AccountStore, type AccountAction } from '../../host/service/accounts.js';
import { options, runTool, UsageError } from '../tool.js';
import { secretReader } from './read-secret.js';

const WHAT: Record<AccountAction, string> = {
  disable: 'disables an account: refused at sign-in and as a second person until enabled again',
  enable: 'enables a disabled account again',
  unlock: 'lifts the lock that wrong PINs put on an account, and starts its count of tries anew',
  'reset-pin': "sets a new PIN (read twice, then the supervisor's), lifting any lock",
};

/**
 * `disable-user`, `enable-user`, `unlock-user`, `reset-pin`: what a supervisor does to an account.
 * Every one needs that supervisor's staff number (`--by`) and PIN (read from the terminal, never
 * an argument); the host journals it as `service.account` with the action at its next start (or
 * sign-in), since the command line never writes to the ledger.
 */
export function manageAccount(action: AccountAction, command: string, argv: string[]): Promise<number> {
  const usage = `usage: npm run --silent service -- ${command} --data-dir D --staff NUMBER --by SUPERVISOR_STAFF
  ${WHAT[action]}. The supervisor's PIN is read from the terminal (or standard input)${action === 'reset-pin' ? ', after the new PIN twice' : ''}.`;
  return runTool(`service ${command}`, async () => {
    const o = options(argv, { 'data-dir': { type: 'string' }, staff: { type: 'string' }, by: { type: 'string' } }, usage);
    if (!o['data-dir'] || !o.staff || !o.by) throw new UsageError(usage);
    if (!existsSync(o['data-dir'])) throw new UsageError(`no data folder ${o['data-dir']}`);
    const store = new AccountStore(o['data-dir']);
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
    }
  });
}
