import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createI18n } from '../../../locales/i18n.js';
import { formatMoney } from '../../../locales/money.js';
import type { StationTicket } from '../../../protocol/index.js';
import { ticketLines } from './recall-tickets.js';

const TICKETS: StationTicket[] = [
  { direction: 'in', ts: '2026-11-26T12:05:00.000Z', last4: '7731', amount: null, state: 'returned', returned: 'already-paid' },
  { direction: 'in', ts: '2026-11-26T12:04:00.000Z', last4: '7731', amount: 50_000, state: 'redeemed' },
  { direction: 'out', ts: '2026-11-26T12:00:00.000Z', last4: '0428', amount: 123_450, state: 'printed' },
];

describe("the player's recall: the station's own tickets (issue 47)", () => {
  it('says each ticket printed or redeemed here with its last four digits, amount and state, in each language, no key raw', () => {
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const lines = ticketLines(TICKETS, { currency: 'MOP', language }, t);
      assert.equal(lines[0], t('recall.tickets'));
      assert.equal(lines.length, 1 + TICKETS.length, 'a heading, then one line a ticket, newest first');
      const [returned = '', redeemed = '', printed = ''] = lines.slice(1);
      assert.ok(printed.includes('…0428') && printed.includes(formatMoney(123_450, 'MOP', language)), `${language}: ${printed}`);
      assert.ok(printed.includes(t('recall.ticketState.printed')), `${language}: ${printed}`);
      assert.ok(redeemed.includes('…7731') && redeemed.includes(formatMoney(50_000, 'MOP', language)), `${language}: ${redeemed}`);
      assert.ok(redeemed.includes(t('recall.ticketState.redeemed')), `${language}: ${redeemed}`);
      // One that went back says why; its amount is not known here.
      assert.ok(returned.includes(t('service.tickets.reason.already-paid')) && returned.includes('—'), `${language}: ${returned}`);
      // Out and in read differently.
      assert.notEqual(printed.replace('…0428', '').replace(/\d/g, ''), redeemed.replace('…7731', '').replace(/\d/g, ''));
      for (const line of lines) assert.doesNotMatch(line, /recall\.|service\.|\{\{/, `${language}: ${line}`);
      // Never more than the last four digits of a number.
      for (const line of lines) assert.doesNotMatch(line, /\d{5,}/, `${language}: ${line}`);
    }
    const en = createI18n('en');
    assert.deepEqual(ticketLines(TICKETS.slice(2), { currency: 'MOP', language: 'en' }, en.t.bind(en)).slice(1), [
      `26/11/2026, 8:00 pm · ticket out …0428 · ${formatMoney(123_450, 'MOP', 'en')} · printed`,
    ]);
  });

  it('says there are none before the first ticket', () => {
    const en = createI18n('en');
    assert.deepEqual(ticketLines(undefined, { currency: 'MOP', language: 'en' }, en.t.bind(en)), ['Your tickets', 'No tickets yet']);
  });
});
