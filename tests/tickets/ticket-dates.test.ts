// A ticket dated where no clock of a floor can be (year 0000, a date PostgreSQL's timestamptz refuses):
// refused by the ticket's schema at the table, and at the upstream by name, never a 5xx. Before
// 7 December the schema took any four-digit year: the upstream's ingest stored the entry, then its
// INSERT into `tickets` threw (PostgreSQL: "date/time field value out of range"), the batch rolled
// back with a 500, and the table sent it again for ever, its sync stopped at that entry. The same
// for an entry whose own `ts` was year 0000, and for the table's word (`/v1/tickets/issue`).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MachineTicketTerms, TICKET_PAYLOADS, TICKET_TIME_RANGE } from '../../terms/ticket-terms.js';
import { validationNumber } from '../../terms/validation-number.js';
import { chainHash, genesisHash, sha256Hex } from '../../upstream/chain.js';
import { alarms, enrolTerminal, ingest, migrateUpstream, openPglite, type Db, type IngestBatch } from '../../upstream/index.js';
import { ticketByNumber } from '../../upstream/ticket-queries.js';
import { machineIdOf } from '../../upstream/tickets.js';
import { startFloor } from './kit.js';

/** A journal written by hand, with no schema in the way: what a table whose clock or code is wrong may send. */
class RawJournal {
  private seq = 0;
  private prev: string;
  constructor(readonly terminal: string) {
    this.prev = genesisHash(terminal);
  }
  batch(entries: readonly { type: string; payload: unknown; ts?: string }[]): IngestBatch {
    const prevHash = this.prev;
    const out = entries.map(({ type, payload, ts }) => {
      this.seq++;
      const body = JSON.stringify({
        v: 1,
        terminal: this.terminal,
        seq: this.seq,
        ts: ts ?? new Date().toISOString(),
        type,
        payload,
        postings: [],
        meters: [],
      });
      const hash = chainHash(this.prev, sha256Hex(body));
      this.prev = hash;
      return { seq: this.seq, hash, body };
    });
    return { terminalId: this.terminal, prevHash, entries: out };
  }
}

const terms = (machineId: number, sequence: number, issuedAt: string, expiresAt = '2027-03-01T00:00:00.000Z') => ({
  validation: validationNumber(machineId, sequence),
  machineId,
  sequence,
  station: 1,
  amount: 5_000,
  currency: 'MOP',
  issuedAt,
  expiresAt,
});

describe('a ticket dated out of any sane range', () => {
  it("the ticket's schema refuses it: year 0000, before 2000, from 2200 on; takes the range's ends", () => {
    for (const at of ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '1970-01-01T00:16:40.000Z', '1999-12-31T23:59:59.999Z', '2200-01-01T00:00:00Z'])
      assert.equal(MachineTicketTerms.safeParse(terms(4242, 1, at, '2200-06-01T00:00:00Z')).success, false, `issuedAt ${at}`);
    assert.equal(MachineTicketTerms.safeParse(terms(4242, 1, '2026-12-07T00:00:00Z', '9999-12-31T23:59:59-01:00')).success, false, 'expires in year 10000');
    assert.equal(TICKET_PAYLOADS['ticket.issue'].safeParse(terms(4242, 1, '0000-06-01T00:00:00Z')).success, false);
    assert.equal(MachineTicketTerms.safeParse(terms(4242, 1, '2000-01-01T00:00:00Z')).success, true);
    assert.equal(MachineTicketTerms.safeParse(terms(4242, 1, '2026-12-07T00:00:00Z', '2199-12-31T23:59:59.999Z')).success, true);
    assert.deepEqual(TICKET_TIME_RANGE, { from: '2000-01-01T00:00:00.000Z', until: '2200-01-01T00:00:00.000Z' });
  });

  describe('at the upstream (PGlite)', () => {
    let db: Db;
    let m: number;
    before(async () => {
      db = await openPglite();
      await migrateUpstream(db);
      await enrolTerminal(db, 'T-1');
      m = await machineIdOf(db, 'T-1');
    });
    after(async () => db.close());

    it('a journalled ticket.issue dated year 0000: stored and alarmed as unreadable by its seq, never registered; the sync goes on', async () => {
      const j = new RawJournal('T-1');
      const bad = terms(m, 1, '0000-01-01T00:00:00Z');
      const r = await ingest(db, j.batch([{ type: 'ticket.issue', payload: bad }]));
      assert.equal(r.status, 200, 'not a 5xx the table would send again for ever');
      assert.deepEqual(
        (await alarms(db, 'T-1')).filter((a) => a.kind === 'ticket-entry-unreadable').map((a) => a.detail),
        [{ seqs: [1] }],
      );
      assert.equal((await ticketByNumber(db, bad.validation)).ticket, null);
      // The table's next entries are taken: its sync did not stop at that entry.
      const good = terms(m, 2, new Date().toISOString(), new Date(Date.now() + 86_400_000).toISOString());
      const next = await ingest(db, j.batch([{ type: 'ticket.issue', payload: good }]));
      assert.equal(next.status, 200);
      assert.equal((await ticketByNumber(db, good.validation)).ticket?.state, 'issued');
    });

    it("an entry whose own ts is year 0000 is refused by name (422, its seq), not a 500: the journal's column cannot hold it", async () => {
      await enrolTerminal(db, 'T-2');
      const j = new RawJournal('T-2');
      const r = await ingest(db, j.batch([{ type: 'bill.credit', payload: {}, ts: '0000-01-01T00:00:00.000Z' }]));
      assert.equal(r.status, 422);
      assert.equal(r.status === 422 && r.error, 'bad-entry');
      assert.match(r.status === 422 ? r.message : '', /^seq 1: /);
    });

    it('an entry whose own ts is in years 0001–0099 is stored, not refused as no instant (Date.UTC reads those years as 1901–1999)', async () => {
      await enrolTerminal(db, 'T-3');
      const j = new RawJournal('T-3');
      const r = await ingest(db, j.batch([{ type: 'bill.credit', payload: {}, ts: '0050-06-01T00:00:00.000Z' }]));
      assert.equal(r.status, 200, 'a table whose clock read year 50 is not refused for good: its entries are stored (and misdated)');
      const next = await ingest(db, j.batch([{ type: 'bill.credit', payload: {} }]));
      assert.equal(next.status, 200);
      const stored = await db.query<{ y: number }>("SELECT extract(year FROM ts)::int AS y FROM journal WHERE terminal_id = 'T-3' ORDER BY seq");
      assert.deepEqual(
        stored.rows.map((x) => x.y),
        [50, new Date().getUTCFullYear()],
      );
    });
  });

  it("the table's word of such a ticket is refused as a bad request (400), not a 500", async () => {
    const db = await openPglite();
    await migrateUpstream(db);
    const floor = await startFloor(db, 1);
    try {
      const [t] = floor.tables;
      assert.ok(t);
      const word = await t.raw.registerIssue(terms(t.machineId, 1, '0000-01-01T00:00:00Z') as MachineTicketTerms);
      assert.equal(word.ok, false);
      assert.match(word.ok ? '' : word.detail, /^400 /);
    } finally {
      await floor.up.close();
      await db.close();
    }
  });
});
