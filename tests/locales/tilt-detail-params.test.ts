// A fault's detail is journalled as a key of `tiltDetail` and its parameters (`tilt.raise`'s `say`,
// terms/said.ts `tiltSaid`), whose names the ledger takes only as letters. A catalogue text naming
// a parameter the journal cannot carry made its fault's raise refused for good: the ticket-held
// fault's `{{last4}}` stopped a soak's table on 6 December (the fault held, never journalled).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogues } from '../../locales/index.js';
import { tiltSaid } from '../../terms/said.js';

describe("the catalogues' fault details", () => {
  it('name only parameters the journal can carry, in every language', () => {
    const bad: string[] = [];
    for (const [language, catalogue] of Object.entries(catalogues)) {
      const details = (catalogue as { tiltDetail?: Record<string, string> }).tiltDetail ?? {};
      for (const [key, text] of Object.entries(details))
        for (const m of text.matchAll(/\{\{\s*([^},\s]+)/g)) {
          const name = m[1] ?? '';
          if (!tiltSaid.safeParse({ key: `tiltDetail.${key}`, values: { [name]: 'x' } }).success) bad.push(`${language} tiltDetail.${key}: {{${name}}}`);
        }
    }
    assert.deepEqual(bad, []);
  });
});
