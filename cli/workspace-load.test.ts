import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadNeeding, UPSTREAM_WORKSPACE } from './workspace-load.js';

describe('a command whose packages a production install leaves out', () => {
  it('says what to install when a package it imports is not installed', async () => {
    // A real failed resolution, as a cabinet's install without the upstream's packages gives (a
    // name in a variable, which neither TypeScript nor the workspace check reads as an import).
    const absent = 'etg-package-that-is-not-installed';
    await assert.rejects(
      loadNeeding(UPSTREAM_WORKSPACE, () => import(absent)),
      (e: unknown) => {
        assert.ok(e instanceof Error);
        assert.match(e.message, /^this command needs the upstream workspace, which is not installed here \(.*etg-package-that-is-not-installed/);
        assert.match(e.message, /: npm install --workspace upstream \(docs\/architecture\.md, "Workspaces"\)$/);
        return true;
      },
    );
  });

  it('lets any other failure through as it was', async () => {
    const boom = new Error('boom');
    await assert.rejects(
      loadNeeding(UPSTREAM_WORKSPACE, () => Promise.reject(boom)),
      (e: unknown) => e === boom,
    );
  });

  it('returns the module when it loads', async () => {
    const mod = { command: 'x' };
    assert.equal(await loadNeeding(UPSTREAM_WORKSPACE, () => Promise.resolve(mod)), mod);
  });
});
