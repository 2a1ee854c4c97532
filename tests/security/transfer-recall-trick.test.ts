// Issue 50 item 7, "A lying peer hides minted credit from the upstream": with only its peer
// credential, a table host offered credit for its own station to a victim table (never journalled
// at the sender: the victim credits it, and the upstream normally alarms it as `taken-not-sent`),
// then sent a *recall* of the same id to a third, honest table, which journalled `transfer.refuse`.
// The reconciliation took that refusal from a table that was not the transfer's receiver and let it
// overwrite the victim's `taken` (the upstream reads rows by terminal id, and the honest table's
// id sorts after the victim's): the id was named nowhere. And the victim's own `transfer.alarm`
// entries (a refused lie) never reached the upstream. Here three live transfer hosts (the liar
// bj-1, the victim bac-1, the honest war-1) over their real journals, synced to an upstream.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LedgerTransferJournal } from '../../host/transfers/ledger-journal.js';
import { TransferHost } from '../../host/transfers/transfer-host.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger, type EntryBody } from '../../ledger/index.js';
import { awaitedSide, reconcile, type PairedTransfer } from '../../terms/transfer-reconcile.js';
import { isTransferEntryType, parseTransferEntry, TableId, type Transfer, type TransferEntry } from '../../terms/transfer-terms.js';
import { alarms, enrolTerminal, ingest, type Db } from '../../upstream/index.js';
import { openDatabase } from '../sync/upstream-databases.js';
import { reconcileTransfers } from '../../upstream/transfers.js';
import { backofficeKit } from './backoffice-kit.js';
import { lyingTable, type LyingEntry } from './lying-journal-kit.js';

const LIAR = TableId.parse('bj-1');
const VICTIM = TableId.parse('bac-1');
const HONEST = TableId.parse('war-1');
const STATION = 101;
const MINTED: Transfer = { id: { origin: LIAR, serial: 7 }, currency: 'MOP', station: STATION, from: LIAR, to: VICTIM, amount: 2_000_000 };

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
}

/** The pairing of every id, in each order the three journals can be given in: the same in all six. */
function inEveryOrder(journals: readonly [TableId, TransferEntry[]][]): PairedTransfer[] {
  const results = permutations(journals).map((order) => reconcile(new Map(order)));
  const [first, ...rest] = results;
  assert.ok(first);
  const key = (ps: PairedTransfer[]) => JSON.stringify([...ps].sort((a, b) => a.id.serial - b.id.serial));
  for (const r of rest) assert.equal(key(r), key(first), 'the order the journals come in changes nothing');
  return first;
}

describe('transfers reconciled by who may say what (issue 50 item 7)', () => {
  const out = (t: Transfer): TransferEntry => ({ type: 'transfer.out', payload: { transfer: t } });
  const taken = (t: Transfer): TransferEntry => ({ type: 'transfer.in', payload: { transfer: t } });
  const refused = (t: Transfer): TransferEntry => ({ type: 'transfer.refuse', payload: { id: t.id, reason: 'recalled' } });
  const complete = (t: Transfer): TransferEntry => ({ type: 'transfer.complete', payload: { transfer: t } });
  const reverse = (t: Transfer): TransferEntry => ({ type: 'transfer.reverse', payload: { transfer: t, reason: 'recalled' } });

  it('the recall trick, in every order of three journals: a taken beside a refusal is a disagreement no later entry mends', () => {
    const [p] = inEveryOrder([
      [LIAR, []],
      [VICTIM, [taken(MINTED)]],
      [HONEST, [refused(MINTED)]],
    ]);
    assert.ok(p);
    assert.equal(p.receiver, 'taken', "a refusal never overwrites the receiver's taken");
    assert.equal(p.net, MINTED.amount, 'the credit made is named');
    assert.deepEqual([...p.disagreements].sort(), ['refused-by-other', 'taken-and-refused', 'taken-not-sent']);
    assert.equal(awaitedSide(p), null, "an alarm at once: no sync of the liar's can mend it");
  });

  it("a refusal counts only from the transfer's receiver, in every order", () => {
    const t: Transfer = { ...MINTED, id: { origin: LIAR, serial: 8 } };
    // The receiver refused and the sender reversed: they agree, whatever a third table says.
    const [agree] = inEveryOrder([
      [LIAR, [out(t), reverse(t)]],
      [VICTIM, [refused(t)]],
      [HONEST, []],
    ]);
    assert.deepEqual([agree?.receiver, agree?.disagreements], ['refused', []]);
    // A third table's refusal is no refusal of the receiver's: the reversal is still unanswered there.
    const [other] = inEveryOrder([
      [LIAR, [out(t), reverse(t)]],
      [VICTIM, []],
      [HONEST, [refused(t)]],
    ]);
    assert.deepEqual([other?.receiver, other?.disagreements], ['none', ['reversed-not-refused', 'refused-by-other']]);
    // Honest hosts, a completed transfer: nothing named, in every order.
    const [honest] = inEveryOrder([
      [LIAR, [out(t), complete(t)]],
      [VICTIM, [taken(t)]],
      [HONEST, []],
    ]);
    assert.deepEqual([honest?.receiver, honest?.net, honest?.disagreements], ['taken', 0, []]);
    // The receiver's own refusal beside its own taken (it contradicts itself): a disagreement.
    const [both] = inEveryOrder([
      [LIAR, [out(t), complete(t)]],
      [VICTIM, [taken(t), refused(t)]],
      [HONEST, []],
    ]);
    assert.deepEqual([both?.receiver, both?.disagreements], ['taken', ['taken-and-refused']]);
  });
});

describe("a sender's part is believed only from the id's origin, in the order its ledger allows", () => {
  const out = (t: Transfer): TransferEntry => ({ type: 'transfer.out', payload: { transfer: t } });
  const taken = (t: Transfer): TransferEntry => ({ type: 'transfer.in', payload: { transfer: t } });
  const refused = (t: Transfer): TransferEntry => ({ type: 'transfer.refuse', payload: { id: t.id, reason: 'recalled' } });
  const complete = (t: Transfer): TransferEntry => ({ type: 'transfer.complete', payload: { transfer: t } });
  const reverse = (t: Transfer): TransferEntry => ({ type: 'transfer.reverse', payload: { transfer: t, reason: 'recalled' } });
  // An honest sender (the victim) to an honest receiver, and a third table that lies.
  const sent: Transfer = { id: { origin: VICTIM, serial: 1 }, currency: 'MOP', station: STATION, from: VICTIM, to: HONEST, amount: 10_000 };
  const as = (table: TableId, t: Transfer): Transfer => ({ ...t, from: table });
  const seen = (p: PairedTransfer | undefined) => p && [p.sender, p.receiver, p.net, [...p.disagreements].sort(), p.impostors];

  it('a receiver that never answered cannot close the lost transfer itself (it stays open, the lie named)', () => {
    const [p] = inEveryOrder([
      [VICTIM, [out(sent)]],
      [HONEST, [refused(sent), reverse(as(HONEST, sent))]],
      [LIAR, []],
    ]);
    assert.deepEqual(seen(p), ['open', 'refused', 0, ['sender-part-by-other'], [HONEST]]);
  });

  it('a receiver that credited and answered "refused" cannot complete it in the sender’s name: credited twice, named', () => {
    const [p] = inEveryOrder([
      [VICTIM, [out(sent), reverse(sent)]],
      [HONEST, [taken(sent), complete(as(HONEST, sent))]],
      [LIAR, []],
    ]);
    assert.deepEqual(seen(p), ['reversed', 'taken', 10_000, ['sender-part-by-other', 'taken-and-reversed'], [HONEST]]);
  });

  it("a third table's reversal of a completed transfer changes no money and names the third table, in every order", () => {
    const [p] = inEveryOrder([
      [VICTIM, [out(sent), complete(sent)]],
      [HONEST, [taken(sent)]],
      [LIAR, [reverse(as(LIAR, sent))]],
    ]);
    assert.deepEqual(seen(p), ['completed', 'taken', 0, ['sender-part-by-other'], [LIAR]]);
    assert.deepEqual(p?.tables, [VICTIM, LIAR, HONEST].sort());
  });

  it('the origin contradicting itself: only its first debit and its first closing on those terms count; a lie with nothing to pair is named', () => {
    const more = { ...sent, amount: 99_000 };
    /** The three journals (the origin's, the receiver's, a third table's), paired in every order. */
    const pairing = (victim: TransferEntry[], honest: TransferEntry[], liar: TransferEntry[]) =>
      seen(
        inEveryOrder([
          [VICTIM, victim],
          [HONEST, honest],
          [LIAR, liar],
        ])[0],
      );
    const cases: [string, ReturnType<typeof pairing>, ReturnType<typeof pairing>][] = [
      ['a second debit', pairing([out(sent), out(more), complete(sent)], [taken(sent)], []), ['completed', 'taken', 0, ['sender-contradicts'], []]],
      ['a closing on other terms', pairing([out(sent), reverse(more)], [taken(sent)], []), ['open', 'taken', 0, ['sender-contradicts'], []]],
      ['a second closing', pairing([out(sent), complete(sent), reverse(sent)], [taken(sent)], []), ['completed', 'taken', 0, ['sender-contradicts'], []]],
      // Nothing to pair: another table's debit of an id no one else names, the origin's closing with no debit.
      ['a planted debit alone', pairing([], [], [out(sent)]), ['none', 'none', 0, ['sender-part-by-other'], [LIAR]]],
      ['a closing with no debit', pairing([complete(sent)], [], []), ['none', 'none', 0, ['sender-contradicts'], []]],
    ];
    for (const [what, got, want] of cases) assert.deepEqual(got, want, what);
  });
});

describe('the recall trick against live hosts is an upstream alarm; so is every refused lie (issue 50 item 7)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recall-trick-'));
  const ledgers = new Map<TableId, Ledger>();
  let db: Db;

  before(async () => {
    const hosts = new Map<TableId, TransferHost>();
    for (const t of [LIAR, VICTIM, HONEST]) {
      const ledger = Ledger.open({ dataDir: path.join(dir, t), terminalId: t });
      ledgers.set(t, ledger);
      ledger.append(billCredit(1, 10_000, `${t}-note`));
      hosts.set(
        t,
        new TransferHost({
          self: t,
          currency: 'MOP',
          homes: { [STATION]: LIAR },
          journal: new LedgerTransferJournal(ledger),
          send: () => undefined,
          alarm: () => undefined,
        }),
      );
    }
    const victim = hosts.get(VICTIM);
    const honest = hosts.get(HONEST);
    assert.ok(victim && honest);
    // The liar offers credit it never debited (its own journal says nothing) to the victim, which takes it…
    victim.receive(LIAR, { kind: 'offer', transfer: MINTED });
    // …then recalls the same id at the honest table, which refuses it for ever.
    honest.receive(LIAR, { kind: 'recall', id: MINTED.id });
    // And a lie the victim refuses: an offer in another currency (journalled as a transfer.alarm).
    victim.receive(LIAR, { kind: 'offer', transfer: { ...MINTED, id: { origin: LIAR, serial: 9 }, currency: 'HKD' } });
    const types = (t: TableId) => [...(ledgers.get(t)?.entries(1) ?? [])].map((e) => e.type).filter(isTransferEntryType);
    assert.deepEqual(types(LIAR), []);
    assert.ok(types(VICTIM).includes('transfer.in') && types(VICTIM).includes('transfer.alarm'), JSON.stringify(types(VICTIM)));
    assert.deepEqual(types(HONEST), ['transfer.refuse']);

    db = (await openDatabase('pglite')).db;
    for (const [t, ledger] of ledgers) {
      await enrolTerminal(db, t);
      const entries = [...ledger.entries(1)].map((e) => ({ seq: e.seq, hash: e.hash, body: e.body }));
      const first = ledger.entry(1);
      assert.ok(first);
      const r = await ingest(db, { terminalId: t, prevHash: first.prevHash, entries });
      assert.equal(r.status, 200, JSON.stringify(r));
    }
  });

  after(async () => {
    await db.close();
    for (const l of ledgers.values()) l.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('raises the minted credit at once, and every transfer.alarm journalled, each once', async () => {
    const r = await reconcileTransfers(db, { openAfterSeconds: 3600 });
    assert.deepEqual(r.pending, [], 'not waiting for the liar to sync');
    assert.deepEqual(
      r.disagreements.map((d) => [d.id.serial, [...d.disagreements].sort(), d.net]),
      [[7, ['refused-by-other', 'taken-and-refused', 'taken-not-sent'], MINTED.amount]],
    );
    const raised = await alarms(db);
    const minted = raised.filter((a) => a.kind === 'transfer-disagreement');
    // Under the liar, and under the victim that credited it: no journal tells a sender that offered
    // without a debit from a receiver that credited itself (a review of the upstream, F2).
    assert.deepEqual(
      minted.map((a) => [a.terminalId, (a.detail as { id: unknown }).id]).sort(),
      [
        [VICTIM, MINTED.id],
        [LIAR, MINTED.id],
      ].sort(),
    );
    // Every transfer.alarm the victim journalled is an alarm upstream, naming the table and the link.
    const journalled = [...(ledgers.get(VICTIM)?.entries(1) ?? [])].filter((e) => e.type === 'transfer.alarm');
    const reasons = journalled.map((e) => parseTransferEntry('transfer.alarm', (JSON.parse(e.body) as EntryBody).payload));
    const peer = raised.filter((a) => a.kind === 'transfer-peer-alarm');
    assert.equal(peer.length, journalled.length);
    assert.ok(peer.length >= 1);
    for (const a of peer) assert.equal(a.terminalId, VICTIM);
    assert.deepEqual(
      peer.map((a) => (a.detail as { reason: string }).reason).sort(),
      reasons.map((e) => (e.type === 'transfer.alarm' ? e.payload.reason : '')).sort(),
    );
    assert.ok(peer.every((a) => (a.detail as { link: string }).link === LIAR));
    // Run again: nothing raised twice.
    assert.equal((await reconcileTransfers(db, { openAfterSeconds: 3600 })).raised, 0);
    assert.equal((await alarms(db)).length, raised.length);
  });
});

describe("the upstream's transfer alarms name the table that lied, and a worse finding on an id is raised again", () => {
  const TS = '2026-11-26T08:00:00.000Z';
  /** A minute after the entries: nothing open too long yet. */
  const SOON = new Date(Date.parse(TS) + 60_000);
  const sent: Transfer = { id: { origin: VICTIM, serial: 1 }, currency: 'MOP', station: STATION, from: VICTIM, to: HONEST, amount: 10_000 };
  const entry = (type: TransferEntry['type'], payload: unknown): LyingEntry => ({ type, ts: TS, payload });
  const transferAlarms = async (db: Db) =>
    (await alarms(db))
      .filter((a) => a.kind === 'transfer-disagreement')
      .map((a) => {
        const d = a.detail as { disagreements: string[]; net: number; tables: string[] };
        return [a.terminalId, d.disagreements, d.net, d.tables];
      });

  /** An upstream (PGlite) and the three tables, each sending what it likes under its real credentials. */
  const threeTables = async (t: { after: (fn: () => Promise<void>) => void }) => {
    const kit = await backofficeKit();
    t.after(() => kit.close());
    const [victim, honest, liar] = [
      await lyingTable(kit.app, kit.db, VICTIM),
      await lyingTable(kit.app, kit.db, HONEST),
      await lyingTable(kit.app, kit.db, LIAR),
    ];
    return { kit, victim, honest, liar };
  };

  it("a third table's reversal of an honest completed transfer is raised under the third table alone", async (t) => {
    const { kit, victim, honest, liar } = await threeTables(t);
    assert.equal((await victim.send([entry('transfer.out', { transfer: sent }), entry('transfer.complete', { transfer: sent })])).statusCode, 200);
    assert.equal((await honest.send([entry('transfer.in', { transfer: sent })])).statusCode, 200);
    assert.equal((await reconcileTransfers(kit.db, { openAfterSeconds: 3600 }, SOON)).raised, 0, 'honest tables agree');
    assert.equal((await liar.send([entry('transfer.reverse', { transfer: { ...sent, from: LIAR }, reason: 'recalled' })])).statusCode, 200);
    const r = await reconcileTransfers(kit.db, { openAfterSeconds: 3600 }, SOON);
    assert.deepEqual(
      r.disagreements.map((d) => [d.sender, d.net]),
      [['completed', 0]],
      'the money stands as the two honest tables journalled it',
    );
    assert.deepEqual(await transferAlarms(kit.db), [[LIAR, ['sender-part-by-other'], 0, [VICTIM, LIAR, HONEST].sort()]]);
  });

  // A review of the upstream (F2): a third table's credit of an honest table's id. Before, the
  // credit believed was the first read (by table id): one on other terms named `terms-differ`
  // against the honest sender and hid the receiver's; one read after it was not seen at all.
  it("a third table's credit of an honest completed transfer is raised under the third table alone, with the money", async (t) => {
    const { kit, victim, honest, liar } = await threeTables(t);
    assert.equal((await victim.send([entry('transfer.out', { transfer: sent }), entry('transfer.complete', { transfer: sent })])).statusCode, 200);
    assert.equal((await honest.send([entry('transfer.in', { transfer: sent })])).statusCode, 200);
    assert.equal((await liar.send([entry('transfer.in', { transfer: { ...sent, to: LIAR } })])).statusCode, 200);
    const r = await reconcileTransfers(kit.db, { openAfterSeconds: 3600 }, SOON);
    assert.deepEqual(
      r.disagreements.map((d) => [d.sender, d.receiver, d.net, d.outOfPlace]),
      [['completed', 'taken', sent.amount, [LIAR]]],
    );
    assert.deepEqual(await transferAlarms(kit.db), [[LIAR, ['taken-by-other'], sent.amount, [VICTIM, LIAR, HONEST].sort()]]);
  });

  it('a refusal planted by another table, then a real double credit on the same id: raised again with the money', async (t) => {
    const { kit, victim, honest, liar } = await threeTables(t);
    await victim.send([entry('transfer.out', { transfer: sent })]);
    await liar.send([entry('transfer.refuse', { id: sent.id, reason: 'recalled' })]);
    assert.equal((await reconcileTransfers(kit.db, { openAfterSeconds: 3600 }, SOON)).raised, 1);
    // The receiver credits it and answers "refused": the sender reverses. Credited twice.
    await victim.send([entry('transfer.reverse', { transfer: sent, reason: 'recalled' })]);
    await honest.send([entry('transfer.in', { transfer: sent })]);
    const r = await reconcileTransfers(kit.db, { openAfterSeconds: 3600 }, SOON);
    assert.equal(r.raised, 1, 'the worse finding is an alarm of its own');
    assert.deepEqual(
      (await transferAlarms(kit.db)).map(([terminal, found, net]) => [terminal, found, net]).sort((x, y) => Number(x[2]) - Number(y[2])),
      [
        [VICTIM, ['refused-by-other'], 0],
        [VICTIM, ['refused-by-other', 'taken-and-refused', 'taken-and-reversed'], 10_000],
      ],
    );
    assert.equal((await reconcileTransfers(kit.db, { openAfterSeconds: 3600 }, SOON)).raised, 0, 'and raised once');
    // Cleared by a person who has seen it: the journals still say the same, so it is not raised again.
    await kit.db.query("UPDATE alarms SET cleared_at = now() WHERE kind = 'transfer-disagreement'");
    assert.equal((await reconcileTransfers(kit.db, { openAfterSeconds: 3600 }, SOON)).raised, 0, 'a cleared finding stays cleared');
  });
});

describe('a transfer entry the upstream cannot read reaches someone', () => {
  it('is stored (the journal is the table’s) and raised once per batch as transfer-entry-unreadable, naming its seq', async (t) => {
    const kit = await backofficeKit();
    t.after(() => kit.close());
    const table = await lyingTable(kit.app, kit.db, VICTIM);
    const TS = '2026-11-26T08:00:00.000Z';
    // Its figures fit the report (a station, an amount), its id and parties do not: never paired.
    const r = await table.send([
      { type: 'transfer.out', ts: TS, payload: { transfer: { station: STATION, amount: 10_000 } } },
      { type: 'transfer.in', ts: TS, payload: { transfer: { ...MINTED, to: VICTIM } } },
    ]);
    assert.equal(r.statusCode, 200, r.body);
    const raised = (await alarms(kit.db)).filter((a) => a.kind === 'transfer-entry-unreadable');
    assert.deepEqual(
      raised.map((a) => [a.terminalId, (a.detail as { seqs: number[] }).seqs]),
      [[VICTIM, [1]]],
    );
    assert.equal((await reconcileTransfers(kit.db, { openAfterSeconds: 3600 })).unreadable.length, 1);
  });
});
