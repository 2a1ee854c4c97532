// A configuration change refused (service mode, the back office's order, a rule set switched at the
// shoe: issue 49 item 6) reaches a person as a key of the catalogues and its parameters, never as
// the host's English sentence: each refusal below is made by the product's own code, its key is
// checked, and its words are read in every language the way the service screen (its notice) and
// the back office (refusalWords over the synced journal's `say`) read them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { Ledger } from '../../ledger/index.js';
import { said as SaidSchema } from '../../terms/said.js';
import { ConfigChanges, type ChangeRefusal } from '../../host/config/config-changes.js';
import { inEnglish, type Said } from '../../host/config/refusal-words.js';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { configRefusals } from '../../host/testing/remote-orders.js';
import { credit } from '../../host/testing/table-kit.js';
import { assertSectionEverywhere, assertWordsEverywhere } from './said-kit.js';
import { fileConfig, openShoeHost, profileOrder, TO } from './shoe-profile-kit.js';

const silent = pino({ level: 'silent' });

/** What every configuration refusal must be: fits the journal's schema, and its key's words everywhere (said-kit.ts). */
function assertSaidEverywhere(s: Said, name: string): void {
  assert.ok(SaidSchema.safeParse(s).success, `${name}: ${JSON.stringify(s)} fits the journal's schema`);
  assertWordsEverywhere(s, name);
}

function refused(r: { ok: boolean } | ChangeRefusal): ChangeRefusal {
  assert.equal(r.ok, false, JSON.stringify(r));
  return r as ChangeRefusal;
}

describe('configuration refusals are said by key in every language', () => {
  it('every configRefusal key has words in each catalogue, with the same placeholders as the source', () => {
    assertSectionEverywhere('configRefusal');
  });

  it('a change made in service mode: each refusal is its key, its English the log’s', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-WORDS' });
    const config = TableConfig.parse(simulatedTableConfig('blackjack'));
    const portugal = TableConfig.parse({ ...simulatedTableConfig('blackjack', 'portugal-2001', 'DICJ-2026/1'), betLimits: {} });
    const changes = new ConfigChanges({ config, ledger, log: silent, bets: ['main'], betweenRounds: () => true });
    const pt = new ConfigChanges({ config: portugal, ledger, log: silent, bets: ['main'], betweenRounds: () => true });
    const by = { who: 'ana', witness: 'rui', authorisation: 'DICJ-2026/9' };
    try {
      const cases: [string, ChangeRefusal][] = [
        ['configRefusal.needsTwo', refused(changes.change('limits', { min: 100, max: 1000 }, { ...by, witness: ' ' }))],
        ['configRefusal.samePerson', refused(changes.change('limits', { min: 100, max: 1000 }, { ...by, witness: 'ana' }))],
        ['configRefusal.needsReference', refused(changes.change('limits', { min: 100, max: 1000 }, { ...by, authorisation: '' }))],
        ['configRefusal.notChangeable', refused(changes.change('seats', 7, by))],
        ['configRefusal.effectiveNotRules', refused(changes.change('limits', { min: 100, max: 1000 }, { ...by, effective: '2026-12-01' }))],
        ['configRefusal.effectiveNotADay', refused(changes.change('profile', 'macau-2004', { ...by, effective: '2026-02-30' }))],
        ['configRefusal.notValid', refused(changes.check('limits', { min: 'x' }))],
        ['configRefusal.unknownBets', refused(changes.check('betLimits', { anyPair: { min: 100, max: 1000 } }))],
        ['configRefusal.profileNotAName', refused(changes.check('profile', 7, 'DICJ-2026/9'))],
        ['configRefusal.profileOfOtherGame', refused(changes.check('profile', 'macau-no-commission', 'DICJ-2026/9'))],
        ['configRefusal.profileUnknown', refused(changes.check('profile', 'macau-1999', 'DICJ-2026/9'))],
        ['configRefusal.profileSame', refused(changes.check('profile', 'macau-2009', 'DICJ-2026/9'))],
        ['configRefusal.optionsNotObject', refused(changes.check('profileOptions', [1], 'DICJ-2026/9'))],
        ['configRefusal.optionsAuthorisation', refused(changes.check('profileOptions', { authorisation: 'x' }, 'DICJ-2026/9'))],
        ['configRefusal.limitSpreadTable', refused(pt.check('limits', { min: 10_000, max: 300_001 }))],
        ['service.ruleRefusal.fixed', refused(changes.check('profileOptions', { evenMoney: 'none' }, 'DICJ-2026/9'))],
      ];
      // The same reference given again for another rule set (Art. 21 n.1).
      assert.equal(changes.change('profileOptions', { surrender: 'none' }, { ...by, authorisation: 'DICJ-2026/77' }).ok, true);
      cases.push(['configRefusal.sameReference', refused(changes.check('profileOptions', { dealerSoft17: 'hit' }, 'DICJ-2026/77'))]);
      for (const [key, r] of cases) {
        assert.equal(r.say.key, key, `${key}: ${r.reason}`);
        // The log's English: the key's own words, or (a rule option the guard refused) every refusal named.
        if (r.rules) assert.match(r.reason, /refused: /, key);
        else assert.equal(r.reason, inEnglish(r.say), key);
        assertSaidEverywhere(r.say, key);
      }
    } finally {
      ledger.close();
    }
  });

  it("a rule set switched at the shoe: the table's refusals are keys, and the back office's journal entry carries one", () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-words-'));
    const t = openShoeHost(dir);
    try {
      const sw = t.rt.ruleSwitch;
      const next = (over: Record<string, unknown>) => TableConfig.parse({ ...fileConfig(), profile: TO, profileAuthorisation: 'DICJ-2026/5', ...over });
      const cases: [string, Said | undefined][] = [
        ['configRefusal.decks', sw.refusal(next({ profileOptions: { decks: 6 } }))?.say],
        ['configRefusal.noReference', sw.refusal(next({ profile: 'macau-commission', shoe: 'tcp:shoe.local:4000', profileAuthorisation: undefined }))?.say],
        ['configRefusal.noEffective', sw.refusal(next({ shoe: 'tcp:shoe.local:4000' }))?.say],
        ['configRefusal.notYetEffective', sw.refusal(next({ shoe: 'tcp:shoe.local:4000', profileAuthorisationEffective: '2999-01-01' }))?.say],
      ];
      // Chips on the spots: not at this shoe (a later one perhaps).
      t.burn();
      credit(t.ledger, 1, 100_000);
      assert.equal(t.rt.table.commands.placeBet(1, { bet: 'banker' }, 10_000).ok, true);
      const wait = sw.refusal(next({}));
      assert.equal(wait?.wait, true);
      cases.push(['configRefusal.waitRound', wait?.say]);
      for (const [key, s] of cases) {
        assert.ok(s, key);
        assert.equal(s.key, key, JSON.stringify(s));
        assertSaidEverywhere(s, key);
      }
      // The back office's order by the same person twice: journalled with its key.
      t.remote.receive(profileOrder(40, TO, { approvedBy: 'ana' }).answer);
      const [entry] = configRefusals(t.ledger);
      assert.equal(entry?.say?.key, 'configRefusal.orderSamePerson', JSON.stringify(entry));
      assert.ok(entry.say);
      assertSaidEverywhere({ key: 'configRefusal.orderSamePerson', values: entry.say.values }, 'orderSamePerson');
      // A signed order the table cannot read, off its schema or too long: journalled with its key too.
      t.remote.receive(profileOrder(41, TO, { extra: 'field' }).answer);
      t.remote.receive(profileOrder(42, TO, { note: 'x'.repeat(20_000) }).answer);
      const unread = configRefusals(t.ledger).slice(1);
      assert.deepEqual(
        unread.map((p) => [p.order, p.say?.key]),
        [
          [41, 'configRefusal.orderNotValid'],
          [42, 'configRefusal.orderTooLong'],
        ],
      );
      const [notValid, tooLong] = unread;
      assert.ok(notValid?.say && tooLong?.say);
      assertSaidEverywhere({ key: 'configRefusal.orderNotValid', values: notValid.say.values }, 'orderNotValid');
      assertSaidEverywhere({ key: 'configRefusal.orderTooLong', values: tooLong.say.values }, 'orderTooLong');
    } finally {
      t.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
