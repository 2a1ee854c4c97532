// The entry of the bundled `etg` (deploy/build.ts), as bin/etg.js is in a clone, without tsx: the
// bundle is already JavaScript.
import { main } from '../cli/etg.js';

// Output piped into `head` and the like ends when the reader has read enough, not with a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
process.exitCode = await main(process.argv.slice(2));
