import { describe, it } from 'node:test';
import { killAtEveryStep } from './kill-restart-harness.js';

describe('kill and restart at every step of a round: blackjack', () => {
  it(
    'kills the host after each journal entry of its scripted first round (two stations, every decision kind); each restart verifies, conserves and finishes the round',
    { timeout: 600_000 },
    async (t) => {
      const steps = await killAtEveryStep('blackjack', 13);
      t.diagnostic(steps.map((s) => `${s.k}:${s.killedTransaction.join('+')}→${s.outcome}`).join(' '));
    },
  );
});
