// The entry of the upstream's bundled `etg` (deploy/build.ts): the upstream's tool alone, so the
// upstream's folder carries none of the cabinet's commands (host, devices, SQLite ledger).
import { runEtg } from '../cli/dispatch.js';
import { UPSTREAM_TOOLS } from '../cli/upstream-tools.js';

// Output piped into `head` and the like ends when the reader has read enough, not with a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
const about = ['The upstream service and its tools: terminals enrolled and revoked, their chains verified.'];
process.exitCode = await runEtg({ tools: UPSTREAM_TOOLS, about }, process.argv.slice(2));
