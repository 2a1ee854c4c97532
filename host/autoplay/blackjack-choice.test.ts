import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CardFace, DecisionAction, HandView, StationDecision } from '../../protocol/index.js';
import { BlackjackChooser } from './blackjack-choice.js';

const hands = (seat: CardFace[], up: CardFace): HandView[] => [
  { owner: 'dealer', cards: [up], total: null },
  { owner: 'seat', seat: 1, hand: 0, cards: seat, total: null },
];
const decision = (legal: DecisionAction[], dflt: DecisionAction): StationDecision => ({ seat: 1, hand: 0, legal, default: dflt, endsAt: 0 });

describe('simulated blackjack player (autoplay)', () => {
  const chooser = new BlackjackChooser('portugal-2001');

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
});
