import type { CorrectionRule } from '../table/game.js';
import type { RegulatedProfileId } from './rules.js';

/**
 * The dealing errors each text orders corrected (engine/table/holds.ts), with the article: an
 * exposed card is void (Macau Art. 5 n.1 1); Portugal rule 17, the dealer's second card), a card
 * at another hand goes to the one it belongs to (Art. 5 n.1 2)), a card drawn against what the
 * player asked goes, unseen, to the next player who asks (rule 18; Macau Art. 5 n.1 2): the
 * card is given to the player it falls to), and one seen or the dealer's undue draw is void
 * (Art. 6 1), Art. 5 n.1 1); rules 18–19).
 */
export function blackjackCorrections(profile: RegulatedProfileId): CorrectionRule[] {
  if (profile === 'portugal-2001') {
    return [
      { correction: 'exposed-card', holds: ['dealing-error'], rule: 'portugal-2001 rule 17' },
      { correction: 'misdrawn-card', holds: ['out-of-turn'], rule: 'portugal-2001 rule 18' },
      { correction: 'undue-card', holds: ['out-of-turn'], rule: 'portugal-2001 rule 18' },
      { correction: 'undue-card', holds: ['extra-card'], rule: 'portugal-2001 rule 19' },
    ];
  }
  return [
    { correction: 'exposed-card', holds: ['dealing-error'], rule: `${profile} art.5 n.1 1)` },
    { correction: 'wrong-hand', holds: ['dealing-error'], rule: `${profile} art.5 n.1 2)` },
    { correction: 'misdrawn-card', holds: ['out-of-turn'], rule: `${profile} art.5 n.1 2)` },
    { correction: 'undue-card', holds: ['out-of-turn'], rule: `${profile} art.5 n.1 1)` },
    { correction: 'undue-card', holds: ['extra-card'], rule: `${profile} art.6 1)` },
  ];
}
