// A test file's process (as the runner starts it, with the preload) whose test started a process
// that holds its stdout and left it running: tests/runner/leftovers.test.ts runs it.
import { spawn } from 'node:child_process';

const left = spawn('sleep', ['300'], { stdio: 'inherit' });
process.stderr.write(`left ${left.pid}\n`);
process.exit(1);
