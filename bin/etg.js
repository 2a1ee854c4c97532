#!/usr/bin/env node
// `etg`, the kiosk's command line (cli/etg.ts). From a clone: `npx etg …`, `npm exec etg -- …` or
// the `npm run` aliases, each of which puts the project's pinned Node first on PATH. Our
// TypeScript runs through tsx's loader, registered here; the packaged build compiles it instead.
import { register } from 'tsx/esm/api';

register();
// Output piped into `head` and the like ends when the reader has read enough, not with a stack trace.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
const { main } = await import('../cli/etg.ts');
process.exitCode = await main(process.argv.slice(2));
