import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { installLine, plan, type Abilities } from './system-needs.js';

const CHROMIUM = { pkg: 'chromium', why: 'browser tests' };
const FONTS = { pkg: 'fonts-noto-cjk', why: 'Chinese' };
const can = (o: Partial<Abilities>): Abilities => ({ apt: true, root: false, sudo: false, allowed: true, ...o });

describe('what npm test does about missing Debian packages', () => {
  it('nothing when nothing is missing, whoever runs it', () => {
    assert.deepEqual(plan([], can({})), { kind: 'ready' });
    assert.deepEqual(plan([], can({ root: true })), { kind: 'ready' });
  });

  it('installs as root with apt-get directly, after an update', () => {
    assert.deepEqual(plan([CHROMIUM, FONTS], can({ root: true })), {
      kind: 'install',
      packages: ['chromium', 'fonts-noto-cjk'],
      commands: [
        ['apt-get', 'update', '-qq'],
        ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium', 'fonts-noto-cjk'],
      ],
    });
  });

  it('installs through sudo -n where sudo needs no password', () => {
    const p = plan([FONTS], can({ sudo: true }));
    assert.equal(p.kind, 'install');
    assert.deepEqual(p.kind === 'install' && p.commands.map((c) => c.slice(0, 3)), [
      ['sudo', '-n', 'apt-get'],
      ['sudo', '-n', 'apt-get'],
    ]);
  });

  it('otherwise stops with the one apt-get line and the reason', () => {
    const line = 'sudo apt-get install -y --no-install-recommends chromium fonts-noto-cjk';
    assert.equal(installLine(['chromium', 'fonts-noto-cjk']), line);
    const cases: [Partial<Abilities>, RegExp][] = [
      [{}, /needs root or sudo without a password/],
      [{ root: true, allowed: false }, /CHECK_SYSTEM_INSTALL=no/],
      [{ root: true, apt: false }, /not a Debian system/],
    ];
    for (const [abilities, reason] of cases) {
      const p = plan([CHROMIUM, FONTS], can(abilities));
      assert.equal(p.kind, 'stop', JSON.stringify(abilities));
      assert.equal(p.kind === 'stop' && p.line, line);
      assert.match(p.kind === 'stop' ? p.reason : '', reason);
    }
  });

  it('the script stops, naming the package and the command, when it may not install (no apt-get run, no sudo asked)', () => {
    const script = path.join(import.meta.dirname, 'check-system.ts');
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], {
      encoding: 'utf8',
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium', CHECK_SYSTEM_INSTALL: 'no' },
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /chromium: the browser tests drive it at \/nonexistent\/chromium/);
    assert.match(r.stderr, /\(installing was turned off \(CHECK_SYSTEM_INSTALL=no\)\)/);
    assert.match(r.stderr, /^ {2}sudo apt-get install -y --no-install-recommends chromium$/m);
  });
});
