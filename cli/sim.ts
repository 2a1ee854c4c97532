// `npm run --silent sim -- <game> [options]`: simulators and exact calculators. The game's
// module `cli/sim/<game>.ts` parses its own options and does the work.
import { runSubcommand } from './subcommand.js';
import { TOOLS } from './tools.js';

process.exitCode = await runSubcommand(TOOLS.sim, process.argv.slice(2));
