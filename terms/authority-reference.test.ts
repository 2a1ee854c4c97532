import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { authorityReference } from './authority-reference.js';

describe('authorityReference', () => {
  it('full-width, case and blanks around are one reference', () => {
    for (const typed of ['ＩＧＪ－２０２６－１７', 'ｉｇｊ－２０２６－１７', 'igj-2026-17', '  Igj-2026-17 ', '\u3000IGJ-2026-17\t', 'ＩＧＪ-2026-17'])
      assert.equal(authorityReference(typed), 'IGJ-2026-17', typed);
  });

  it('case variants beyond ASCII: sharp s, final sigma, Greek and Cyrillic letters', () => {
    assert.equal(authorityReference('straße'), authorityReference('STRASSE'));
    assert.equal(authorityReference('ΣΟΦΟΣ'), authorityReference('σοφος'));
    assert.equal(authorityReference('σοφoς'.replace('o', 'ο')), authorityReference('ΣΟΦΟΣ'));
    assert.equal(authorityReference('дикж-1'), authorityReference('ДИКЖ-1'));
  });

  it('different references stay different; blanks inside are kept', () => {
    assert.notEqual(authorityReference('AB12'), authorityReference('AB13'));
    assert.notEqual(authorityReference('AB 12'), authorityReference('AB12'));
  });

  it('blanks only are no reference', () => {
    assert.equal(authorityReference(' \u3000\t'), '');
  });

  it('is idempotent: the form of a form is itself', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 24 }), (s) => {
        const once = authorityReference(s);
        assert.equal(authorityReference(once), once);
      }),
    );
  });
});
