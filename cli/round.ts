// `npm run --silent round -- --game <game> --rules <profile> --input round.json --json`: the
// scripted-round runner for disputes, tests and inspectors. `cli/round/<game>.ts` plays it.
import { runSubcommand } from './subcommand.js';
import { TOOLS } from './tools.js';

const argv = process.argv.slice(2);
const at = argv.indexOf('--game');
const game = at >= 0 ? argv[at + 1] : undefined;
const rest = at >= 0 ? [...argv.slice(0, at), ...argv.slice(at + 2)] : argv;
// Without --game, what is left is the tool's own: --help, or nothing (a usage error).
process.exitCode = await runSubcommand(TOOLS.round, game === undefined ? rest.slice(0, 1) : [game, ...rest]);
