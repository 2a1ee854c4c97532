import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verifyLedger } from '../../ledger/index.js';
import { tamperJournalBody } from '../../ledger/testing/tamper.js';
import { credit, testTable, submitted } from '../testing/table-kit.js';
import { onBillAcceptorEvent, onShoeEvent, onUpstreamSignal } from './tilt-sources.js';
import { TILT_KINDS } from './tilt-kinds.js';
import { catalogues, wordAt } from '../../locales/index.js';

const types = (t: ReturnType<typeof testTable>) => [...t.ledger.entries(1)].map((e) => e.type).filter((x) => x.startsWith('tilt.'));
const place = (t: ReturnType<typeof testTable>, station: number, amount = 10_000) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot: { bet: 'main' }, amount }));

describe('tilt manager', () => {
  it('words every fault in every locale', () => {
    for (const lang of ['zh-Hant', 'pt', 'en'] as const) {
      for (const kind of TILT_KINDS) assert.ok(wordAt(catalogues[lang], `tilt.${kind}`), `${lang} tilt.${kind}`);
    }
  });

  it('journals a fault once, shows it to the table and to its own station only, and disables that station', () => {
    const t = testTable();
    try {
      credit(t.ledger, 2, 50_000);
      credit(t.ledger, 3, 50_000);
      onBillAcceptorEvent(t.tilts, 2, { type: 'jam', where: 'acceptor' });
      onBillAcceptorEvent(t.tilts, 2, { type: 'jam', where: 'acceptor' });
      assert.deepEqual(types(t), ['tilt.raise'], 'a repeat of the same fault is not journalled again');
      const s2 = t.hub.state('station/2');
      const s3 = t.hub.state('station/3');
      const table = t.hub.state('table');
      assert.ok(s2.kind === 'station' && s3.kind === 'station' && table.kind === 'table');
      assert.deepEqual(
        s2.tilts?.map((n) => [n.kind, n.disables, n.station]),
        [['bill-jam', 'station', 2]],
      );
      assert.deepEqual(s3.tilts, [], 'another station never sees it');
      assert.deepEqual(table.tilts, [], 'the table display shows table faults only');
      assert.equal(s2.betting.open, false);
      assert.equal(s3.betting.open, true);
      const r = place(t, 2);
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.error.refusal, 'station-disabled');
      assert.equal(place(t, 3).ok, true, 'the other stations play on');
      assert.deepEqual([...t.acceptorEnabled], [[2, false]], "only the jammed station's acceptor is inhibited");
      onBillAcceptorEvent(t.tilts, 2, { type: 'faultCleared' });
      assert.equal(t.tilts.clear('bill-jam', 2, { user: 'att-1', role: 'attendant' }).ok, true);
      assert.deepEqual([...t.acceptorEnabled], [[2, true]], 'accepting again once cleared');
    } finally {
      t.close();
    }
  });

  it('lets a person clear a fault only with the right role and once the device is fixed; journals who', () => {
    const t = testTable();
    try {
      onBillAcceptorEvent(t.tilts, 1, { type: 'jam', where: 'stacker' });
      const attendant = { user: 'att-7', role: 'attendant' as const };
      assert.match(JSON.stringify(t.tilts.clear('bill-jam', 1, attendant)), /still holds/);
      onBillAcceptorEvent(t.tilts, 1, { type: 'faultCleared' });
      assert.equal(t.tilts.list()[0]?.clearable, true);
      assert.match(JSON.stringify(t.tilts.clear('bill-jam', 1, { user: 'aud-1', role: 'auditor' })), /may not clear/);
      // The log's English names the fault by its words; its code is the refusal's parameter.
      const none = t.tilts.clear('bill-jam', 2, attendant);
      assert.deepEqual(none, {
        ok: false,
        reason: 'no current fault "Bill jam: an attendant is on the way" at station 2',
        say: { key: 'serviceRefusal.tiltNotCurrentAt', values: { fault: 'bill-jam', station: 2 } },
      });
      assert.deepEqual(t.tilts.clear('bill-jam', 1, attendant), { ok: true });
      assert.deepEqual(t.tilts.list(), []);
      const cleared = [...t.ledger.entries(1)].find((e) => e.type === 'tilt.clear');
      const body = JSON.parse(cleared?.body ?? '{}') as { payload: Record<string, unknown> };
      const raised = [...t.ledger.entries(1)].find((e) => e.type === 'tilt.raise');
      assert.deepEqual(body.payload, { kind: 'bill-jam', station: 1, raisedSeq: raised?.seq, automatic: false, by: 'att-7', role: 'attendant' });

      onBillAcceptorEvent(t.tilts, 1, { type: 'cheated' });
      assert.match(JSON.stringify(t.tilts.clear('bill-cheat', 1, attendant)), /needs a supervisor/);
      assert.deepEqual(
        t.tilts.clear('bill-cheat', 1, { user: 'sup-1', role: 'supervisor' }),
        { ok: true },
        'a cheat is latched: cleared at once by a supervisor',
      );
    } finally {
      t.close();
    }
  });

  it('clears an automatic fault when its condition goes, and refuses a person clearing it', () => {
    const t = testTable();
    try {
      onShoeEvent(t.tilts, { type: 'disconnected', reason: 'cable' }, () => false);
      assert.match(JSON.stringify(t.tilts.clear('shoe-lost', undefined, { user: 'sup', role: 'supervisor' })), /clears by itself/);
      const r = place(t, 1);
      assert.equal(!r.ok && r.error.refusal, 'bets-paused');
      onShoeEvent(t.tilts, { type: 'reconnected' }, () => false);
      assert.deepEqual(t.tilts.list(), []);
      assert.deepEqual(types(t), ['tilt.raise', 'tilt.clear']);
      assert.equal(JSON.parse([...t.ledger.entries(1)].filter((e) => e.type === 'tilt.clear').at(-1)?.body ?? '{}').payload.automatic, true);
    } finally {
      t.close();
    }
  });

  it('does not count an open lid while the table asks for a new shoe', () => {
    const t = testTable();
    try {
      onShoeEvent(t.tilts, { type: 'lid', sequence: 4, open: true }, () => true);
      assert.deepEqual(t.tilts.list(), []);
      onShoeEvent(t.tilts, { type: 'lid', sequence: 5, open: true }, () => false);
      assert.deepEqual(
        t.tilts.list().map((x) => x.kind),
        ['shoe-lid-open'],
      );
    } finally {
      t.close();
    }
  });

  it('stops new bets while offline beyond the limit with the offline reason, and takes them again after', () => {
    const t = testTable();
    try {
      credit(t.ledger, 1, 50_000);
      onUpstreamSignal(t.tilts, true);
      const r = place(t, 1);
      assert.equal(!r.ok && r.error.refusal, 'bets-stopped');
      onUpstreamSignal(t.tilts, false);
      assert.equal(place(t, 1).ok, true);
    } finally {
      t.close();
    }
  });

  it('halts the whole table on a shoe alarm: no bets, the countdown stops, a card drawn anyway is a hold', () => {
    const t = testTable();
    try {
      credit(t.ledger, 1, 50_000);
      assert.equal(place(t, 1).ok, true);
      onShoeEvent(t.tilts, { type: 'alarm', sequence: 9, code: 'TAMPER', severity: 'critical', text: 'lid forced' }, () => false);
      assert.equal(t.table.reads.view().endsAt, null, 'the betting countdown stopped');
      assert.deepEqual(t.table.reads.station(1).betting.bets, [], 'chips not yet in play came off the spots');
      const r = place(t, 1);
      assert.equal(!r.ok && r.error.refusal, 'table-halted');
      assert.deepEqual(t.tilts.clear('shoe-alarm', undefined, { user: 'sup-1', role: 'supervisor' }), { ok: true });
      assert.notEqual(t.table.reads.view().endsAt, null, 'the betting window runs again');
      assert.equal(place(t, 1).ok, true);
    } finally {
      t.close();
    }
  });

  it('raises a card hold with the rounds and clears it when the round is voided', () => {
    const t = testTable();
    try {
      credit(t.ledger, 1, 50_000);
      assert.equal(place(t, 1).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      t.table.shoe.onAnomaly('unreadable', null);
      assert.deepEqual(
        t.tilts.list().map((x) => [x.kind, x.clears, x.disables]),
        [['card-hold', 'resolution', 'table']],
      );
      assert.match(JSON.stringify(t.tilts.clear('card-hold', undefined, { user: 'sup', role: 'supervisor' })), /clears when the hold is resolved/);
      assert.deepEqual(t.table.supervisor.voidRound('unreadable card', ['sup-1', 'wit-2']), { ok: true });
      assert.deepEqual(t.tilts.list(), []);
    } finally {
      t.close();
    }
  });

  it('halts the table when the ledger fails its verification on demand, until a supervisor clears it', () => {
    const t = testTable();
    try {
      credit(t.ledger, 1, 50_000);
      assert.equal(t.floor.verifyLedger().ok, true);
      assert.deepEqual(t.tilts.list(), []);
      const note = [...t.ledger.entries(1)].find((e) => e.type === 'bill.credit');
      tamperJournalBody(t.ledger, note?.seq ?? 0, '"denomination":50000', '"denomination":90000');
      assert.equal(t.floor.verifyLedger().ok, false);
      assert.deepEqual(
        t.tilts.list().map((x) => [x.kind, x.disables, x.clears]),
        [['ledger-integrity', 'table', 'supervisor']],
      );
      assert.match(t.tilts.list()[0]?.detail ?? '', /seq \d+: content hash/);
      const r = place(t, 1);
      assert.equal(!r.ok && r.error.refusal, 'table-halted');
    } finally {
      t.close();
    }
  });

  it('rebuilds the current faults from the journal after a restart, and the ledger verifies with them', () => {
    const first = testTable();
    onBillAcceptorEvent(first.tilts, 4, { type: 'stackerRemoved' });
    onBillAcceptorEvent(first.tilts, 5, { type: 'jam', where: 'acceptor' });
    onBillAcceptorEvent(first.tilts, 5, { type: 'faultCleared' });
    assert.deepEqual(first.tilts.clear('bill-jam', 5, { user: 'att', role: 'attendant' }), { ok: true });
    onShoeEvent(first.tilts, { type: 'alarm', sequence: 3, code: 'X', severity: 'warning', text: 'reader dirty' }, () => false);
    first.stop();
    const again = testTable({ dir: first.dir });
    try {
      assert.deepEqual(
        again.tilts.list().map((x) => [x.kind, x.station ?? null]),
        [
          ['stacker-removed', 4],
          ['shoe-alarm', null],
        ],
      );
      assert.equal(again.table.reads.station(1).betting.open, false, 'the halt is in force again');
      const s4 = again.hub.state('station/4');
      assert.ok(s4.kind === 'station' && s4.tilts?.some((n) => n.kind === 'stacker-removed'));
      const report = verifyLedger(again.ledger);
      assert.deepEqual(report.problems, []);
      assert.equal(report.ok, true);
    } finally {
      again.close();
    }
  });
});
