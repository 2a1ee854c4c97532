// `npm run --silent upstream -- [serve] [--pg URL | --data-dir DIR] --listen HOST:PORT`, and
// `npm run --silent upstream -- enroll|verify …`: the upstream service and its tools.
// Each subcommand is `cli/upstream/<name>.ts`; options first means `serve`.
import { runSubcommand } from './subcommand.js';
import { TOOLS } from './tools.js';

const argv = process.argv.slice(2);
const toolHelp = argv[0] === '--help' || argv[0] === '-h';
const args = !toolHelp && (argv.length === 0 || argv[0]?.startsWith('--')) ? ['serve', ...argv] : argv;
process.exitCode = await runSubcommand(TOOLS.upstream, args);
