import { describe, it } from 'node:test';
import { PROFILES, soakThroughShoes } from './shoe-changes-harness.js';

// Issue 52: this table stopped at its first new shoe (rule 10's one burn, then a second card the
// simulated dealer drew: an extra card, a hold for good).
describe('through many shoes with kills: Portugal blackjack, with and without the jackpot', () => {
  for (const p of [PROFILES['blackjack portugal-2001'], PROFILES['blackjack portugal-2001 with the jackpot']]) {
    it(`${p.name}: three shoe changes or more, killed and restarted, no hold, the money conserved`, { timeout: 300_000 }, async (t) => {
      const out = await soakThroughShoes(p);
      t.diagnostic(`${out.rounds} rounds, ${out.restarts} restarts, ${out.shoeChanges} shoe changes`);
    });
  }
});
