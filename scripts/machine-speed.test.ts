import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { machineLine, machineSpeed } from './machine-speed.js';

describe('the machine a test run ran on, said at its start', () => {
  it('names the cores and what the fixed work cost in CPU', () => {
    const m = machineSpeed();
    assert.ok(m.cores >= 1, `${m.cores} cores`);
    assert.ok(m.sha256Ms > 0 && m.loopMs > 0, JSON.stringify(m));
    const line = machineLine(m);
    assert.match(
      line,
      new RegExp(
        `^machine: ${m.cores} cores, .+ at \\d+ MHz, load \\d+\\.\\d\\d; fixed work: SHA-256 of 128 MiB ${m.sha256Ms.toFixed(0)} ms of CPU, an integer loop ${m.loopMs.toFixed(0)} ms of CPU$`,
      ),
    );
  });

  it('npm test prints it first, also when the run then stops for a missing package', () => {
    const script = path.join(import.meta.dirname, 'check-system.ts');
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], {
      encoding: 'utf8',
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium', CHECK_SYSTEM_INSTALL: 'no' },
    });
    assert.equal(r.status, 1);
    assert.match(r.stdout, /^machine: \d+ cores, .* ms of CPU\n/);
  });
});
