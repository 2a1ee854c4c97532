import { describe, it } from 'node:test';
import { PROFILES, soakThroughShoes } from './shoe-changes-harness.js';

describe('through many shoes with kills: baccarat (both commission options) and war', () => {
  for (const p of [PROFILES['baccarat macau-commission'], PROFILES['baccarat macau-no-commission'], PROFILES.war]) {
    it(`${p.name}: three shoe changes or more, killed and restarted, no hold, the money conserved`, { timeout: 300_000 }, async (t) => {
      const out = await soakThroughShoes(p);
      t.diagnostic(`${out.rounds} rounds, ${out.restarts} restarts, ${out.shoeChanges} shoe changes`);
    });
  }
});
