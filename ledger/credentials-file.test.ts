// The upstream credentials file (`upstream-credentials.json`, saved from `etg upstream enroll`) that
// does not read: before, the start said only JSON.parse's or zod's words ("the kiosk cannot start:
// Expected property name or '}' in JSON at position 1"), naming no file and nothing to do.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { readCredentials } from './sign.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'credentials-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('readCredentials', () => {
  it('names the file, what is wrong with it and what to do', () => {
    const cases: [string, string, RegExp][] = [
      ['cut', '{"terminalId": "T1", "ke', /: it is not JSON \(/],
      ['shape', JSON.stringify({ terminalId: 'T1' }), /: it is not a terminal's credentials \(key: /],
      ['extra', JSON.stringify({ terminalId: 'T1', key: 'k'.repeat(44), secret: 'x' }), /: it is not a terminal's credentials \(the file: .*secret/],
    ];
    for (const [name, text, said] of cases) {
      const file = path.join(dir, `${name}.json`);
      writeFileSync(file, text);
      assert.throws(
        () => readCredentials(file),
        (e: Error) => e.message.startsWith(`upstream credentials ${file}: `) && said.test(e.message) && /etg upstream enroll/.test(e.message),
        name,
      );
    }
    const good = path.join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ terminalId: 'T1', key: 'k'.repeat(44) }));
    assert.equal(readCredentials(good).terminalId, 'T1');
  });
});
