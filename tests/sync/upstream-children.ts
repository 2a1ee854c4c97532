// Test-only: `etg upstream` commands run as child processes in a folder of the test's own, with
// an admin token from the environment; every child still running at the end is killed and the
// folder removed (a test that fails half-way leaves no service behind).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { bundledChild } from '../children/bundle.js';

export const ADMIN = 'test-admin-token-0123456789abcdef';
/**
 * `etg upstream` from `etg` bundled (tests/children/bundle.ts): the command's words follow. These
 * tests start it four to thirteen times a file, and each start through `bin/etg.js` spends about
 * two seconds of CPU more loading our modules through tsx (docs/testing.md, "The rule").
 */
export const UPSTREAM_CLI = [await bundledChild('tests/children/etg-entry.ts'), 'upstream'];
export const UPSTREAM_ENV = { ...process.env, LOG_LEVEL: 'warn', UPSTREAM_ADMIN_TOKEN: ADMIN };

/** A folder named after `name` and the list of the suite's children (push each one started). */
export function upstreamChildren(name: string): { tmp: string; children: ChildProcess[] } {
  const tmp = mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const children: ChildProcess[] = [];
  after(async () => {
    for (const c of children) {
      if (c.exitCode !== null || c.signalCode !== null) continue;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    }
    rmSync(tmp, { recursive: true, force: true });
  });
  return { tmp, children };
}
