// `npm run --silent round -- --game <game> --rules <profile> --input round.json --json`: the
// scripted-round runner for disputes, tests and inspectors. `cli/round/<game>.ts` plays it.
import { runSubcommand } from './subcommand.js';

const argv = process.argv.slice(2);
const at = argv.indexOf('--game');
const game = at >= 0 ? argv[at + 1] : undefined;
const rest = at >= 0 ? [...argv.slice(0, at), ...argv.slice(at + 2)] : argv;
process.exitCode = await runSubcommand('round', game === undefined ? [] : [game, ...rest], (name) => import(`./round/${name}.ts`));
