// Every journal entry type has a name in words in each catalogue (`entryType.<type>`): the service
// screen's event log shows an entry by it, never by its code (`round.settle`, `power.reset`). A
// type the journal takes later without words in all four catalogues fails here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ENTRY_TYPES } from '../../ledger/index.js';
import { catalogueOf, wordAt } from '../../locales/index.js';

const LANGUAGES = ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const;

/** The dotted keys of the string leaves under a section. */
function leaves(tree: unknown, prefix = ''): string[] {
  if (typeof tree === 'string') return [prefix];
  if (typeof tree !== 'object' || tree === null) return [];
  return Object.entries(tree).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

describe('journal entry types in words', () => {
  for (const language of LANGUAGES) {
    it(`${language}: every type the journal takes has a name, not its code`, () => {
      const missing = ENTRY_TYPES.filter((type) => {
        const name = wordAt(catalogueOf(language), `entryType.${type}`);
        return name === undefined || name.trim() === '' || name === type;
      });
      assert.deepEqual(missing, [], `${language}: entryType.<type> for each`);
    });

    it(`${language}: names no type the journal does not take`, () => {
      const named = leaves((catalogueOf(language) as Record<string, unknown>).entryType);
      assert.deepEqual(
        named.filter((type) => !(ENTRY_TYPES as readonly string[]).includes(type)),
        [],
      );
    });
  }

  it('each language says each type its own way (no English left in the Chinese catalogues)', () => {
    for (const language of ['zh-Hant', 'zh-Hans'] as const)
      for (const type of ENTRY_TYPES) assert.doesNotMatch(wordAt(catalogueOf(language), `entryType.${type}`) ?? '', /^[A-Za-z ]+$/, `${language} ${type}`);
  });
});
