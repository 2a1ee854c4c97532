import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogueOf } from '../../locales/index.js';

// One word per concept in each language (docs/terms-for-review.md, "One word per concept"): a
// reader who meets two words for one thing on two pages asks whether they are two things. Where a
// regulation's text has the word, it is the text's; else the word the catalogues chose and list
// for review. Each row: the word kept, and the words it replaced, which no text of the catalogue may use.
const ONE_TERM: readonly { lang: string; concept: string; kept: RegExp; refused: RegExp }[] = [
  // The 2009 text (Art. 1) and the 2005 texts write «shoe»; «sabot» is Portugal's (rule 4) only.
  { lang: 'pt', concept: 'the card shoe', kept: /«shoe»/i, refused: /\bsabots?\b/i },
  { lang: 'pt', concept: 'service mode', kept: /\bmodo de serviço\b/i, refused: /\bmodo de manutenção\b/i },
  { lang: 'pt', concept: 'a player station', kept: /\bpostos?\b/, refused: /\besta(?:ção|ções)\b/i },
  // A remote station (遙距投注機): «terminal remoto», the Stations page's and the journal's word
  // (docs/terms-for-review.md); a «posto remoto» beside it reads as another thing.
  { lang: 'pt', concept: 'a remote station', kept: /\btermina(?:l|is) remotos?\b/, refused: /\bpostos? remotos?\b/i },
  { lang: 'zh-Hant', concept: 'a player station', kept: /投注機/, refused: /投注站/ },
  { lang: 'zh-Hans', concept: 'a player station', kept: /投注机/, refused: /投注站/ },
  // Service mode's own title (service.title): 維修模式 / 维护模式, never a second name on one page.
  { lang: 'zh-Hant', concept: 'service mode', kept: /維修模式/, refused: /服務模式|維護模式/ },
  { lang: 'zh-Hans', concept: 'service mode', kept: /维护模式/, refused: /服务模式|维修模式/ },
  // The 2009 text (Art. 6) says 博牌 for taking a card and 博彩者 for the player; 要牌 and 玩家 are
  // the mainland words zh-Hans uses (docs/zh-hans-vocabulary.md), not the Traditional catalogue's.
  { lang: 'zh-Hant', concept: 'taking a card (hit)', kept: /博牌/, refused: /要牌/ },
  { lang: 'zh-Hant', concept: 'the player', kept: /博彩者/, refused: /玩家/ },
  // Going to war («Desafiar a casa», the 2005 regulation, Art. on the tie): 挑戰莊家 / 开战 (action.war).
  { lang: 'zh-Hant', concept: 'going to war', kept: /挑戰莊家/, refused: /開戰/ },
  { lang: 'zh-Hans', concept: 'going to war', kept: /开战/, refused: /挑战庄家/ },
  // The gaming table: the 2009 text's 博彩桌 in zh-Hant (賭枱 is no word of it), the mainland 赌台 in
  // zh-Hans (docs/zh-hans-vocabulary.md); the Traditional catalogue writes the table character 檯 (開檯, 本檯).
  { lang: 'zh-Hant', concept: 'the gaming table', kept: /博彩桌/, refused: /賭[枱檯桌台]/ },
  { lang: 'zh-Hant', concept: 'the table character', kept: /檯/, refused: /枱/ },
  { lang: 'zh-Hans', concept: 'the gaming table', kept: /赌台/, refused: /博彩桌|赌桌/ },
  // This table (and that one): the table character of each catalogue, 本檯 / 本台 (該檯 / 该台); 桌 is
  // the gaming table's 博彩桌 only (and the peer table's 同桌), and 此 a second word for 本.
  { lang: 'zh-Hant', concept: 'this table', kept: /本檯/, refused: /[本此該]桌|此檯/ },
  { lang: 'zh-Hans', concept: 'this table', kept: /本台/, refused: /[本此该]桌|此台/ },
  // The 2009 text (Art. 12): a player «作出» the additional bet 保險投注; nobody buys it (買保險).
  { lang: 'zh-Hant', concept: 'insurance', kept: /保險投注/, refused: /買保險|購買保險/ },
  // The 2009 text (Art. 7) says 超過二十一點 for a bust; 爆 is the street's word.
  { lang: 'zh-Hant', concept: 'a bust', kept: /超過二十一點/, refused: /爆/ },
  // The 2009 text's Portuguese: the player «rebenta» (Art. 6, 7, 16) and has five cards «sem exceder 21 pontos» (Art. 19).
  { lang: 'pt', concept: 'a bust', kept: /\brebent/i, refused: /\bpass\w* de 21\b|\bsem passar\b/i },
  // The dealer's card face up: 莊家牌面為A (the 2009 text, Art. 12), 牌面向上 (Art. 5); never 明牌.
  { lang: 'zh-Hant', concept: 'a card face up', kept: /牌面/, refused: /明牌/ },
  // Even money (docs/terms-for-review.md): «pagamento imediato», the offer's own words; «pagamento
  // igual» is a calque of the English and said the button's act differently from its question.
  { lang: 'pt', concept: 'even money', kept: /\bpagamento imediato\b/i, refused: /\bpagamento igual\b/i },
  // The 2005 regulation of «Desafio ao Casino» says «desafiar a casa»; it has no «guerra».
  { lang: 'pt', concept: 'going to war', kept: /\bdesafiar a casa\b/i, refused: /\bguerra\b/i },
];

/** Every text of a catalogue with its key. */
function texts(tree: object, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]): [string, string][] => {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') return [[key, v]];
    return typeof v === 'object' && v !== null ? texts(v, key) : [];
  });
}

describe('each language says one concept by one word', () => {
  for (const { lang, concept, kept, refused } of ONE_TERM) {
    it(`${lang}: ${concept} is ${kept.source}, never ${refused.source}`, () => {
      const all = texts(catalogueOf(lang));
      assert.ok(
        all.some(([, text]) => kept.test(text)),
        `${lang} says ${concept} somewhere`,
      );
      const other = all.filter(([, text]) => refused.test(text)).map(([key, text]) => `${key}: ${text}`);
      assert.deepEqual(other, [], `${lang}: say ${concept} as ${kept.source}`);
    });
  }
});
