import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'check-system.ts');
const run = (env: Record<string, string>) => spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', env: { ...process.env, ...env } });

describe('the system check before npm test', () => {
  it('stops at once naming a missing package and the command that installs it', () => {
    const r = run({ CHROMIUM_PATH: '/nonexistent/chromium' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /chromium: the browser tests drive it at \/nonexistent\/chromium/);
    assert.match(r.stderr, /sudo apt-get install -y --no-install-recommends chromium/);
  });
});
