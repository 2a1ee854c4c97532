// A process that writes more to stdout than a pipe holds and then calls process.exit(3), with
// (`hold`) or without (`plain`) holdExitUntilDrained: tests/runner/exit-drain.test.ts reads it.
import { holdExitUntilDrained } from './exit-drain.js';

const [mode, kib] = process.argv.slice(2);
if (mode === 'hold') holdExitUntilDrained(process, [process.stdout, process.stderr]);
const chunk = 'x'.repeat(1023) + '\n';
for (let i = 0; i < Number(kib); i++) process.stdout.write(chunk);
process.stderr.write(`exiting with ${process.stdout.writableLength} bytes queued\n`);
process.exit(3);
