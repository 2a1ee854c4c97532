// Alarms the floor must be told of (issue 49 item 3), each fed as the hostile or broken thing it is
// and seen on the back office's alarms page, acknowledged with a note and never deleted:
// - a table's integrity fault (its records failing their check, its accounts store or its peers'
//   files differing from its journal): a `tilt.raise` in the journal it syncs → `kiosk-integrity`;
// - a receipt of the upstream the table could not verify (journalled as its `upstream-receipt`
//   fault, host/start/signals.ts) → `bad-receipt`;
// - a configuration order of the back office's the table refused or did not believe (journalled as
//   its `config-order` fault, host/start/floor.ts) → `config-order`, one per order;
// - a ticket refused as never issued (forged, or a number the scheme cannot make) or as already
//   paid (a copy presented again) → `ticket-refused`, one per attempt, not per repeated ask; one
//   issued whose print is not yet reported is refused without an alarm.
// On the embedded PGlite and on a PostgreSQL cluster of its own, with the same assertions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger, SyncClient, type Credentials } from '../../ledger/index.js';
import { validationNumber } from '../../terms/validation-number.js';
import { enrolTerminal, putUser, startUpstream, type Db } from '../../upstream/index.js';
import { confirm, machineIdOf, redeem, registerIssue, registerPrinted } from '../../upstream/tickets.js';
import { requestId, ticket } from '../tickets/kit.js';
import { signInHttp } from './backoffice-http.js';
import { DATABASES, openDatabase, type OpenDatabase } from './upstream-databases.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = 'correct horse battery';

interface Alarm {
  id: number;
  kind: string;
  terminalId: string;
  detail: Record<string, unknown>;
  clearedAt: string | null;
  acks: { by: string; note: string }[];
}

for (const kind of DATABASES) {
  describe(`back office: alarms from the tables’ journals and the ticket register (${kind})`, () => {
    let opened: OpenDatabase;
    let db: Db;
    let up: Awaited<ReturnType<typeof startUpstream>>;
    let ledger: Ledger;
    let client: SyncClient;
    let cookie = '';
    let csrf = '';
    const list = async (kind: string): Promise<Alarm[]> => {
      const r = await fetch(`${up.url}/backoffice/api/alarms`, { headers: { cookie } });
      assert.equal(r.status, 200);
      return ((await r.json()) as Alarm[]).filter((a) => a.kind === kind);
    };
    const acknowledge = async (id: number, note: string): Promise<void> => {
      const r = await fetch(`${up.url}/backoffice/api/alarms/${id}/acknowledge`, {
        method: 'POST',
        headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
        body: JSON.stringify({ note }),
      });
      assert.equal(r.status, 200);
    };
    /** Acknowledged, then not deletable; still there with its note. */
    const worked = async (a: Alarm, note: string): Promise<void> => {
      await acknowledge(a.id, note);
      await assert.rejects(db.query('DELETE FROM alarms WHERE id = $1', [a.id]));
      const again = (await list(a.kind)).find((x) => x.id === a.id);
      assert.deepEqual(
        again?.acks.map((k) => [k.by, k.note]),
        [['ana', note]],
      );
    };
    const sync = async (): Promise<void> => {
      while ((await client.syncOnce()) === 'sent');
    };

    before(async () => {
      opened = await openDatabase(kind);
      db = opened.db;
      await putUser(db, { name: 'ana', role: 'supervisor', password: PASSWORD, by: 'test' }, FAST);
      up = await startUpstream({ db, backoffice: {} });
      const cred: Credentials = { ...(await enrolTerminal(db, 'T1', false)), upstream: up.url };
      await enrolTerminal(db, 'T2', false);
      ledger = Ledger.open({ file: ':memory:', terminalId: 'T1' });
      client = new SyncClient(ledger, { url: up.url, credentials: cred });
      ledger.append(billCredit(1, 10_000, 'T1-b1'));
      await sync();
      ({ cookie, csrf } = await signInHttp(up.url, 'ana', PASSWORD));
    });
    after(async () => {
      ledger?.close();
      await up?.close();
      await opened?.close();
    });

    it('a table’s integrity faults in its synced journal raise kiosk-integrity, one per entry; other faults raise nothing', async () => {
      assert.deepEqual(await list('kiosk-integrity'), [], 'nothing before the faults are synced');
      const ledgerFault = ledger.append({ type: 'tilt.raise', payload: { kind: 'ledger-integrity', detail: 'hash chain broken at seq 2' } }).entry.seq;
      ledger.append({ type: 'tilt.raise', payload: { kind: 'shoe-lid-open' } });
      const peerFault = ledger.append({ type: 'tilt.raise', payload: { kind: 'peer-integrity', detail: 'T9 in the files, not enrolled' } }).entry.seq;
      await sync();
      const raised = (await list('kiosk-integrity')).sort((x, y) => Number(x.detail.seq) - Number(y.detail.seq));
      assert.deepEqual(
        raised.map((a) => [a.terminalId, a.detail]),
        [
          ['T1', { seq: ledgerFault, fault: 'ledger-integrity', detail: 'hash chain broken at seq 2' }],
          ['T1', { seq: peerFault, fault: 'peer-integrity', detail: 'T9 in the files, not enrolled' }],
        ],
      );
      await sync();
      assert.equal((await list('kiosk-integrity')).length, 2, 'a batch sent again raises nothing again');
      await worked(raised[0] as Alarm, 'vendor called, ledger checked');
    });

    it('a receipt the table could not verify (its upstream-receipt fault) raises bad-receipt', async () => {
      const seq = ledger.append({ type: 'tilt.raise', payload: { kind: 'upstream-receipt', detail: 'receipt of seq 5 does not verify with the receipt key' } })
        .entry.seq;
      await sync();
      const raised = await list('bad-receipt');
      assert.deepEqual(
        raised.map((a) => [a.terminalId, a.detail]),
        [['T1', { seq, fault: 'upstream-receipt', detail: 'receipt of seq 5 does not verify with the receipt key' }]],
      );
      await worked(raised[0] as Alarm, 'enrolment checked; network path inspected');
    });

    it('a configuration order the table refused (its config-order fault) raises config-order, one per order', async () => {
      const detail = (id: number) => `configuration order ${id} (profile) refused by this table: "macau-2004" is a profile of blackjack`;
      const first = ledger.append({ type: 'tilt.raise', payload: { kind: 'config-order', detail: detail(9) } }).entry.seq;
      const second = ledger.append({ type: 'tilt.raise', payload: { kind: 'config-order', detail: detail(10) } }).entry.seq;
      await sync();
      const raised = (await list('config-order')).sort((x, y) => Number(x.detail.seq) - Number(y.detail.seq));
      assert.deepEqual(
        raised.map((a) => [a.terminalId, a.detail]),
        [
          ['T1', { seq: first, fault: 'config-order', detail: detail(9) }],
          ['T1', { seq: second, fault: 'config-order', detail: detail(10) }],
        ],
      );
      await worked(raised[0] as Alarm, 'the request was for the wrong table; proposed again for BJ1');
    });

    it('a ticket refused as never issued (forged) or as already paid raises ticket-refused, once per attempt', async () => {
      const m1 = await machineIdOf(db, 'T1');
      const forged = validationNumber(m1, 9_999);
      const ask = (validation: string, id = requestId()) => ({ requestId: id, validation, station: 4, currency: 'MOP', limit: 1_000_000 });
      const forgedAsk = ask(forged);
      assert.equal((await redeem(db, 'T2', forgedAsk)).kind, 'refused');
      assert.equal((await redeem(db, 'T2', forgedAsk)).kind, 'refused', 'asked again: answered as before');
      assert.equal((await redeem(db, 'T2', ask('001111111111111111'))).kind, 'refused');
      const t = ticket(m1, 1, 5_000);
      await registerIssue(db, 'T1', t);
      await registerPrinted(db, 'T1', t);
      const paid = ask(t.validation);
      assert.equal((await redeem(db, 'T2', paid)).kind, 'approved');
      assert.deepEqual(await confirm(db, 'T2', paid.requestId, paid), { ok: true });
      const copy = ask(t.validation);
      assert.equal((await redeem(db, 'T2', copy)).kind, 'refused');
      // Refusals that are no forgery nor copy: another currency, over the limit — no alarm.
      const t2 = ticket(m1, 2, 5_000);
      await registerIssue(db, 'T1', t2);
      await registerPrinted(db, 'T1', t2);
      assert.equal((await redeem(db, 'T2', { ...ask(t2.validation), currency: 'HKD' })).kind, 'refused');
      assert.equal((await redeem(db, 'T2', { ...ask(t2.validation), limit: 100 })).kind, 'refused');
      // A ticket the register issued whose print the table has not yet reported (a printer that
      // lost power mid-print, or a table behind on its sync): refused, as its paper is not known to
      // exist, but no forgery: no alarm. The table's journal settles it (printed or voided).
      const t3 = ticket(m1, 3, 5_000);
      await registerIssue(db, 'T1', t3);
      const inPrint = await redeem(db, 'T2', ask(t3.validation));
      assert.deepEqual([inPrint.kind, inPrint.kind === 'refused' ? inPrint.reason : null], ['refused', 'unknown']);
      const raised = await list('ticket-refused');
      // The back office serves a ticket's number by its last four digits (tests/security/backoffice-ticket-numbers.test.ts).
      const last4 = (v: string) => `…${v.slice(-4)}`;
      assert.deepEqual(
        raised
          .map((a) => [a.terminalId, a.detail.validation, a.detail.station, a.detail.reason])
          .sort((x, y) => String(x[3]).localeCompare(String(y[3])) || String(x[1]).localeCompare(String(y[1]))),
        [
          ['T2', last4(forged), 4, 'unknown'],
          ['T2', last4('001111111111111111'), 4, 'unknown'],
          ['T2', last4(t.validation), 4, 'already-paid'],
        ].sort((x, y) => String(x[3]).localeCompare(String(y[3])) || String(x[1]).localeCompare(String(y[1]))),
      );
      await worked(raised.find((a) => a.detail.reason === 'already-paid') as Alarm, 'surveillance reviewing station 4');
    });
  });
}
