import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CardCode } from '../../cards/card.js';
import type { DecisionAction } from '../../table/vocabulary.js';
import { decisionAdvisor } from '../../games.js';
import { BlackjackAdvisor, type DecisionAsked, type HandSeen } from './advisor.js';

type CardFace = CardCode | 'XX';
const hands = (seat: CardFace[], up: CardFace): HandSeen[] => [
  { owner: 'dealer', cards: [up] },
  { owner: 'seat', seat: 1, hand: 0, cards: seat },
];
const decision = (legal: DecisionAction[], dflt: DecisionAction): DecisionAsked => ({ seat: 1, hand: 0, legal, default: dflt });

describe('blackjack advisor (the simulated players of autoplay)', () => {
  const chooser = new BlackjackAdvisor('portugal-2001');

  it('plays basic strategy: doubles 11 against a 6, stands on 17', () => {
    assert.equal(chooser.choose(decision(['hit', 'stand', 'double'], 'stand'), hands(['5S', '6D'], '6H')), 'double');
    assert.equal(chooser.choose(decision(['hit', 'stand'], 'stand'), hands(['TS', '7D'], '6H')), 'stand');
  });

  it('behind a seat, follows a double or split only where basic strategy makes it (rules 28, 30)', () => {
    const follow = (action: 'double' | 'split', seat: CardFace[], up: CardFace) =>
      chooser.choose(decision([`follow-${action}`, 'decline-follow'], 'decline-follow'), hands(seat, up));
    assert.equal(follow('double', ['5S', '6D'], '6H'), 'follow-double', '11 against 6');
    assert.equal(follow('double', ['TS', '2D'], 'TH'), 'decline-follow', 'a 12 against a ten is no double');
    assert.equal(follow('split', ['8S', '8D'], '6H'), 'follow-split', 'eights against 6');
    assert.equal(follow('split', ['TS', 'TD'], '6H'), 'decline-follow', 'tens are not split');
  });

  it("declines the offers, as the table's own default does", () => {
    assert.equal(chooser.choose(decision(['insurance', 'decline-insurance'], 'decline-insurance'), hands(['TS', '7D'], 'AH')), 'decline-insurance');
  });

  it('leaves a hand it cannot see all of to the default', () => {
    assert.equal(chooser.choose(decision(['hit', 'stand', 'double'], 'stand'), hands(['5S', 'XX'], '6H')), 'stand');
  });
});

describe('the game names its advisor (engine/games.ts): the host does not', () => {
  const never = () => assert.fail('blackjack draws no chance');
  it('blackjack plays basic strategy for its profile; baccarat has none', () => {
    const bj = decisionAdvisor('blackjack', 'macau-2009', never);
    assert.ok(bj instanceof BlackjackAdvisor);
    assert.equal(bj.choose(decision(['hit', 'stand'], 'stand'), hands(['TS', '6D'], 'TH')), 'hit', '16 against a ten');
    assert.equal(decisionAdvisor('baccarat', 'macau', never), null);
    assert.throws(() => decisionAdvisor('blackjack', 'nowhere', never), /no blackjack profile/);
  });

  it("war's goes to war or surrenders after a tie by the host's chance, drawing it only then", () => {
    const asked: number[] = [];
    const by = (yes: boolean) => decisionAdvisor('war', 'macau', (p) => (asked.push(p), yes));
    const tie = decision(['war', 'surrender'], 'surrender');
    assert.equal(by(true)?.choose(tie, []), 'war');
    assert.equal(by(false)?.choose(tie, []), 'surrender');
    assert.deepEqual(asked, [0.8, 0.8], 'four times in five to war');
    assert.equal(by(true)?.choose(decision(['surrender'], 'surrender'), []), 'surrender', 'only surrender offered: the default');
    assert.equal(asked.length, 2, 'no chance drawn when there is no choice');
  });
});
