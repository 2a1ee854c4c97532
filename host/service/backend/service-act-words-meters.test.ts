// A meter clear and a program hash computed on demand journalled their service act's detail as
// English built in code ('station:2 (DICJ-9): Meters of station 2 cleared in service mode, …',
// 'ab12… over 3 files (packaged); differs from the start in 1: main.js'): the event log showed it
// in every language, labelled as recorded. Each journals it by key (`say`, journalSaid.act*), which
// the log says in the reader's language; the English stays the record's detail.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { Ledger } from '../../../ledger/ledger.js';
import { createI18n } from '../../../locales/i18n.js';
import { saidWords } from '../../../locales/said.js';
import { programManifest, type ProgramLayout } from '../program-hash.js';
import type { Changes } from './changes.js';
import { eventLogReader } from './event-log.js';
import { meters } from './meters.js';
import { namesWithin, programCheck } from './program-check.js';
import { serviceJournal } from './service-journal.js';

const words = (language: string, s: { key: string; values: Record<string, string | number> }) => {
  const t = createI18n(language).t;
  return saidWords((key, options) => t(key, options) as string, s as never);
};
const changes = { changed: () => undefined, onChange: () => () => undefined } as unknown as Changes;
const log = pino({ level: 'silent' });
const dir = mkdtempSync(path.join(os.tmpdir(), 'act-words-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The event log's words of each `service.action` the ledger holds, in journal order. */
function actsSaid(ledger: Ledger) {
  const rows = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
  return rows
    .filter((r) => r.type === 'service.action')
    .sort((a, b) => a.seq - b.seq)
    .map((r) => {
      assert.ok(r.said, `seq ${r.seq} said`);
      const body = JSON.parse(ledger.entry(r.seq)?.body ?? '{}') as { payload: { detail: string } };
      return { ...r.said, detail: body.payload.detail };
    });
}

/** Said by key in every language: no English of the host's, no key, nothing labelled as recorded. */
function inEveryLanguage(s: { key: string; values: Record<string, string | number> }, english: RegExp): void {
  assert.match(s.key, /^journalSaid\.serviceAct(Two)?Said$/, JSON.stringify(s));
  const en = words('en', s);
  assert.doesNotMatch(en, /as recorded|\{\{/, en);
  for (const l of ['pt', 'zh-Hant', 'zh-Hans']) {
    const w = words(l, s);
    assert.doesNotMatch(w, /\{\{|journalSaid|act[A-Z]|station:|cleared|over \d|files|differs|from the start/, `${l}: ${w}`);
    assert.doesNotMatch(w, english, `${l}: ${w}`);
    assert.notEqual(w, en);
  }
}

describe("a meter clear's and a program hash's service act are said by key in the reader's language", () => {
  it("a meter clear, with and without a person's reason: the scope by its words, the authorisation, the reason as given", () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const part = meters({ ledger, config: { currency: 'MOP', stations: [{ station: 2 }] }, stadium: null, log } as never, changes);
    assert.equal(part.clear('station:2', 'DICJ-9', undefined, ['Ana', 'Bo']).ok, true);
    assert.equal(part.clear('table', 'DICJ-10', 'contadores avariados', ['Ana', 'Bo']).ok, true);
    const [plain, why] = actsSaid(ledger);
    assert.ok(plain && why);
    inEveryLanguage(plain, /Meters of/);
    inEveryLanguage(why, /Meters of/);
    assert.match(words('pt', plain), /^Ana, segunda pessoa Bo · contadores repostos · Posto 2 · autorização DICJ-9$/);
    assert.equal(plain.detail, 'Station 2 · authorisation DICJ-9', "the record's English");
    assert.match(words('zh-Hant', why), /^Ana，第二人 Bo · 計數器已清零 · .+ · 批准編號 DICJ-10 · 原因：contadores avariados$/);
    ledger.close();
  });

  it('a program hash, the same as at the start and then differing in a file: the hash, the files, the changed ones', async () => {
    writeFileSync(path.join(dir, 'main.js'), 'start');
    const layout: ProgramLayout = { mode: 'packaged', root: dir, parts: ['.'], packages: [] };
    const atStart = await programManifest(layout);
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const part = programCheck({ program: { layout, atStart }, log }, () => Date.parse('2026-12-07T07:00:00Z'), serviceJournal(ledger, changes), changes);
    assert.equal((await part.computeProgramHash('Tam')).ok, true);
    writeFileSync(path.join(dir, 'main.js'), 'changed since the start');
    writeFileSync(path.join(dir, 'extra.js'), 'added');
    assert.equal((await part.computeProgramHash('Tam')).ok, true);
    const [same, differs] = actsSaid(ledger);
    assert.ok(same && differs);
    inEveryLanguage(same, /over 1 files/);
    inEveryLanguage(differs, /over 2 files/);
    const hash = atStart.hash;
    assert.equal(words('zh-Hans', same), `Tam · 已计算程序哈希值 · ${hash} · 文件：1 个（packaged）`);
    assert.match(
      words('pt', differs),
      /^Tam · hash do programa calculado · [0-9a-f]{64} · ficheiros: 2 \(packaged\) · diferentes desde o arranque \(2\): main\.js, \+extra\.js$/,
    );
    assert.match(differs.detail, /^[0-9a-f]{64} · files: 2 \(packaged\) · differing from the start \(2\): main\.js, \+extra\.js$/, "the record's English");
    ledger.close();
  });

  it('the changed files said within the bound of a parameter: whole names, then an ellipsis', () => {
    assert.equal(namesWithin(['a.js', 'b.js'], 20), 'a.js, b.js');
    assert.equal(namesWithin(['a.js', 'b.js', 'c.js'], 10), 'a.js, b.js, …');
    assert.equal(namesWithin(['a-very-long-name.js'], 6), 'a-very…');
  });
});
