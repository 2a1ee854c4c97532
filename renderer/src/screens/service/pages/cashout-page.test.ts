import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createI18n } from '../../../../../locales/i18n.js';
import { pageContent } from '../page-content.js';
import { INITIAL_CHOICES } from './choices.js';
import { NO_ACTIONS, signedInService } from './page-test-kit.js';

const none = NO_ACTIONS;

// The Cash-out page's record of cancelled credits showed each entry's payload as JSON
// ({"amount":12345,"reason":"player left","station":3}) at the journal's UTC instant, eight hours
// from the Macau time the event log and the other pages give.
describe("the Cash-out page: a cancelled credit's record", () => {
  for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
    it(`${language}: says the station and the amount in words, at Macau's time, not the payload`, () => {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = signedInService(language, 'supervisor', { name: 'Ana', staff: '1001' });
      const cancelled = [
        {
          seq: 12,
          ts: '2026-01-01T00:00:00.000Z',
          type: 'credit.cancel',
          severity: 'info' as const,
          summary: '{"amount":12345,"reason":"player left","station":3}',
          said: { key: 'journalSaid.creditCancel', values: { station: 3, amount: 12_345, reason: 'player left' } },
        },
      ];
      const page = { page: 'cashout' as const, offset: 0, more: false, pending: [], cancelled, twoPersonAbove: 1_000_000 };
      const text = pageContent(state, page, t, INITIAL_CHOICES, none).rows.join('\n');
      assert.ok(text.includes(t('journalSaid.creditCancel', { station: 3, amount: 12_345, reason: 'player left', currency: 'MOP' })), `${language}: ${text}`);
      assert.ok(text.includes('2026-01-01 08:00:00'), `${language}: ${text}`);
      assert.doesNotMatch(text, /"amount"|T00:00:00/, `${language}: ${text}`);
    });
  }
});
