// A test file that runs part of itself in a child process: what it tests may end the process it
// runs in (an exception thrown in a timer or a listener, a rejection nobody handles), and that
// death must be the child's, seen by the parent as its exit status, never the test runner's.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TiltManager } from '../tilts/tilt-manager.js';

/** The variable that tells a test file it is its own child, and which of its cases to run. */
const CASE = 'TEST_CHILD_CASE';

/** The case this process runs as a test file's child; undefined in the test runner (the parent). */
export function childCase(): string | undefined {
  return process.env[CASE] || undefined;
}

export interface ChildOptions {
  /** Which case the child runs, read back by `childCase()` (default '1': a file with one). */
  case?: string;
  /** More variables for the child. */
  env?: Record<string, string>;
  /** The child is killed after this long (default 30 s): a hung child fails its test, not the run. */
  timeoutMs?: number;
  /** The exit the test expects (default 0); at any other the child's output is logged for whoever reads the failure. */
  expectStatus?: number;
}

export interface ChildRun {
  /** Null when a signal ended it (the timeout's among them). */
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The first lines of a child's stderr: where its death's message and the top of its stack are. */
export function stderrHead(stderr: string, lines = 9): string {
  return stderr.split('\n').slice(0, lines).join('\n');
}

/**
 * Runs the test file at `file` (the caller's `import.meta.url`) in a child process under tsx, as
 * the case `o.case`, and waits for it to end.
 */
export function runInChild(file: string, o: ChildOptions = {}): ChildRun {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(file)], {
    env: { ...process.env, ...o.env, [CASE]: o.case ?? '1' },
    encoding: 'utf8',
    timeout: o.timeoutMs ?? 30_000,
  });
  const run: ChildRun = { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
  if (run.status !== (o.expectStatus ?? 0)) {
    const how = r.signal ? ` (signal ${r.signal}${r.error ? `: ${r.error.message}` : ''})` : '';
    console.log(`child exit ${run.status}${how}\nstdout: ${run.stdout}\nstderr (head): ${stderrHead(run.stderr)}`);
  }
  return run;
}

/** The kinds of the faults `tilts` holds, comma-joined: what a child prints for its parent to match. */
export function heldKinds(tilts: Pick<TiltManager, 'list'>): string {
  return tilts
    .list()
    .map((t) => t.kind)
    .join(',');
}
