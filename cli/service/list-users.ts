import { AccountStore } from '../../host/service/accounts.js';
import { options, runTool, UsageError } from '../tool.js';

const USAGE = 'usage: npm run --silent service -- list-users --data-dir D [--json]';

/** Staff numbers, names, roles and lock state; never the PIN hashes. */
export function run(argv: string[]): Promise<number> {
  return runTool('service list-users', () => {
    const o = options(argv, { 'data-dir': { type: 'string' }, json: { type: 'boolean' } }, USAGE);
    if (!o['data-dir']) throw new UsageError(USAGE);
    const rows = new AccountStore(o['data-dir']).list().map((a) => ({
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
  });
}
