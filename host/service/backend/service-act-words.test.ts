// A service act's detail was English built in code ('round R-1: card unidentified', 'station 2:
// ticket …1234 void (5000)') and the event log showed it in every language, labelled as recorded.
// The act journals it as a key and its parameters (`say`, as a meter clear does): the log says it
// in the reader's language. An older act without one still shows its English, labelled as recorded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ledger } from '../../../ledger/ledger.js';
import { createI18n } from '../../../locales/i18n.js';
import { saidWords } from '../../../locales/said.js';
import { eventLogReader } from './event-log.js';
import { actDetailSaid, serviceActionEntry } from './service-journal.js';

const words = (language: string, s: { key: string; values: Record<string, string | number> }) => {
  const t = createI18n(language).t;
  return saidWords((key, options) => t(key, options) as string, s as never);
};

describe("a service act's detail is said by key in the reader's language", () => {
  it('an act with its say: the log says who, the second person, the act and its detail in words; its English stays as the record', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const acts = [
      serviceActionEntry(
        ['Ana', 'Bo'],
        'void-round',
        actDetailSaid('actVoidRoundWhy', { round: 'R-1', uncorrectable: 'card-unidentified', reason: 'torn card' }),
      ),
      serviceActionEntry(['Ana', 'Bo'], 'ticket-settle', actDetailSaid('actTicketVoid', { station: 2, ticket: '…1234', amount: 5_000, currency: 'MOP' })),
      serviceActionEntry(['Ana'], 'dealing-error', actDetailSaid('actRound', { round: 'R-2' })),
    ];
    const english = acts.map((a) => (a.payload as { detail: string }).detail);
    assert.doesNotMatch(english.join(' '), /\{\{|journalSaid/, 'the record keeps the English words');
    const seqs = acts.map((a) => ledger.append(a).entry.seq);
    const rows = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
    const said = seqs.map((seq) => rows.find((r) => r.seq === seq)?.said);
    assert.deepEqual(
      said.map((s) => s?.key),
      ['journalSaid.serviceActTwoSaid', 'journalSaid.serviceActTwoSaid', 'journalSaid.serviceActSaid'],
    );
    for (const s of said) {
      assert.ok(s);
      const en = words('en', s);
      assert.doesNotMatch(en, /as recorded|\{\{/, en);
      for (const l of ['pt', 'zh-Hant', 'zh-Hans']) {
        const w = words(l, s);
        assert.doesNotMatch(w, /\{\{|actVoid|actTicket|actRound|card-unidentified|voided|round R/, `${l}: ${w}`);
        assert.notEqual(w, en);
      }
    }
    ledger.close();
  });

  it('an older act without one still shows its English, labelled as recorded', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const seq = ledger.append({ type: 'service.action', payload: { who: 'Ana', action: 'void-round', confirmedBy: 'Bo', detail: 'round R-1: torn' } }).entry
      .seq;
    const row = eventLogReader({ ledger })
      .list({ filter: {}, offset: 0, limit: 40 })
      .entries.find((r) => r.seq === seq);
    assert.equal(row?.said?.key, 'journalSaid.serviceActTwoDetail');
    assert.match(words('pt', row.said), /tal como registado: round R-1: torn/);
    ledger.close();
  });
});
