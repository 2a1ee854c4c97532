// A station's enrolment file that does not read, as a technician at the station's machine meets it
// (`etg station-agent --enrolment FILE`): before, the agent said only JSON.parse's words, or zod's
// issues as raw JSON ("message": "[").
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { readEnrolment } from './enrolment-file.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'enrolment-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('readEnrolment', () => {
  it('names the file, the field that is wrong and what to do', () => {
    const cases: [string, string, RegExp][] = [
      ['cut', '{"v": 1, "tableId": "T', /: it is not JSON \(/],
      ['shape', JSON.stringify({ v: 1 }), /: it is not a station's enrolment \(tableId: .*; station: /],
    ];
    for (const [name, text, said] of cases) {
      const file = path.join(dir, `${name}.json`);
      writeFileSync(file, text);
      assert.throws(
        () => readEnrolment(file),
        (e: Error) => e.message.startsWith(`enrolment ${file}: `) && said.test(e.message) && /enrol the station again/.test(e.message),
        name,
      );
    }
    assert.throws(() => readEnrolment(path.join(dir, 'none.json')), /^Error: enrolment .*none\.json cannot be read \(ENOENT/);
  });
});
