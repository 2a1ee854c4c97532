// `npm run --silent service -- <add-user|list-users|disable-user|enable-user|unlock-user|reset-pin> --data-dir D …`:
// service mode's accounts; `program-hash`: the reference hash of a build.
// Each subcommand is `cli/service/<name>.ts`.
import { runSubcommand } from './subcommand.js';

process.exitCode = await runSubcommand('service', process.argv.slice(2), (name) => import(`./service/${name}.ts`));
