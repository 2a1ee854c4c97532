// The per-workspace forbidden list (issue 53 item 6, scripts/workspaces/forbidden.ts): a small
// repository whose upstream reaches SQLite through a pure file's workspace, each way npm would
// install it, and the repository's own workspaces.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Manifest, Package } from '../../scripts/workspaces/dependencies.js';
import { FORBIDS, forbiddenInstalls, type InstalledManifest } from '../../scripts/workspaces/forbidden.js';
import { installedManifest, readPackages } from '../../scripts/workspaces/read.js';

const terms: Manifest = { name: '@etg/terms', dependencies: { zod: '^4.0.0' } };
const ledger: Manifest = {
  name: '@etg/ledger',
  dependencies: { '@etg/terms': '0.1.0', 'better-sqlite3': '^13.0.0' },
  devDependencies: { 'fast-check': '^4.0.0' },
};
const upstream: Manifest = { name: '@etg/upstream', dependencies: { '@etg/terms': '0.1.0', pg: '^8.0.0' }, devDependencies: { '@types/pg': '^8.0.0' } };
const published: Record<string, InstalledManifest> = {
  zod: {},
  pg: { dependencies: { 'pg-pool': '^3.0.0' }, peerDependencies: { 'pg-native': '>=3' }, peerDependenciesMeta: { 'pg-native': { optional: true } } },
  'pg-pool': {},
  'better-sqlite3': { dependencies: { bindings: '^1.0.0' } },
  bindings: {},
  'fast-check': {},
  'sqlite-wrapper': { dependencies: { 'better-sqlite3': '^13.0.0' } },
  'ui-kit': { peerDependencies: { 'pixi.js': '^8.0.0' } },
  'pixi.js': {},
};
const forbids = { upstream: { 'better-sqlite3': 'no SQLite on the upstream', 'pixi.js': 'no screens', 'pg-native': 'not this one either' } };

function check(change: Partial<Record<'terms' | 'ledger' | 'upstream', Manifest>> = {}): string[] {
  const workspaces: Package[] = [
    { dir: 'terms', manifest: change.terms ?? terms },
    { dir: 'ledger', manifest: change.ledger ?? ledger },
    { dir: 'upstream', manifest: change.upstream ?? upstream },
  ];
  return forbiddenInstalls({ workspaces, installed: (name) => published[name], forbids });
}

describe('what a workspace must never install (docs/architecture.md, "Workspaces")', () => {
  it('passes an upstream that takes the pure terms from their own workspace (an optional peer is not installed)', () => {
    assert.deepEqual(check(), []);
  });

  it('refuses the upstream reaching SQLite through the ledger, and names the path', () => {
    assert.deepEqual(check({ upstream: { ...upstream, dependencies: { ...upstream.dependencies, '@etg/ledger': '0.1.0' } } }), [
      'upstream: its production install holds better-sqlite3 (@etg/upstream → @etg/ledger → better-sqlite3), which it must not: no SQLite on the upstream',
    ]);
  });

  it('refuses it through a workspace named in devDependencies, which npm installs all the same', () => {
    const found = check({ upstream: { ...upstream, devDependencies: { ...upstream.devDependencies, '@etg/ledger': '0.1.0' } } });
    assert.equal(found.length, 1);
    assert.match(found[0]!, /better-sqlite3 \(@etg\/upstream → @etg\/ledger → better-sqlite3\)/);
  });

  it('refuses it through a published package’s own dependencies, and a required peer', () => {
    const found = check({ upstream: { ...upstream, dependencies: { ...upstream.dependencies, 'sqlite-wrapper': '^1.0.0', 'ui-kit': '^1.0.0' } } });
    assert.deepEqual(found, [
      'upstream: its production install holds better-sqlite3 (@etg/upstream → sqlite-wrapper → better-sqlite3), which it must not: no SQLite on the upstream',
      'upstream: its production install holds pixi.js (@etg/upstream → ui-kit → pixi.js), which it must not: no screens',
    ]);
  });

  it('passes a forbidden package that only the workspace’s own devDependencies, or another workspace’s, name', () => {
    assert.deepEqual(check({ upstream: { ...upstream, devDependencies: { ...upstream.devDependencies, 'better-sqlite3': '^13.0.0' } } }), []);
    assert.deepEqual(check({ terms: { ...terms, devDependencies: { 'better-sqlite3': '^13.0.0' } } }), []);
  });

  it('refuses a forbidden list naming a workspace that does not exist', () => {
    assert.deepEqual(forbiddenInstalls({ workspaces: [], installed: () => undefined, forbids: { upstream: { usb: 'x' } } }), [
      'upstream: a workspace the forbidden list names does not exist',
    ]);
  });

  it("passes the repository's own workspaces: no SQLite, USB or pixi.js in the upstream's install, no pixi.js in the host's", () => {
    const at = path.resolve(import.meta.dirname, '../..');
    const { workspaces } = readPackages(at);
    assert.ok(Object.keys(FORBIDS.upstream ?? {}).includes('better-sqlite3') && Object.keys(FORBIDS.host ?? {}).includes('pixi.js'));
    assert.deepEqual(forbiddenInstalls({ workspaces, installed: (name) => installedManifest(at, name), forbids: FORBIDS }), []);
  });
});
