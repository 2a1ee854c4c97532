// `npm run --silent sim -- <game> [options]`: simulators and exact calculators. The game's
// module `cli/sim/<game>.ts` parses its own options and does the work.
import { runSubcommand } from './subcommand.js';

process.exitCode = await runSubcommand('sim', process.argv.slice(2), (name) => import(`./sim/${name}.ts`));
