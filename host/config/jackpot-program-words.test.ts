// A jackpot program the engine refused (engine/games.ts checkTableOptions) reached the Configuration
// page as English in every language: `jackpotProgram = the program given is not a value of its kind
// (level "main" starts at 5000, below 10,000 × the stake of 100 = 1000000 (portugal-2001 rule 44))`.
// The engine names each problem by a code and its figures (`jackpot`, the first problem); the page
// says it by its key (service.ruleRefusal.jackpot-*), amounts in the table's currency, the article in words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { EXAMPLE_JACKPOT_PROGRAM } from '../../engine/blackjack/jackpot/program.js';
import { Ledger } from '../../ledger/index.js';
import { createI18n } from '../../locales/i18n.js';
import { saidWords } from '../../locales/said.js';
import { ConfigChanges } from './config-changes.js';
import { simulatedTableConfig } from './table-config.js';

const words = (language: string, s: { key: string; values?: Readonly<Record<string, string | number>> }) => {
  const t = createI18n(language).t;
  return saidWords((key, options) => t(key, options) as string, s as never);
};

const by = { who: 'sup-1', witness: 'tech-2', authorisation: 'IGJ-2026/1' };
const P = EXAMPLE_JACKPOT_PROGRAM;

/** The first refusal of these options on a Portugal table, as the page gets it. */
function refusedSay(options: Record<string, unknown>) {
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'JP-1' });
  try {
    const config = simulatedTableConfig('blackjack', 'portugal-2001');
    const c = new ConfigChanges({ config, ledger, log: pino({ level: 'silent' }), bets: ['main'], betweenRounds: () => true });
    const r = c.change('profileOptions', options, by);
    assert.ok(!r.ok, 'refused');
    return r.say;
  } finally {
    ledger.close();
  }
}

const ENGLISH = /program given|starts at|resets to|below|needs|basis points|appears twice|award|which|the program|not a value|jackpotProgram|\{\{/;

const CASES: readonly { name: string; options: Record<string, unknown>; key: string; pt: RegExp }[] = [
  { name: 'the jackpot without its program', options: { jackpot: true }, key: 'jackpot-needs-program', pt: /Inspecção-Geral de Jogos/ },
  { name: 'a program without the jackpot', options: { jackpotProgram: P }, key: 'jackpot-needs-option', pt: /opção de jackpot/ },
  { name: 'a program whose chip is no amount', options: { jackpot: true, jackpotProgram: { ...P, stake: 0 } }, key: 'jackpot-program-field', pt: /stake/ },
  {
    name: 'a level starting below 10,000 chips',
    options: { jackpot: true, jackpotProgram: { ...P, levels: [{ ...P.levels[0], start: 500_000 }, P.levels[1]] } },
    key: 'jackpot-start-below',
    pt: /nível «main», 5000\sMOP\$, é inferior a 10\s000 × a ficha de 1\sMOP\$ = 10\s000\sMOP\$ \(Portaria n\.º 1364\/2001, regra 44\)$/,
  },
  {
    name: 'shares not summing to the whole increment',
    options: { jackpot: true, jackpotProgram: { ...P, levels: [{ ...P.levels[0], share: 7_000 }, P.levels[1]] } },
    key: 'jackpot-shares',
    pt: /9000/,
  },
  {
    name: 'a combination with two awards',
    options: { jackpot: true, jackpotProgram: { ...P, awards: [...P.awards, P.awards[0]] } },
    key: 'jackpot-award-twice',
    pt: /quatro ases|ases/i,
  },
];

describe('a jackpot program refused on the Configuration page: said by key, not in English', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const say = refusedSay(c.options);
      assert.equal(say.key, `service.ruleRefusal.${c.key}`, JSON.stringify(say));
      const en = words('en', say);
      assert.doesNotMatch(en, /\{\{|ruleRefusal|the program given/, en);
      for (const l of ['pt', 'zh-Hant', 'zh-Hans']) {
        const w = words(l, say);
        assert.doesNotMatch(w, ENGLISH, `${l}: ${w}`);
        assert.notEqual(w, en);
      }
      assert.match(words('pt', say), c.pt, words('pt', say));
    });
  }
});
