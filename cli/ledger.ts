// `npm run --silent ledger -- <verify|export|evidence|recall|meters|status> --data-dir D …`:
// the kiosk ledger's tools. Each subcommand is `cli/ledger/<name>.ts`.
import { runSubcommand } from './subcommand.js';
import { TOOLS } from './tools.js';

process.exitCode = await runSubcommand(TOOLS.ledger, process.argv.slice(2));
