// The entry of the cabinet's bundled `etg` (deploy/build.ts): the kiosk's tools, without the
// upstream's (deploy/upstream-entry.ts) or the packages they import; no tsx, the bundle is already
// JavaScript.
import { runEtg } from '../cli/dispatch.js';
import { KIOSK_TOOLS } from '../cli/tools.js';

// Output piped into `head` and the like ends when the reader has read enough, not with a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
const about = ["The cabinet's command line: its ledger, devices, service accounts and witness, the games' simulators and round replays."];
process.exitCode = await runEtg({ tools: KIOSK_TOOLS, about }, process.argv.slice(2));
