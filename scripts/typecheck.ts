// Type-checks each folder under its own tsconfig, so that DOM types exist only in renderer/ and
// Node types never reach engine/, protocol/ or renderer/ (see docs/architecture.md).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const projects = ['engine', 'protocol', 'hardware', 'ledger', 'host', 'upstream', 'cli', 'electron', 'renderer', 'deploy']
  .map((d) => `${d}/tsconfig.json`)
  .filter((p) => existsSync(p));
// Electron's preload runs in the page (DOM, no Node at run time); main does not see the DOM.
// Browser tests hand functions to the page, so they alone of the tests see DOM types.
projects.push('electron/tsconfig.preload.json', 'tsconfig.tests.json', 'tests/browser/tsconfig.json');

function check(project: string): Promise<{ project: string; code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project, '--pretty', 'false'], { stdio: 'pipe' });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ project, code: code ?? 1, output }));
  });
}

const queue = [...projects];
const failures: string[] = [];
async function worker(): Promise<void> {
  for (let p = queue.shift(); p; p = queue.shift()) {
    const r = await check(p);
    if (r.code !== 0 && /TS18003/.test(r.output) && r.output.trim().split('\n').length <= 2) {
      process.stdout.write(`– ${r.project} (no sources yet)\n`);
    } else if (r.code !== 0) {
      failures.push(r.project);
      process.stdout.write(`✗ ${r.project}\n${r.output}\n`);
    } else {
      process.stdout.write(`✓ ${r.project}\n`);
    }
  }
}
await Promise.all([worker(), worker()]);
if (failures.length) {
  console.error(`typecheck failed: ${failures.join(', ')}`);
  process.exit(1);
}
