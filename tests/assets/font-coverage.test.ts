import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as fontkit from 'fontkit';
import { fontChars } from '../../scripts/font-chars.js';
import { catalogues } from '../../locales/index.js';
import { formatMoney, intlLocale } from '../../locales/money.js';

// Whitespace needs no glyph outline; everything else a screen can print must be in the font.
const printable = fontChars().filter((c) => c.trim() !== '');

/** Every character of a catalogue's words, placeholders left out (they are filled at run time). */
function catalogueChars(tree: object, out = new Set<string>()): Set<string> {
  for (const v of Object.values(tree)) {
    if (typeof v === 'string') for (const c of v.replace(/\{\{[^}]*\}\}/g, '')) out.add(c);
    else if (typeof v === 'object' && v !== null) catalogueChars(v, out);
  }
  return out;
}

/** What Intl draws in a language on the screens: a date and time, money, a list. */
function intlChars(language: string): Set<string> {
  const at = new Date('2026-11-26T16:05:09Z');
  const locale = intlLocale(language);
  const drawn = [
    new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium', hour12: true, timeZone: 'Asia/Macau' }).format(at),
    new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', hour12: true, timeZone: 'Asia/Macau' }).format(at),
    formatMoney(-1_234_550, 'MOP', language),
    formatMoney(1_000_000, 'HKD', language),
    new Intl.ListFormat(locale, { type: 'conjunction' }).format(['A', 'B', 'C']),
    new Intl.ListFormat(locale, { type: 'disjunction' }).format(['A', 'B', 'C']),
  ];
  return new Set(drawn.join(''));
}

describe('bundled Traditional Chinese font', () => {
  for (const weight of ['Regular', 'Bold']) {
    const opened = fontkit.openSync(`assets/fonts/TableSansHK-${weight}.woff2`);
    if ('fonts' in opened) throw new Error('expected a single font, not a collection');
    const font = opened;
    const missingOf = (chars: Iterable<string>) => [...chars].filter((c) => c.trim() !== '' && !font.hasGlyphForCodePoint(c.codePointAt(0) ?? 0));

    it(`Table Sans HK ${weight} has a glyph for every character of every catalogue (rebuild: npm run build:font)`, () => {
      assert.equal(font.familyName, 'Table Sans HK');
      assert.deepEqual(missingOf(printable), []);
    });

    // Each language on its own, read from its catalogue rather than from the subset's character
    // list, so a catalogue the list missed (zh-Hans, issue 54) fails here by name.
    for (const [language, catalogue] of Object.entries(catalogues)) {
      it(`Table Sans HK ${weight} draws every ${language} string and what Intl formats in ${intlLocale(language)}`, () => {
        assert.deepEqual(missingOf(catalogueChars(catalogue)), [], `${language} catalogue`);
        assert.deepEqual(missingOf(intlChars(language)), [], `${language} dates, money and lists`);
      });
    }
  }

  it('covers Simplified Chinese: the subset holds the simplified characters the zh-Hans catalogue uses', () => {
    const hans = catalogueChars(catalogues['zh-Hans'] ?? {});
    for (const c of '简体语门开关发这说请为们个') if (hans.has(c)) assert.ok(printable.includes(c), `${c} is in the subset's list`);
    assert.ok(hans.has('简') && hans.has('语'), 'the zh-Hans catalogue names itself 简体中文 and its switch 语言');
  });
});
