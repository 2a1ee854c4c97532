// `etg` as bin/etg.js runs it, for bundling (tests/children/bundle.ts): the whole command line, with
// the repository's every tool; tsx is not registered, the bundle is already JavaScript.
import { main } from '../../cli/etg.js';

process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
process.exitCode = await main(process.argv.slice(2));
