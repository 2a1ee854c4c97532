// A printer's fault as a technician reads it: its detail said by a `tiltDetail.*` key, in the
// reader's language (service mode's fault list shows a detail only by key: a device's English
// text stays in the journal and the log). Before, `printer-fault` named its faults as codes
// (`platen-up, cutter-error`), `printer-misbehaved` said what the printer did in English (and a
// repeated print named the ticket's whole validation number), and neither reached the screen.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { printerCondition } from '../../hardware/printer/test-condition.js';
import { createI18n } from '../../locales/i18n.js';
import { saidWords, type Said } from '../../locales/said.js';
import { printerTilts } from '../testing/printer-tilts.js';

function rig() {
  const r = printerTilts({ terminalId: 'T-PW', paperBackMs: 50 });
  return { emit: r.emit, raised: (kind: string) => r.journalled('tilt.raise').filter((t) => t.kind === kind), close: r.close };
}

function words(language: Language, say: Said | undefined): string {
  assert.ok(say, 'the detail is said by key');
  assert.match(say.key, /^tiltDetail\./);
  const t = createI18n(language).t;
  return saidWords((key, options) => t(key, options) as string, say);
}

const languages = ['en', 'pt', 'zh-Hant', 'zh-Hans'] as const;
type Language = (typeof languages)[number];

/** The codes the printer's events carry, which no reader should see. */
const CODE = /platen-up|cutter-error|data-error|unsolicited-print|repeated-print|layout-refused|reset-held-jobs|reset-unreported/;

describe("a printer's fault is said by key, in the reader's language", () => {
  it('printer-fault names each fault by its words, never its code', async () => {
    const r = rig();
    try {
      r.emit({ type: 'condition', condition: printerCondition({ faults: ['platen-up', 'cutter-error'] }) });
      const [f] = r.raised('printer-fault');
      assert.ok(f, 'raised');
      assert.match(words('en', f.say), /print head open/);
      assert.match(words('en', f.say), /cutter fault/);
      for (const l of languages) assert.doesNotMatch(words(l, f.say), CODE, `${l}: ${words(l, f.say)}`);
      assert.match(words('zh-Hant', f.say), /打印頭已打開/);
    } finally {
      await r.close();
    }
  });

  it('printer-misbehaved: a refused layout, a reset for held jobs, a reset never reported, an unsolicited or a repeated print', async () => {
    const events = [
      { type: 'failure', reason: 'the printer refused the ticket layout (data-error)', failure: { code: 'layout-refused', faults: ['data-error'] } },
      { type: 'failure', reason: 'tickets on templates A, B were never confirmed printed: the printer was reset', failure: { code: 'reset-held-jobs' } },
      { type: 'failure', reason: 'the printer did not report the reset sent at start, twice', failure: { code: 'reset-unreported' } },
      { type: 'protocolViolation', rule: 'unsolicited-print', report: 'print cycle with no job (busy true, validation done false, template B)' },
      { type: 'protocolViolation', rule: 'repeated-print', report: 'more than one print cycle for 000424200000001234' },
    ] as const;
    const said = new Set<string>();
    for (const e of events) {
      const r = rig();
      try {
        r.emit(e);
        const [f] = r.raised('printer-misbehaved');
        assert.ok(f, JSON.stringify(e));
        for (const l of languages) assert.doesNotMatch(words(l, f.say), CODE, `${l}: ${words(l, f.say)}`);
        assert.doesNotMatch(JSON.stringify(f), /000424200000001234/, 'the whole validation number is for no screen');
        said.add(f.say?.key ?? '');
      } finally {
        await r.close();
      }
    }
    assert.equal(said.size, events.length, 'each misbehaviour its own words');
  });

  it("printer-offline says by key that the printer stopped answering, never the link's English (a review of 6 December)", async () => {
    const r = rig();
    try {
      r.emit({ type: 'disconnected', reason: 'TCL: no status reply after 3 requests' });
      const [f] = r.raised('printer-offline');
      assert.ok(f, 'raised');
      assert.equal(f.say?.key, 'tiltDetail.printerOffline');
      for (const l of languages) assert.doesNotMatch(words(l, f.say), /TCL|status reply/, `${l}: ${words(l, f.say)}`);
      assert.match(words('zh-Hant', f.say), /打印機/);
    } finally {
      await r.close();
    }
  });
});
