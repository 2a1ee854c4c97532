// A meter clear's journal entry says what was done by a key of the catalogues and its parameters
// (`say`, like a fault's detail and a configuration refusal), never only a sentence in English that
// the service screen sent: the event log shows it in the reader's language, the scope read as the
// table or a station, not its code.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import type { Changes } from '../../host/service/backend/changes.js';
import { eventLogReader } from '../../host/service/backend/event-log.js';
import { meters } from '../../host/service/backend/meters.js';
import { Ledger } from '../../ledger/index.js';
import { createI18n, isMessageKey } from '../../locales/i18n.js';
import { saidWords } from '../../locales/said.js';
import { journalSaid, type JournalSaidPayload } from '../../terms/said.js';

const BY: [string, string] = ['Ana Lei (1001)', 'Bo Chan (1002)'];
const changes = { changed: () => undefined, onChange: () => () => undefined } as unknown as Changes;

/** A say's words in a language; its key must be one the catalogues have. */
function wordsOf(language: string, say: JournalSaidPayload): string {
  if (!isMessageKey(say.key)) assert.fail(`no words for ${say.key}`);
  const t = createI18n(language).t;
  return saidWords((key, options) => t(key, options), { key: say.key, values: say.values });
}

/** The payload of the journal's meter clear. */
function clearOf(ledger: Ledger): { reason: string; say?: unknown } {
  const entry = ledger.entry(ledger.headOf().seq - 1);
  assert.equal(entry?.type, 'meter.clear');
  return (JSON.parse(entry.body) as { payload: { reason: string; say?: unknown } }).payload;
}

describe("a meter clear's words in the journal", () => {
  it('journals its say by key, with parameters the journal takes, and the event log passes it to the screen', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-MC' });
    const config = TableConfig.parse(simulatedTableConfig('baccarat'));
    const part = meters({ ledger, config, log: pino({ level: 'silent' }) } as never, changes);
    assert.equal(part.clear('station:2', 'DICJ-2026/7', undefined, BY).ok, true);
    const payload = clearOf(ledger);
    const say = journalSaid.parse(payload.say);
    const row = eventLogReader({ ledger })
      .list({ filter: { types: ['meter.clear'] }, offset: 0, limit: 40 })
      .entries.find((e) => e.type === 'meter.clear');
    assert.deepEqual(row?.said, say, 'the event log row carries the words by key');
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const t = createI18n(language).t;
      const words = wordsOf(language, say);
      assert.ok(words.includes(t('service.field.atStation', { station: 2 })), `${language}: ${words}`);
      assert.ok(words.includes('DICJ-2026/7'), `${language}: ${words}`);
      assert.doesNotMatch(words, /station:2|\{\{/, `${language}: ${words}`);
    }
    ledger.close();
  });

  it("says the table's scope as the table, and keeps a reason a person typed as its words", () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-MC' });
    const config = TableConfig.parse(simulatedTableConfig('baccarat'));
    const part = meters({ ledger, config, log: pino({ level: 'silent' }) } as never, changes);
    assert.equal(part.clear('table', 'DICJ-9', 'RAM clear after a board swap', BY).ok, true);
    const payload = clearOf(ledger);
    assert.equal(payload.reason, 'RAM clear after a board swap');
    const t = createI18n('zh-Hant').t;
    const words = wordsOf('zh-Hant', journalSaid.parse(payload.say));
    assert.ok(words.includes(t('service.field.atTable')), words);
    ledger.close();
  });
});
