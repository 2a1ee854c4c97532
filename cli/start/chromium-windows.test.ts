import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { launchPage } from './chromium-windows.js';

describe("a window's launch page", () => {
  it('keeps the launch token off the command line: Chromium gets a file only the kiosk may read, which goes on to the screen', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'launch-page-'));
    try {
      const url = 'http://127.0.0.1:4000/station/1?token=abc</script><b>';
      const href = launchPage(path.join(dir, 'launch'), 'screen-1', url);
      assert.ok(href.startsWith('file://'));
      assert.ok(!href.includes('token'), 'the command line names a file, not the token');
      const file = fileURLToPath(href);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
      const html = readFileSync(file, 'utf8');
      assert.ok(!html.includes('</script><b>'), 'the URL cannot end the script');
      const target = /location\.replace\((.*)\)<\/script>/.exec(html)?.[1] ?? '';
      assert.equal(JSON.parse(target), url);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
