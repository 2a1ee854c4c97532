import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createI18n } from '../../../locales/i18n.js';

import { stakeName } from './station-play.js';

// A recalled stake summed across the seats (host/screens/recall.ts, past the recall's caps) names
// every seat it holds; before, it was said as its first seat's alone ('Behind seat 2').
describe('a stake summed across the seats', () => {
  it('names every seat it holds, in each language', () => {
    for (const language of ['en', 'pt', 'zh-Hant', 'zh-Hans'] as const) {
      const t = createI18n(language).t;
      const said = stakeName(t, { bet: 'behind', seat: 2, seats: [2, 3, 5] }, 1);
      assert.equal(said.includes(t('desk.behind', { n: 2 })), false, `${language}: not said as seat 2's alone: ${said}`);
      for (const n of ['2', '3', '5']) assert.ok(said.includes(n), `${language}: seat ${n} named: ${said}`);
      assert.ok(said.includes(t('bet.behind')), `${language}: the bet named: ${said}`);
    }
    assert.equal(stakeName(createI18n('en').t, { bet: 'double', seat: 2, seats: [2, 4] }, 2), 'Double · seats 2 and 4');
    assert.equal(stakeName(createI18n('en').t, { bet: 'behind', seat: 2 }, 1), 'Behind seat 2');
  });
});
