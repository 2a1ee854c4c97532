import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as fontkit from 'fontkit';
import { fontChars } from '../../scripts/font-chars.js';

// Whitespace needs no glyph outline; everything else a screen can print must be in the font.
const printable = fontChars().filter((c) => c.trim() !== '');

describe('bundled Traditional Chinese font', () => {
  for (const weight of ['Regular', 'Bold']) {
    it(`Table Sans HK ${weight} has a glyph for every character of every catalogue (rebuild: npm run build:font)`, () => {
      const font = fontkit.openSync(`assets/fonts/TableSansHK-${weight}.woff2`);
      assert.ok(!('fonts' in font), 'expected a single font, not a collection');
      assert.equal(font.familyName, 'Table Sans HK');
      const missing = printable.filter((c) => !font.hasGlyphForCodePoint(c.codePointAt(0) ?? 0));
      assert.deepEqual(missing, []);
    });
  }
});
