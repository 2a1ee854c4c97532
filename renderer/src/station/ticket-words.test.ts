// What the station says of its cash-out while the casino system is asked for the ticket's number
// (docs/sas.md, "System validation at a station"): a lasting "waiting for the casino system" ahead
// of any older ticket words, and the words exist in every catalogue.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { StationState } from '../../../protocol/index.js';
import { NEVER } from '../anim/wake.js';
import { ticketWords } from './ticket-words.js';

const LOCALES = ['en', 'pt', 'zh-Hant', 'zh-Hans'] as const;
const catalogue = (l: string): Record<string, Record<string, unknown>> =>
  JSON.parse(readFileSync(new URL(`../../../locales/catalogues/${l}.json`, import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>;

describe('ticket words: the wait for the casino system', () => {
  it('says the cash-out waits, for as long as it waits, before an older ticket’s outcome', () => {
    const s = {
      cashout: { pending: null, systemWait: { amount: 30_000, at: 1_000 }, ticket: { state: 'printed', amount: 5_000, validation: '0'.repeat(18), at: 900 } },
    } as unknown as StationState;
    assert.deepEqual(ticketWords(s, 2_000), { key: 'desk.ticketAwaitingSystem', amount: 30_000, until: NEVER });
  });

  it('the waiting words and the handpay reason no-system-number are in all four catalogues, with the amount', () => {
    for (const l of LOCALES) {
      const desk = catalogue(l).desk ?? {};
      assert.match(String(desk.ticketAwaitingSystem), /\{\{amount, money\}\}/, `${l}: desk.ticketAwaitingSystem`);
      assert.match(
        String((desk.handpayWhy as Record<string, unknown> | undefined)?.['no-system-number']),
        /\{\{amount, money\}\}/,
        `${l}: desk.handpayWhy.no-system-number`,
      );
    }
  });
});

describe('ticket words: a note or a ticket returned at the station’s credit limit', () => {
  it('says a note went back at the limit for a few seconds, newest of the words', () => {
    const s = {
      cashout: {
        pending: null,
        noteIn: { state: 'returned', reason: 'credit-limit', at: 2_000 },
        ticket: { state: 'printed', amount: 5_000, validation: '0'.repeat(18), at: 900 },
      },
    } as unknown as StationState;
    assert.deepEqual(ticketWords(s, 2_500), { key: 'desk.noteReturned.credit-limit', amount: 0, until: 12_000 });
    assert.equal(ticketWords(s, 12_000), null);
  });

  it('the words are in all four catalogues', () => {
    for (const l of LOCALES) {
      const desk = catalogue(l).desk ?? {};
      for (const key of ['noteReturned', 'ticketReturned'])
        assert.ok(String((desk[key] as Record<string, unknown> | undefined)?.['credit-limit'] ?? '').length > 0, `${l}: desk.${key}.credit-limit`);
    }
  });
});
