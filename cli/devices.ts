// `npm run --silent devices -- list | monitor | simulate …`: tools for technicians and test rigs.
// Each subcommand is `cli/devices/<name>.ts`; the device logic lives in hardware/.
import { runSubcommand } from './subcommand.js';
import { TOOLS } from './tools.js';

process.exitCode = await runSubcommand(TOOLS.devices, process.argv.slice(2));
