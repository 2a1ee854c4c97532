// `npm run --silent service -- <add-user|list-users|disable-user|enable-user|unlock-user|reset-pin> --data-dir D …`:
// service mode's accounts; `program-hash`: the reference hash of a build.
// Each subcommand is `cli/service/<name>.ts`.
import { runSubcommand } from './subcommand.js';
import { TOOLS } from './tools.js';

process.exitCode = await runSubcommand(TOOLS.service, process.argv.slice(2));
