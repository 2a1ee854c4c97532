import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { Ledger } from '../../ledger/index.js';
import { catalogues } from '../../locales/index.js';
import { ConfigChanges } from './config-changes.js';
import { ConfigFileError, loadTableConfigFile } from './load-config.js';
import { simulatedTableConfig } from './table-config.js';

// Issue 15, "Done when" 1: an override of a fixed article is refused by the configuration file and
// the service Configuration page (here its ConfigChanges, which the page calls), with the article
// in the message, as `sim` and `round` refuse it (cli/round/*.test.ts).

/** The inspector's examples: each option, a value the text does not allow, the article that fixes it (a waivable one, Art. 18, offers only its listed values). */
const FIXED: readonly { game: 'blackjack' | 'baccarat' | 'war'; option: string; value: unknown; article: RegExp; reason: 'fixed' | 'not-offered' }[] = [
  { game: 'blackjack', option: 'surrender', value: 'late', article: /macau-2009 art\.18 n\.1/, reason: 'not-offered' },
  { game: 'blackjack', option: 'evenMoney', value: 'none', article: /macau-2009 art\.10 n\.3/, reason: 'fixed' },
  { game: 'blackjack', option: 'fiveCardHalfPay', value: false, article: /macau-2009 art\.19/, reason: 'fixed' },
  { game: 'baccarat', option: 'banker.commissionBasisPoints', value: 400, article: /macau-baccarat art\.18 n\.1/, reason: 'fixed' },
  // Art. 3 n.1: the cut card's coup is the last or one more is played, never two or three (issue 33 item 3).
  { game: 'baccarat', option: 'coupsAfterCutCard', value: 2, article: /macau-baccarat art\.3 n\.1/, reason: 'not-offered' },
  { game: 'war', option: 'tiePays', value: 8, article: /macau-war \[art\.7\] n\.3/, reason: 'fixed' },
];

describe('the one guard of the rule options: the configuration file', () => {
  for (const f of FIXED) {
    it(`refuses ${f.game} ${f.option}=${JSON.stringify(f.value)} naming the article, even with an authorisation reference`, () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'guard-'));
      try {
        const file = path.join(dir, 'table.json');
        writeFileSync(file, JSON.stringify({ ...simulatedTableConfig(f.game), profileOptions: { [f.option]: f.value }, profileAuthorisation: 'DICJ-1' }));
        assert.throws(
          () => loadTableConfigFile(file),
          (e: unknown) => e instanceof ConfigFileError && f.article.test(e.message) && e.message.includes(f.option),
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it("baccarat: Art. 2 n.1's burn formulas are choices taken with the reference, refused without one (Art. 19)", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'guard-'));
    try {
      const file = path.join(dir, 'table.json');
      const options = { burn: 'fixed', burnFixedCards: 5, coupsAfterCutCard: 0 };
      writeFileSync(file, JSON.stringify({ ...simulatedTableConfig('baccarat'), profileOptions: options, profileAuthorisation: 'DICJ-7' }));
      assert.deepEqual(loadTableConfigFile(file).profileOptions, options);
      writeFileSync(file, JSON.stringify({ ...simulatedTableConfig('baccarat'), profileOptions: options }));
      assert.throws(() => loadTableConfigFile(file), /authorisation reference \(macau-baccarat art\.19\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('accepts a choice the text offers with its reference, and refuses it without one (Art. 21 n.1)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'guard-'));
    try {
      const file = path.join(dir, 'table.json');
      writeFileSync(file, JSON.stringify({ ...simulatedTableConfig('blackjack'), profileOptions: { surrender: 'none' }, profileAuthorisation: 'DICJ-1' }));
      assert.deepEqual(loadTableConfigFile(file).profileOptions, { surrender: 'none' });
      writeFileSync(file, JSON.stringify({ ...simulatedTableConfig('blackjack'), profileOptions: { surrender: 'none' } }));
      assert.throws(() => loadTableConfigFile(file), /authorisation reference \(macau-2009 art\.21/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the one guard of the rule options: the Configuration page', () => {
  function changes(game: 'blackjack' | 'baccarat' | 'war') {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'GUARD-1' });
    const config = simulatedTableConfig(game);
    return { ledger, c: new ConfigChanges({ config, ledger, log: pino({ level: 'silent' }), bets: ['main'], betweenRounds: () => true }) };
  }
  const by = { who: 'sup-1', witness: 'tech-2', authorisation: 'DICJ-2026/1' };

  for (const f of FIXED) {
    it(`refuses ${f.game} ${f.option}=${JSON.stringify(f.value)} with its article, journalling nothing`, () => {
      const { ledger, c } = changes(f.game);
      try {
        const before = ledger.headOf().seq;
        const r = c.change('profileOptions', { [f.option]: f.value }, by);
        assert.equal(r.ok, false);
        assert.match(!r.ok ? r.reason : '', f.article);
        // The page words the first refusal in the screen's language from these (service.ruleRefusal.*).
        assert.deepEqual(!r.ok ? [r.rules?.[0]?.option, r.rules?.[0]?.reason] : [], [f.option, f.reason]);
        assert.match((!r.ok && r.rules?.[0]?.article) || '', f.article);
        assert.equal(ledger.headOf().seq, before, 'nothing journalled');
      } finally {
        ledger.close();
      }
    });
  }

  it('journals a permitted choice with its reference, to take effect at the next start', () => {
    const { ledger, c } = changes('blackjack');
    try {
      const r = c.change('profileOptions', { surrender: 'none' }, by);
      assert.deepEqual(r.ok && r.status, 'restart');
      assert.deepEqual(
        c.forRestart().map((q) => [q.after, q.authorisation]),
        [[{ surrender: 'none' }, 'DICJ-2026/1']],
      );
    } finally {
      ledger.close();
    }
  });

  it('words each refusal with its article in every screen language', () => {
    for (const [lang, catalogue] of Object.entries(catalogues)) {
      const words = catalogue.service.ruleRefusal;
      for (const reason of ['fixed', 'not-offered', 'out-of-range', 'needs-authorisation'] as const)
        assert.match(words[reason], /\{\{article, citation\}\}/, `${lang} ${reason}`);
    }
  });
});
