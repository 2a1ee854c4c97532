// Issue 51 item 2: the authorisation on record. A live table opens only under the regulator's
// reference for its whole rule set (Macau 2009 Art. 21 n.1, baccarat Art. 19, Portugal's Portaria
// 1364/2001), from its effective day, for the rule set it was recorded for; a demonstration table
// (every device simulated) opens without one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDemonstration, liveOpenRefusal, ruleRecordOf, ruleSetDigest } from './authorisation.js';
import { simulatedTableConfig, TableConfig } from './table-config.js';

const TODAY = '2026-11-26';

/** A configuration with a real shoe (a serial device server on the floor). */
function live(game: TableConfig['game'] = 'blackjack', profile?: string, extra: Partial<TableConfig> = {}): TableConfig {
  return TableConfig.parse({ ...simulatedTableConfig(game, profile), shoe: 'tcp:10.0.0.5:4001', ...extra });
}

describe('the rule set digest', () => {
  it('is the same whatever order the options are written in, and differs when one changes', () => {
    const a = ruleSetDigest({ ...simulatedTableConfig(), profileOptions: { surrender: 'none', betBehind: 'highest-bet' }, profileAuthorisation: 'DICJ-1' });
    const b = ruleSetDigest({ ...simulatedTableConfig(), profileOptions: { betBehind: 'highest-bet', surrender: 'none' }, profileAuthorisation: 'DICJ-2' });
    const c = ruleSetDigest({ ...simulatedTableConfig(), profileOptions: { betBehind: 'highest-bet' }, profileAuthorisation: 'DICJ-1' });
    assert.match(a, /^[0-9a-f]{64}$/);
    assert.equal(a, b, 'the reference is not part of the rule set, nor the order of its options');
    assert.notEqual(a, c);
  });

  it('covers the defaults: two profiles of one game, no options, differ; baccarat with and without commission differ', () => {
    assert.notEqual(ruleSetDigest(simulatedTableConfig('blackjack', 'macau-2009')), ruleSetDigest(simulatedTableConfig('blackjack', 'portugal-2001')));
    assert.notEqual(
      ruleSetDigest(simulatedTableConfig('baccarat', 'macau-commission')),
      ruleSetDigest({ ...simulatedTableConfig('baccarat', 'macau-commission'), profileOptions: { burn: 'fixed' }, profileAuthorisation: 'DICJ-1' }),
    );
  });
});

describe('a live table and its authorisation', () => {
  it('with every device simulated is a demonstration table, which opens without a reference', () => {
    const c = simulatedTableConfig();
    assert.equal(isDemonstration(c), true);
    const r = ruleRecordOf(c);
    assert.equal(r.demonstration, true);
    assert.equal(r.reference, null);
    assert.equal(liveOpenRefusal(r, [], TODAY), null);
  });

  it('with a real shoe, a real acceptor or a real printer is live', () => {
    assert.equal(isDemonstration(live()), false);
    const sim = simulatedTableConfig();
    const acceptor = { ...sim, stations: sim.stations.map((s, i) => (i === 3 ? { ...s, billAcceptor: 'usb:0bed:1100' } : s)) };
    assert.equal(isDemonstration(acceptor), false);
    const printer = { ...sim, stations: sim.stations.map((s, i) => (i === 0 ? { ...s, printer: 'serial:/dev/ttyS1' } : s)) };
    assert.equal(isDemonstration(printer), false);
  });

  it('blackjack without a reference is refused, naming Macau 2009 Art. 21 n.1, at the defaults too', () => {
    const why = liveOpenRefusal(ruleRecordOf(live()), [], TODAY);
    assert.match(why ?? '', /authorisation reference for its whole rule set \(Despacho 57\/2009, Art\. 21 no\. 1\)/);
  });

  it('baccarat without a reference is refused, naming Art. 19, its face-value burn and one coup after the cut card included', () => {
    const why = liveOpenRefusal(ruleRecordOf(live('baccarat', 'macau-commission')), [], TODAY);
    assert.match(why ?? '', /\(Despacho 55\/2004, Art\. 19\)/);
  });

  it('Portugal without a reference is refused, naming the Portaria 1364/2001 and its rule 43', () => {
    const why = liveOpenRefusal(ruleRecordOf(live('blackjack', 'portugal-2001')), [], TODAY);
    assert.match(why ?? '', /\(Portaria 1364\/2001, Art\. 1 of the Portaria itself, rule 43\)/);
  });

  it('needs the effective date, and does not open before it', () => {
    const noDate = ruleRecordOf(live('blackjack', 'macau-2009', { profileAuthorisation: 'DICJ-2026-0042' }));
    assert.match(liveOpenRefusal(noDate, [], TODAY) ?? '', /no effective date/);
    const later = ruleRecordOf(live('blackjack', 'macau-2009', { profileAuthorisation: 'DICJ-2026-0042', profileAuthorisationEffective: '2026-11-27' }));
    assert.match(liveOpenRefusal(later, [], TODAY) ?? '', /takes effect on 2026-11-27/);
    const now = ruleRecordOf(live('blackjack', 'macau-2009', { profileAuthorisation: 'DICJ-2026-0042', profileAuthorisationEffective: TODAY }));
    assert.equal(liveOpenRefusal(now, [], TODAY), null);
  });

  it('refuses a rule set changed under the reference recorded for another one', () => {
    const auth = { profileAuthorisation: 'DICJ-2026-0042', profileAuthorisationEffective: '2026-01-02' };
    const first = ruleRecordOf(live('blackjack', 'macau-2009', auth));
    const changed = ruleRecordOf(live('blackjack', 'macau-2009', { ...auth, profileOptions: { surrender: 'none' } }));
    assert.equal(liveOpenRefusal(first, [first.digest], TODAY), null, 'the same rule set under its own reference opens again');
    assert.match(
      liveOpenRefusal(changed, [first.digest], TODAY) ?? '',
      /rule set changed under the same authorisation DICJ-2026-0042.*needs a new reference \(Despacho 57\/2009, Art\. 21 no\. 1\)/,
    );
    const renewed = ruleRecordOf(live('blackjack', 'macau-2009', { ...auth, profileAuthorisation: 'DICJ-2026-0077', profileOptions: { surrender: 'none' } }));
    assert.equal(liveOpenRefusal(renewed, [], TODAY), null);
  });

  it('refuses an effective date without its reference in the configuration itself', () => {
    const r = TableConfig.safeParse({ ...simulatedTableConfig(), profileAuthorisationEffective: '2026-01-02' });
    assert.equal(r.success, false);
    assert.match(JSON.stringify(r.error?.issues), /profileAuthorisationEffective/);
  });
});
