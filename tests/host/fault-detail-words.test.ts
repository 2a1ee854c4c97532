// A fault's detail the host words itself (where a note jammed, the shoe's sequence, the disk's
// space, who closed the table…) is journalled as a `tiltDetail.*` key and its parameters (`say`)
// beside its English (`detail`, the en catalogue's: the log's and the journal's words), and service
// mode shows it in the screen's language on the Status page and in the event log. Each fault below
// is raised by the product's own source and read in zh-Hant, zh-Hans, pt and en.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tiltSaid } from '../../terms/said.js';
import { inEnglish, type Said } from '../../locales/said.js';
import { createI18n } from '../../locales/i18n.js';
import { onBillAcceptorEvent, onShoeEvent, onUpstreamSignal } from '../../host/tilts/tilt-sources.js';
import { DiskSpaceMonitor } from '../../host/tilts/disk-space.js';
import { changeSignal } from '../../host/service/backend/changes.js';
import { serviceJournal } from '../../host/service/backend/service-journal.js';
import { tableActions } from '../../host/service/backend/table-actions.js';
import { tableSummary } from '../../host/service/backend/table-summary.js';
import { eventLogReader } from '../../host/service/backend/event-log.js';
import { tiltDetailSaid } from '../../locales/said.js';
import { silent, testTable, type TestTable } from '../../host/testing/table-kit.js';
import { assertSectionEverywhere, assertWordsEverywhere, LANGUAGES, wordsIn } from './said-kit.js';

const MIB = 1024 * 1024;

/** The newest `tilt.raise` of a kind as journalled: its English detail and its key, checked against each other. */
function journalled(t: TestTable, kind: string): { detail: string; say: Said } {
  const raised = [...t.ledger.entries(1)].filter((e) => e.type === 'tilt.raise').map((e) => JSON.parse(e.body).payload as Record<string, unknown>);
  const p = raised.filter((x) => x.kind === kind).at(-1);
  assert.ok(p, `${kind} journalled`);
  const say = tiltSaid.parse(p.say) as Said;
  assert.equal(p.detail, inEnglish(say), `${kind}: the journal's English is the en catalogue's`);
  return { detail: String(p.detail), say };
}

describe("a fault's detail is said by key in every language", () => {
  it('every tiltDetail key has words in each catalogue, with the same placeholders as the source', () => {
    assertSectionEverywhere('tiltDetail');
  });

  it("the devices' faults: a jam (where, the note), the shoe's lid and alarm (its own code and text), a note refused, an unvalued credit", () => {
    const t = testTable();
    try {
      onBillAcceptorEvent(t.tilts, 2, { type: 'jam', where: 'stacker', note: { denomination: 500, currency: 'MOP', escrowId: 'e1' } as never });
      const jam = journalled(t, 'bill-jam');
      assert.equal(jam.detail, 'jam in the stacker, note 500 MOP');
      assertWordsEverywhere(jam.say, 'billJamNote');
      assert.match(wordsIn('zh-Hant', jam.say), /鈔票箱/, 'the place by its noun');
      assert.doesNotMatch(wordsIn('zh-Hant', jam.say), /stacker/);
      onBillAcceptorEvent(t.tilts, 3, { type: 'unvaluedCredit', reason: 'channel 9' });
      assertWordsEverywhere(journalled(t, 'bill-failure').say, 'unvaluedCredit');
      onShoeEvent(t.tilts, { type: 'lid', sequence: 41, open: true }, () => false);
      const lid = journalled(t, 'shoe-lid-open');
      assert.equal(lid.detail, 'shoe sequence 41');
      assertWordsEverywhere(lid.say, 'shoeSequence');
      onShoeEvent(t.tilts, { type: 'alarm', sequence: 42, code: 'E7', severity: 'warning', text: 'reader dirty' }, () => false);
      const alarm = journalled(t, 'shoe-alarm');
      assert.equal(alarm.detail, 'E7: reader dirty (shoe sequence 42)', 'the English as before');
      assertWordsEverywhere(alarm.say, 'shoeAlarm');
      assert.match(wordsIn('zh-Hant', alarm.say), /E7：reader dirty（牌靴序號 42）/, "the shoe's own words kept as it said them");
    } finally {
      t.close();
    }
  });

  it('a card hold names its round and its reason by its noun; the disk its space; service mode who closed the table; the upstream its limit', () => {
    const t = testTable();
    try {
      t.clock.runOut(t.table.reads.view().endsAt);
      t.table.shoe.onAnomaly('unreadable', null);
      const hold = journalled(t, 'card-hold');
      assert.match(hold.detail, /^round \S+: unreadable card$/);
      assertWordsEverywhere(hold.say, 'cardHold');
      assert.match(wordsIn('zh-Hant', hold.say), /無法讀取紙牌/);

      const monitor = new DiskSpaceMonitor({
        dir: t.dir,
        tilts: t.tilts,
        log: silent,
        timers: t.clock.timers,
        statfs: () => ({ free: 10 * MIB, total: 8192 * MIB }),
        everyMs: 1_000,
      });
      monitor.start();
      t.clock.advance(1_000);
      monitor.stop();
      const disk = journalled(t, 'disk-low');
      assert.match(disk.detail, /^10 MiB free of 8192 MiB under /);
      assertWordsEverywhere(disk.say, 'diskLow');

      const part = tableActions({ ...t, shoe: { simulator: () => null }, log: silent }, serviceJournal(t.ledger, changeSignal()));
      assert.equal(part.setTableOpen(false, 'Ana Lei (1001)').ok, true);
      const closed = journalled(t, 'table-closed');
      assert.equal(closed.detail, 'closed in service mode by Ana Lei (1001)');
      assertWordsEverywhere(closed.say, 'tableClosed');

      onUpstreamSignal(t.tilts, true, tiltDetailSaid('unsyncedBeyondLimit'));
      assertWordsEverywhere(journalled(t, 'upstream-offline').say, 'unsyncedBeyondLimit');
    } finally {
      t.close();
    }
  });

  it("a fault's clear says why by key too (tilt.clear's say), and the event log says who cleared it; the clear-tilt act journals codes and is done in words", () => {
    const t = testTable();
    try {
      const cleared = (kind: string) => {
        const all = [...t.ledger.entries(1)].filter((e) => e.type === 'tilt.clear').map((e) => JSON.parse(e.body).payload as Record<string, unknown>);
        const p = all.filter((x) => x.kind === kind).at(-1);
        assert.ok(p, `${kind} cleared`);
        return p;
      };
      // A card hold resolved by its round going on: cleared by itself, why by key.
      t.clock.runOut(t.table.reads.view().endsAt);
      t.table.shoe.onAnomaly('unreadable', null);
      const roundId = t.table.reads.view().roundId ?? '';
      assert.equal(t.table.supervisor.voidRound('test', ['sup-1', 'sup-2']).ok, true, roundId);
      const hold = cleared('card-hold');
      const say = tiltSaid.parse(hold.say) as Said;
      assert.equal(say.key, 'tiltDetail.holdResolved');
      assert.equal(hold.detail, inEnglish(say), "the journal's English is the en catalogue's");
      assertWordsEverywhere(say, 'holdResolved');
      // The disk's space again above the threshold: its space said as when it was raised.
      let free = 10 * MIB;
      const monitor = new DiskSpaceMonitor({
        dir: t.dir,
        tilts: t.tilts,
        log: silent,
        timers: t.clock.timers,
        statfs: () => ({ free, total: 8192 * MIB }),
        everyMs: 1_000,
      });
      monitor.start();
      t.clock.advance(1_000);
      free = 4096 * MIB;
      t.clock.advance(1_000);
      monitor.stop();
      assert.equal(tiltSaid.parse(cleared('disk-low').say).key, 'tiltDetail.diskLow');
      // A person clears a jam: the act's journal detail by key (the fault's code and its station, which the event log words), its done notice the fault's words.
      const journal = serviceJournal(t.ledger, changeSignal());
      const part = tableActions({ ...t, shoe: { simulator: () => null }, log: silent }, journal);
      onBillAcceptorEvent(t.tilts, 2, { type: 'jam', where: 'stacker' });
      onBillAcceptorEvent(t.tilts, 2, { type: 'faultCleared' });
      const r = part.clearTilt('bill-jam', 2, 'tech-1', 'technician');
      assert.ok(r.ok && r.key === 'service.done.clearTilt', JSON.stringify(r));
      const act = [...t.ledger.entries(1)].filter((e) => e.type === 'service.action').map((e) => JSON.parse(e.body).payload as Record<string, unknown>);
      const clear = act.find((p) => p.action === 'clear-tilt');
      assert.deepEqual(
        clear?.say,
        { key: 'journalSaid.actClearTiltAt', values: { fault: 'bill-jam', station: 2 } },
        'the detail by key, the fault by its code',
      );
      assert.equal(clear?.detail, `${createI18n('en').t('tilt.bill-jam')} · station 2`, 'its English the record');
      for (const language of LANGUAGES) {
        const words = wordsIn(language, { key: r.key, values: r.values ?? {} } as Said);
        assert.ok(words.includes(createI18n(language).t('tilt.bill-jam')), `${language}: ${words}`);
        assert.doesNotMatch(words, /bill-jam/, `${language}: the fault by its words, not its code`);
      }
      const log = eventLogReader(t).list({ filter: { types: ['tilt.clear'] }, offset: 0, limit: 40 });
      assert.deepEqual(log.entries[0]?.fault, { kind: 'bill-jam', station: 2, cleared: { by: 'tech-1' } });
      assert.deepEqual(
        log.entries.find((e) => e.fault?.kind === 'card-hold')?.fault,
        { kind: 'card-hold', detail: { key: 'tiltDetail.holdResolved', values: {} }, cleared: {} },
        'cleared by itself, why by key',
      );
    } finally {
      t.close();
    }
  });

  it('reaches the Status page and the event log as its key, and outlives a restart', () => {
    const first = testTable();
    onBillAcceptorEvent(first.tilts, 2, { type: 'jam', where: 'acceptor' });
    onBillAcceptorEvent(first.tilts, 5, { type: 'disconnected', reason: 'no answer to 3 polls' });
    first.stop();
    const t = testTable({ dir: first.dir });
    try {
      const rows = tableSummary(t).tilts();
      const jam = rows?.find((r) => r.kind === 'bill-jam');
      assert.deepEqual(jam?.detail, { key: 'tiltDetail.billJam', values: { where: 'acceptor' } }, 'restored from the journal with its key');
      // A device's own words (its reason) are not sent as a detail: the journal and the log keep them.
      assert.equal(rows?.find((r) => r.kind === 'bill-acceptor-lost')?.detail, undefined);
      const log = eventLogReader(t).list({ filter: {}, offset: 0, limit: 40 });
      const entry = log.entries.find((e) => e.fault?.kind === 'bill-jam');
      assert.deepEqual(entry?.fault, { kind: 'bill-jam', station: 2, detail: { key: 'tiltDetail.billJam', values: { where: 'acceptor' } } });
      assert.deepEqual(
        log.entries.find((e) => e.fault?.kind === 'bill-acceptor-lost')?.fault,
        { kind: 'bill-acceptor-lost', station: 5 },
        'a fault without a worded detail: its kind and station',
      );
      for (const language of LANGUAGES) {
        const words = wordsIn(language, { key: 'tiltDetail.billJam', values: { where: 'acceptor' } } as Said);
        assert.ok(words.includes(createI18n(language).t('jamPlace.acceptor')), `${language}: ${words}`);
      }
    } finally {
      t.close();
    }
  });
});
