// Issue 54: a language is a catalogue file. A folder of catalogues with a fifth one added (a copy
// of the English words under an Indonesian tag, as a translator would start one) is read the way
// the host reads locales/catalogues/, and the fifth language is offered, in its own name, with its
// own Intl conventions: nothing in code lists the languages. A file missing a whole section is not offered.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readCatalogueFolder } from '../../locales/catalogue-files.node.js';
import { cataloguesOf, languages } from '../../locales/index.js';

const shipped = fileURLToPath(new URL('../../locales/catalogues/', import.meta.url));

describe('a fifth language needs no code change', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'etg-catalogues-'));
  after(() => rmSync(folder, { recursive: true, force: true }));
  cpSync(shipped, folder, { recursive: true });
  const english: unknown = JSON.parse(readFileSync(path.join(folder, 'en.json'), 'utf8'));
  assert.ok(typeof english === 'object' && english !== null);
  const indonesian = { ...english, language: { self: 'Bahasa Indonesia', intl: 'id-ID', switch: 'Bahasa' } };
  writeFileSync(path.join(folder, 'id.json'), JSON.stringify(indonesian));

  it('offers a catalogue dropped into the folder, after the shipped ones, named in its own language', () => {
    const found = cataloguesOf(readCatalogueFolder(folder));
    assert.deepEqual(Object.keys(found), ['zh-Hant', 'zh-Hans', 'en', 'id', 'pt']);
    assert.equal(found.id?.language.self, 'Bahasa Indonesia');
    // The shipped folder, read the same way, is what the screens offer today.
    assert.deepEqual(Object.keys(cataloguesOf(readCatalogueFolder(shipped))), [...languages]);
  });

  it('does not offer a file that lacks a whole section of the source, or names no Intl locale', () => {
    const noBets: Record<string, unknown> = { ...indonesian };
    delete noBets.bet;
    assert.ok('bet' in indonesian, 'the copy has the bets to leave out');
    writeFileSync(path.join(folder, 'xx.json'), JSON.stringify({ ...noBets, language: { self: 'X', intl: 'xx', switch: 'X' } }));
    writeFileSync(path.join(folder, 'yy.json'), JSON.stringify({ ...indonesian, language: { self: 'Y', intl: 'not a locale!', switch: 'Y' } }));
    const found = cataloguesOf(readCatalogueFolder(folder));
    assert.ok(!('xx' in found), 'a file without the bets section is not a catalogue of these screens');
    assert.ok(!('yy' in found), 'a catalogue whose language.intl Intl refuses');
    assert.ok('id' in found);
  });

  it('still offers a catalogue one key behind the source (that key is drawn in the source words until translated)', () => {
    const behind = JSON.parse(JSON.stringify(indonesian));
    assert.ok(behind.bet && typeof behind.bet === 'object' && 'tie' in behind.bet);
    delete behind.bet.tie;
    writeFileSync(path.join(folder, 'ms.json'), JSON.stringify({ ...behind, language: { self: 'Bahasa Melayu', intl: 'ms-MY', switch: 'Bahasa' } }));
    assert.ok('ms' in cataloguesOf(readCatalogueFolder(folder)));
  });
});
