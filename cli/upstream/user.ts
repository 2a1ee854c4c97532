import { readFileSync } from 'node:fs';
import { BackofficeRole, disableUser, listUsers, putUser, UserError } from '../../upstream/index.js';
import { dbChoice, DB_OPTIONS, defineCommand, openToolDb, options, UsageError } from './common.js';

export const command = defineCommand({
  name: 'upstream user',
  summary:
    "Makes a back-office user (docs/backoffice.md) with a role, or replaces one's password and role,\nor disables one, or lists them. The password is read from --password-file or from standard\ninput (never from the command line, which other users of the machine can see). With PGlite, run\nthis while the service is stopped. Every change is written to the upstream's audit log.",
  usage: `usage: etg upstream user (--pg URL | --data-dir DIR) (--name NAME --role ${BackofficeRole.options.join('|')} [--password-file F] [--replace [--enable]] | --name NAME --disable | --list) [--json]`,
  options: {
    ...DB_OPTIONS,
    name: { type: 'string', value: 'NAME', help: 'the user (a-z 0-9 . _ -, 2 to 32 characters)' },
    role: { type: 'string', value: 'ROLE', help: BackofficeRole.options.join(', ') },
    'password-file': { type: 'string', value: 'F', help: 'the password, in the first line of F (default: standard input)' },
    replace: { type: 'boolean', help: "set an existing user's password and role (ends their sessions); a disabled user stays disabled" },
    enable: { type: 'boolean', help: 'with --replace: enable a disabled user again' },
    disable: { type: 'boolean', help: 'disable the user (ends their sessions; the audit log keeps their name)' },
    list: { type: 'boolean', help: 'list the users and their roles' },
  },
});

function password(file: unknown): string {
  const text = file ? readFileSync(String(file), 'utf8') : readFileSync(0, 'utf8');
  return text.split(/\r?\n/)[0] ?? '';
}

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  const choice = dbChoice(v, command.usage);
  if (!v.list && !v.name) throw new UsageError(`--name (or --list) is required\n${command.usage}`);
  if (!v.list && !v.disable && !v.role) throw new UsageError(`--role is required\n${command.usage}`);
  if (v.enable && !v.replace) throw new UsageError(`--enable goes with --replace (a user is enabled again with a new password)\n${command.usage}`);
  const db = await openToolDb(choice, 'etg upstream user');
  const by = `cli:${process.env.USER ?? process.getuid?.() ?? 'unknown'}`;
  try {
    if (v.list) {
      const users = await listUsers(db);
      console.log(v.json ? JSON.stringify(users) : users.map((u) => `${u.name}\t${u.role}${u.disabled ? '\tdisabled' : ''}`).join('\n'));
      return 0;
    }
    const name = String(v.name);
    if (v.disable) {
      const done = await disableUser(db, name, by);
      console.log(v.json ? JSON.stringify({ name, disabled: done }) : done ? `disabled ${name}` : `no enabled user ${name}`);
      return done ? 0 : 1;
    }
    const user = await putUser(db, {
      name,
      role: String(v.role),
      password: password(v['password-file']),
      replace: v.replace === true,
      enable: v.enable === true,
      by,
    });
    console.log(
      v.json
        ? JSON.stringify(user)
        : `${v.replace ? 'replaced' : 'added'} ${user.name} (${user.role})${user.disabled ? ', still disabled (--enable enables it)' : ''}`,
    );
    return 0;
  } catch (e) {
    if (e instanceof UserError) throw new UsageError(e.message);
    throw e;
  } finally {
    await db.close();
  }
}
