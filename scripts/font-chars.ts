// Prints every character the screens can draw with the bundled font: all strings of every
// locale catalogue, printable ASCII, the Latin-1 letters Portuguese uses, and the punctuation
// and currency signs of formatted money. The font subset is built from this list, so a new
// string whose glyph is missing fails the glyph-coverage test, not the casino floor.
import { fileURLToPath } from 'node:url';
import { SUIT_SIGNS } from '../cards/card.js';
import { catalogues } from '../locales/index.js';

type Tree = { [k: string]: string | Tree };

export function fontChars(): string[] {
  const chars = new Set<string>();
  const walk = (t: Tree) => {
    for (const v of Object.values(t)) {
      if (typeof v === 'string') for (const c of v.replace(/\{\{[^}]*\}\}/g, '')) chars.add(c);
      else walk(v);
    }
  };
  for (const cat of Object.values(catalogues)) walk(cat as Tree);
  for (let c = 0x20; c < 0x7f; c++) chars.add(String.fromCharCode(c));
  for (let c = 0xc0; c <= 0xff; c++) chars.add(String.fromCharCode(c));
  for (const c of '«»·…–—‘’“”　，。：；！？、（）《》「」$€¥%\u00a0\u202f') chars.add(c);
  // Drawn by Intl, not the catalogues: the 12-hour clock's day periods in zh-Hant-MO.
  for (const c of '上午下午') chars.add(c);
  // The suits' signs drawn on the card faces, the card pad and the recall lists.
  for (const c of Object.values(SUIT_SIGNS)) chars.add(c);
  // The card back's mark, the recall list's pointer and the signs of a result (+ − ±).
  for (const c of '澳▶−±') chars.add(c);
  return [...chars].sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(fontChars().join(''));
