/**
 * Preloaded into every test file's process by `npm run test:node` (`--import`; docs/toolchain.md).
 *
 * 1. A file's test verdicts reach the runner whole, also under `--test-force-exit`. Node's runner
 *    starts each file in a child (`NODE_TEST_CONTEXT=child-v8`) that serializes its tests' events
 *    to stdout, a pipe the runner reads. When the pipe is full (the runner busy with the other
 *    file) the child's writes queue in its own memory; `--test-force-exit` ends the child with
 *    `process.exit()` as soon as its last test is done, and whatever was still queued is lost
 *    (nodejs/node#64833): the runner counts fewer tests than ran. Here the child's `process.exit`
 *    waits until stdout and stderr have handed everything to their pipes (at most a minute), then
 *    exits with the same code. An exit with nothing queued is immediate, as before.
 * 2. When the file's process exits, the processes its tests started and left running are stopped
 *    and named on stderr (`leftovers.ts`): one that holds the file's stdout would otherwise keep
 *    the runner waiting for that pipe however the file ended.
 *
 * In the runner's own process (no `NODE_TEST_CONTEXT`) this does nothing.
 */
import { writeSync } from 'node:fs';
import { holdExitUntilDrained } from './exit-drain.js';
import { stopLeftovers } from './leftovers.js';

if (process.env['NODE_TEST_CONTEXT'] === 'child-v8') {
  holdExitUntilDrained(process, [process.stdout, process.stderr]);
  const exitAfterDrain = process.exit.bind(process);
  process.exit = ((code?: number | string | null) => {
    for (const line of stopLeftovers()) process.stderr.write(`${line}\n`);
    return exitAfterDrain(code);
  }) as typeof process.exit;
  process.on('exit', () => {
    for (const line of stopLeftovers()) {
      try {
        writeSync(2, `${line}\n`);
      } catch {
        // stderr full or gone: the process is stopped all the same.
      }
    }
  });
}
