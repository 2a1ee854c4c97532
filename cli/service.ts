// `npm run --silent service -- <add-user|list-users> --data-dir D …`: service mode's accounts.
// Each subcommand is `cli/service/<name>.ts`.
import { runSubcommand } from './subcommand.js';

process.exitCode = await runSubcommand('service', process.argv.slice(2), (name) => import(`./service/${name}.ts`));
