import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { i18n } from 'i18next';
import { followLanguage } from './follow-language.js';

/** An i18n whose catalogues come when the test says (a chunk each, fetched from the host). */
function slowCatalogues() {
  const waiting: (() => void)[] = [];
  const i18n = { changeLanguage: () => new Promise<void>((resolve) => waiting.push(resolve)) } as unknown as i18n;
  return { i18n, arrive: (n: number) => waiting[n]?.() };
}
const settled = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe("the several-tables screen follows the focused table's language", () => {
  it('switches once per language asked, when its catalogue has come, for the table that asked', async () => {
    const c = slowCatalogues();
    const switched: string[] = [];
    const follow = followLanguage(c.i18n, (language, table) => switched.push(`${language}@${table}`));
    follow('pt', 1);
    follow('pt', 1);
    follow(null, 0);
    await settled();
    assert.deepEqual(switched, []);
    c.arrive(0);
    await settled();
    assert.deepEqual(switched, ['pt@1']);
  });

  it('ends in the language asked last, whichever catalogue comes last', async () => {
    const c = slowCatalogues();
    const switched: string[] = [];
    const follow = followLanguage(c.i18n, (language) => switched.push(language));
    follow('pt', 0);
    follow('en', 0);
    c.arrive(1);
    await settled();
    c.arrive(0);
    await settled();
    assert.deepEqual(switched, ['en'], 'Portuguese, asked first and come last, is not drawn over English');
  });
});
