// `npm run --silent ledger -- <verify|export|evidence|recall|meters|status> --data-dir D …`:
// the kiosk ledger's tools. Each subcommand is `cli/ledger/<name>.ts`.
import { runSubcommand } from './subcommand.js';

process.exitCode = await runSubcommand('ledger', process.argv.slice(2), (name) => import(`./ledger/${name}.ts`));
