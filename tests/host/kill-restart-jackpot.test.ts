import { describe, it } from 'node:test';
import { killAtEveryStep } from './kill-restart-harness.js';

describe('kill and restart at every step of a round: Portugal blackjack with the progressive jackpot', () => {
  it(
    'kills the host after each journal entry of its scripted first round (two jackpot chips, an award); each restart verifies, conserves the money, the pools and the hits, and finishes the round',
    { timeout: 600_000 },
    async (t) => {
      const steps = await killAtEveryStep('blackjack-jackpot', 13);
      t.diagnostic(steps.map((s) => `${s.k}:${s.killedTransaction.join('+')}→${s.outcome}`).join(' '));
    },
  );
});
