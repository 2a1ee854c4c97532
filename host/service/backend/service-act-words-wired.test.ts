// A note held settled by hand, a handpay confirmed, a fault cleared, a new shoe declared and a jackpot level reset
// journalled their detail as English built in code ('station 2: note of escrow 41 stacked (10000
// MOP)', 'station 3: 50000 (H-1)', 'table-closed station=2', 'declared', 'major → 100000 (DICJ-1)'): the event log showed it in every
// language, labelled as recorded. Each journals it by key (`say`, journalSaid.act*), which the log
// says in the reader's language; the English stays as the record's detail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ledger } from '../../../ledger/ledger.js';
import type { NewEntry } from '../../../ledger/index.js';
import { createI18n } from '../../../locales/i18n.js';
import { saidWords } from '../../../locales/said.js';
import type { Changes } from './changes.js';
import { devices } from './devices.js';
import { enrolment } from './enrolment.js';
import { eventLogReader } from './event-log.js';
import { handpays } from './handpays.js';
import { peerActions } from './peers.js';
import { jackpot } from './jackpot.js';
import { serviceActionEntry, type ServiceJournal } from './service-journal.js';
import { tableActions } from './table-actions.js';

const words = (language: string, s: { key: string; values: Record<string, string | number> }) => {
  const t = createI18n(language).t;
  return saidWords((key, options) => t(key, options) as string, s as never);
};
const changes = { changed: () => undefined } as unknown as Changes;

/** The service acts the backends hand their floor to write, each kept. */
function acts(): NewEntry[] {
  const kept: NewEntry[] = [];
  const notes = {
    settleByHand: (_n: unknown, _o: unknown, _by: unknown, record: (s: { station: number; amount: number; currency: string }) => NewEntry) => {
      kept.push(record({ station: 2, amount: 10_000, currency: 'MOP' }));
      return { ok: true, station: 2, amount: 10_000, currency: 'MOP' };
    },
  };
  const dev = devices({ billAcceptors: { notes } } as never, { shoeIdentity: () => null } as never, {} as never, changes);
  assert.equal(dev.settleNote({ station: 2, seq: 41 }, 'stacked', ['Ana', 'Bo']).ok, true);
  assert.equal(dev.settleNote({ station: 2, seq: 42 }, 'returned', ['Ana', 'Bo']).ok, true);
  const floor = {
    handpays: {
      pending: () => [{ requestTxId: 'H-1', seq: 9, ts: '', station: 3, amount: 50_000, type: 'handpay.request', needsWitness: true }],
      confirm: (_id: string, _a: string, _w: string | undefined, also: NewEntry[]) => (kept.push(...also), { ok: true }),
    },
    tilts: { clear: (_k: string, _s: number | undefined, _by: unknown, also: NewEntry[]) => (kept.push(...also), { ok: true }) },
  };
  const hp = handpays({ floor, ledger: {}, config: { currency: 'MOP' } } as never, changes);
  assert.equal(hp.confirmHandpay(3, 'H-1', ['Ana', 'Bo']).ok, true);
  const table = {
    reads: { view: () => ({ phase: 'betting' }) },
    game: { rules: { limitRules: {} } },
    state: { chips: [] },
    shoe: { onNewShoe: (_s: unknown, also: NewEntry[]) => (kept.push(...also), { ok: true }) },
  };
  const ta = tableActions({ table, floor, shoe: { simulator: () => null }, log: { error: () => undefined } } as never, {} as never);
  assert.equal(ta.clearTilt('table-closed', 2, 'Ana', 'supervisor').ok, true);
  assert.equal(ta.clearTilt('shoe-lid-open', undefined, 'Ana', 'supervisor').ok, true);
  assert.equal(ta.newShoe('Ana').ok, true);
  const pools = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
  const jp = jackpot(
    { ledger: pools, table: { input: (_s: unknown, also: NewEntry[]) => (kept.push(...also), { ok: true }) }, config: { currency: 'MOP' } } as never,
    changes,
  );
  assert.equal(jp.reset('major', 100_000, 'DICJ-2026/7', ['Ana', 'Bo']).ok, true);
  pools.close();
  return kept;
}

describe("the service acts' details are said by key in the reader's language", () => {
  it('a note settled, a handpay confirmed, a fault cleared, a new shoe declared, a jackpot level reset: the log says each by its key, in pt and zh-Hant', () => {
    const entries = acts();
    assert.equal(entries.length, 7);
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const seqs = entries.map((a) => ledger.append(a).entry.seq);
    const rows = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
    const said = seqs.map((seq) => rows.find((r) => r.seq === seq)?.said);
    for (const s of said) {
      assert.ok(s);
      assert.match(s.key, /^journalSaid\.serviceAct(Two)?Said$/, JSON.stringify(s));
      const en = words('en', s);
      assert.doesNotMatch(en, /as recorded|\{\{/, en);
      for (const l of ['pt', 'zh-Hant', 'zh-Hans']) {
        const w = words(l, s);
        assert.doesNotMatch(w, /\{\{|journalSaid|act[A-Z]|station=|escrow|declared|stacked|returned|table-closed|shoe-lid-open/, `${l}: ${w}`);
        assert.notEqual(w, en);
      }
    }
    const [stacked, , handpay, cleared, , shoe, reset] = said.map((s) => (s ? words('pt', s) : ''));
    assert.match(stacked ?? '', /posto 2 · nota retida \(registo 41\) recolhida na caixa de notas/, stacked);
    assert.match(handpay ?? '', /posto 3 .*H-1/, handpay);
    assert.match(cleared ?? '', /posto 2/, cleared);
    assert.match(words('zh-Hant', said[5] ?? { key: '', values: {} }), /人手/, shoe);
    assert.match(reset ?? '', /nível major → 1000\sMOP\$ · autorização DICJ-2026\/7/, reset);
    ledger.close();
  });

  it("a station's credential revoked, its enrolment file and a peer's refused: said by key in pt and zh-Hant, not the host's English", () => {
    const kept: NewEntry[] = [];
    const journal: ServiceJournal = { action: (by, action, detail) => void kept.push(serviceActionEntry(by, action, detail)), test: () => undefined };
    const log = { warn: () => undefined, info: () => undefined, error: () => undefined };
    const part = enrolment({ stadium: { revoke: () => true }, log } as never, () => 0, journal, changes);
    assert.equal(part.revoke(5, ['Ana', 'Bo']).ok, true);
    assert.equal(part.takeEnrolment(5, { who: 'Ana', enterSeq: 3 }), null);
    part.dispose();
    const peer = peerActions({ peers: null, log } as never, () => 0, journal, changes);
    assert.equal(peer.takeFile('T-9', { who: 'Ana', enterSeq: 3 }), null);
    peer.dispose();
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const seqs = kept.map((a) => ledger.append(a).entry.seq);
    const rows = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
    const said = seqs.map((seq) => rows.find((r) => r.seq === seq)?.said);
    assert.deepEqual(
      said.map((s) => s?.key),
      ['journalSaid.serviceActTwoSaid', 'journalSaid.serviceActSaid', 'journalSaid.serviceActSaid'],
    );
    assert.match(words('zh-Hant', said[2] ?? { key: '', values: {} }), /同桌 T-9 · 沒有待下載的登記檔案.*維修時段 3$/);
    const [revoked, refused] = said.map((s) => (s ? words('zh-Hant', s) : ''));
    assert.match(revoked ?? '', /投注機 5$/, revoked);
    assert.match(refused ?? '', /投注機 5 · 沒有待下載的登記檔案.*維修時段 3$/, refused);
    assert.match(words('pt', said[1] ?? { key: '', values: {} }), /terminal remoto 5 · nenhum ficheiro de registo à espera .* sessão 3$/);
    // A remote station revoked is a «terminal remoto» in pt, as its enrolment (docs/terms-for-review.md).
    assert.match(words('pt', said[0] ?? { key: '', values: {} }), /terminal remoto 5$/);
    ledger.close();
  });
});
