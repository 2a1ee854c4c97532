// Who may talk to a table is journalled: its peer tables' credentials (`peer.credential`: enrol,
// issue, withdraw, revoke, and the adoption as found at a folder's first start) and its remote
// stations' (`station.credential`: enrol, a new one replacing the one in force, revoke, adopt).
// Each change is made by two people in service mode, but a second process of the kiosk user can
// append such an entry through the ledger's own code with the files to match (the table's checks
// and its witness pass it: docs/security.md), and two colluding staff make a legitimate-looking
// one. The floor must hear of every change: `peer-credential` and `station-credential` alarms,
// raised at ingest in the batch's transaction (upstream/ingest/credential-changes.ts), bounded per
// batch as the kiosk faults are; an adoption is one alarm a batch; `none` (a first start that found
// no peer: nobody trusted) is none. No detail holds a digest or a credential's id.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NewEntry } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';
import type { Db } from '../../upstream/index.js';
import { START_ENTRIES_READ } from '../../upstream/ingest/credential-changes.js';
import { FAULT_ALARMS_EACH } from '../../upstream/ingest/kiosk-faults.js';
import { backofficeKit } from './backoffice-kit.js';
import { lyingTable, type LyingEntry } from './lying-journal-kit.js';
import { DATABASES } from '../sync/upstream-databases.js';
import { alarmRig, lastAlarmId, raisedAlarms, type RaisedAlarm } from './alarm-rig.js';

const PEER = 'peer-credential';
const STATION = 'station-credential';
const TS = '2026-12-01T02:00:00.000Z';
const ANA = 'Ana (1001)';
const RUI = 'Rui (1002)';

const digest = (n: number): string => n.toString(16).padStart(64, '0');
const credentialId = (n: number): string => n.toString(16).padStart(32, 'c');

type PeerAction = 'enrol' | 'revoke' | 'adopt' | 'issue' | 'withdraw' | 'none';
type StationAction = 'enrol' | 'revoke' | 'adopt';

/** A `peer.credential` payload as host/peers/peer-registry.ts and peer-journal.ts write it. */
function peer(table: string, action: PeerAction, n = 1, by: string[] = [ANA, RUI]) {
  const withDigest = action !== 'revoke' && action !== 'none';
  const withId = action === 'enrol' || action === 'issue';
  return {
    table,
    action,
    by,
    ...(withDigest ? { digest: digest(n) } : {}),
    ...(withId ? { credential: credentialId(n), issuedAt: TS } : {}),
  };
}

/** A `station.credential` payload as host/stadium/remote-stations.ts writes it. */
function station(n: number, action: StationAction, by: string[] = [ANA, RUI]) {
  return { station: n, action, by, ...(action === 'revoke' ? {} : { credential: digest(1000 + n) }) };
}

type Entry = { type: 'peer.credential'; payload: ReturnType<typeof peer> } | { type: 'station.credential'; payload: ReturnType<typeof station> };
const p = (payload: ReturnType<typeof peer>): Entry => ({ type: 'peer.credential', payload });
const s = (payload: ReturnType<typeof station>): Entry => ({ type: 'station.credential', payload });

type Raised = RaisedAlarm;
const raised = (db: Db, after = 0): Promise<Raised[]> => raisedAlarms(db, [PEER, STATION], after);

/** No detail carries a digest or a credential's id, under any name. */
function noSecret(list: readonly Raised[]): void {
  for (const a of list) {
    for (const k of ['digest', 'credential', 'issuedAt']) assert.ok(!(k in a.detail), `${k} in ${JSON.stringify(a.detail)}`);
    assert.doesNotMatch(JSON.stringify(a.detail), /[0-9a-f]{32}/, 'no digest nor credential id in the detail');
  }
}

for (const database of DATABASES) {
  describe(`peer and station credentials a table journals reach the floor as alarms (${database})`, () => {
    const rig = alarmRig(database, [PEER, STATION]);
    /** Appends the entries through the ledger's own code (as a second process of the kiosk user can), syncs, and gives the alarms it raised. */
    const journal = async (...entries: Entry[]): Promise<{ seqs: number[]; alarms: Raised[] }> => {
      const typed = entries.map((e) => (e.type === 'peer.credential' ? { type: e.type, payload: { ...e.payload, table: TableId.parse(e.payload.table) } } : e));
      const r = await rig.journal(typed);
      noSecret(r.alarms);
      return r;
    };

    it('the first start: the stations adopted are one alarm naming them; no peer found (`none`) is none', async () => {
      const adopted = await journal(
        s(station(1, 'adopt', ['Ana (1001)', 'Rui (1002)'])),
        s(station(2, 'adopt', ['Ana (1001)', 'Rui (1002)'])),
        s(station(3, 'adopt', ['Ana (1001)', 'Rui (1002)'])),
      );
      assert.deepEqual(adopted.alarms, [{ kind: STATION, terminal: 'T1', detail: { seq: adopted.seqs[0], action: 'adopt', count: 3, stations: [1, 2, 3] } }]);
      assert.deepEqual((await journal(p(peer('T1', 'none', 0, ['no peers at start'])))).alarms, [], 'no peers at start');
    });

    it('a peer enrolled, its credential issued and withdrawn, enrolled again, removed: an alarm each, by both people', async () => {
      const steps: [Entry, string][] = [
        [p(peer('bj-1', 'enrol', 1)), 'enrol'],
        [p(peer('bj-1', 'issue', 2)), 'issue'],
        [p(peer('bj-1', 'withdraw', 3)), 'withdraw'],
        [p(peer('bj-1', 'enrol', 4)), 'replace'],
        [p(peer('bj-1', 'revoke')), 'revoke'],
        [p(peer('bj-1', 'enrol', 5)), 'enrol'],
      ];
      for (const [entry, action] of steps) {
        const { seqs, alarms } = await journal(entry);
        assert.deepEqual(alarms, [{ kind: PEER, terminal: 'T1', detail: { seq: seqs[0], table: 'bj-1', action, by: [ANA, RUI] } }], action);
      }
    });

    it('a station enrolled, enrolled again (replacing the one in force), revoked: an alarm each, by both people', async () => {
      const fresh = await journal(s(station(4, 'enrol')));
      assert.deepEqual(fresh.alarms, [{ kind: STATION, terminal: 'T1', detail: { seq: fresh.seqs[0], station: 4, action: 'enrol', by: [ANA, RUI] } }]);
      const again = await journal(s(station(2, 'enrol', [RUI, ANA])));
      assert.deepEqual(again.alarms, [{ kind: STATION, terminal: 'T1', detail: { seq: again.seqs[0], station: 2, action: 'replace', by: [RUI, ANA] } }]);
      const gone = await journal(s(station(3, 'revoke')));
      assert.deepEqual(gone.alarms, [{ kind: STATION, terminal: 'T1', detail: { seq: gone.seqs[0], station: 3, action: 'revoke', by: [ANA, RUI] } }]);
      const back = await journal(s(station(3, 'enrol')));
      assert.deepEqual(
        back.alarms.map((a) => a.detail.action),
        ['enrol'],
        'enrolled again after its revocation',
      );
    });

    it('peers adopted after the table journalled a peer entry (the host never does) are one alarm marked late', async () => {
      const { seqs, alarms } = await journal(p(peer('evil-1', 'adopt', 9, ['adopted as found'])), p(peer('evil-2', 'adopt', 8, ['adopted as found'])));
      assert.deepEqual(alarms, [{ kind: PEER, terminal: 'T1', detail: { seq: seqs[0], action: 'adopt', count: 2, tables: ['evil-1', 'evil-2'], late: true } }]);
    });
  });
}

describe('peer and station credentials from a hostile table', () => {
  it(`50 peers and 30 stations enrolled in one batch are ${FAULT_ALARMS_EACH} alarms of each and one for each rest`, async () => {
    const kit = await backofficeKit();
    try {
      const liar = await lyingTable(kit.app, kit.db, 'T9');
      const peers: LyingEntry[] = Array.from({ length: 50 }, (_, i) => ({ type: 'peer.credential', ts: TS, payload: peer(`rogue-${i}`, 'enrol', i + 1) }));
      const stations: LyingEntry[] = Array.from({ length: 30 }, (_, i) => ({ type: 'station.credential', ts: TS, payload: station(100 + i, 'enrol') }));
      assert.equal((await liar.send([...peers, ...stations])).statusCode, 200);
      const list = await raised(kit.db);
      noSecret(list);
      const ofPeers = list.filter((a) => a.kind === PEER);
      const ofStations = list.filter((a) => a.kind === STATION);
      assert.equal(ofPeers.length, FAULT_ALARMS_EACH + 1);
      assert.equal(ofStations.length, FAULT_ALARMS_EACH + 1);
      assert.deepEqual(
        ofPeers.slice(0, FAULT_ALARMS_EACH).map((a) => a.detail.table),
        Array.from({ length: FAULT_ALARMS_EACH }, (_, i) => `rogue-${i}`),
      );
      const rest = Array.from({ length: 50 - FAULT_ALARMS_EACH }, (_, i) => FAULT_ALARMS_EACH + 1 + i);
      assert.deepEqual(ofPeers.at(-1)?.detail, {
        seq: FAULT_ALARMS_EACH + 1,
        table: `rogue-${FAULT_ALARMS_EACH}`,
        action: 'enrol',
        by: [ANA, RUI],
        count: rest.length,
        seqs: rest,
      });
      assert.equal(ofStations.at(-1)?.detail.count, 30 - FAULT_ALARMS_EACH);
    } finally {
      await kit.close();
    }
  });

  it('an entry is read against the table’s earlier ones, across batches: a station enrolled again is a replacement, revoked then enrolled is not', async () => {
    const kit = await backofficeKit();
    try {
      const liar = await lyingTable(kit.app, kit.db, 'T9');
      const entry = (payload: ReturnType<typeof station>): LyingEntry => ({ type: 'station.credential', ts: TS, payload });
      assert.equal((await liar.send([entry(station(7, 'enrol')), entry(station(8, 'enrol')), entry(station(8, 'revoke'))])).statusCode, 200);
      const from = await lastAlarmId(kit.db);
      assert.equal((await liar.send([entry(station(7, 'enrol')), entry(station(8, 'enrol')), entry(station(8, 'enrol'))])).statusCode, 200);
      const list = await raised(kit.db, from);
      noSecret(list);
      assert.deepEqual(
        list.map((a) => [a.terminal, a.detail.station, a.detail.action]),
        [
          ['T9', 7, 'replace'],
          ['T9', 8, 'enrol'],
          ['T9', 8, 'replace'],
        ],
      );
    } finally {
      await kit.close();
    }
  });

  it('2,400 peers and 2,400 stations adopted (a batch holds at most 5,000 entries) are one alarm each, their lists, names and strings bounded', async () => {
    const kit = await backofficeKit();
    try {
      const liar = await lyingTable(kit.app, kit.db, 'T9');
      const long = 'x'.repeat(5_000);
      const adopts: LyingEntry[] = Array.from({ length: 2_400 }, (_, i) => ({
        type: 'peer.credential',
        ts: TS,
        payload: { ...peer(`t-${i}`, 'adopt', i + 1), ...(i === 0 ? { table: long } : {}) },
      }));
      const stations: LyingEntry[] = Array.from({ length: 2_400 }, (_, i) => ({ type: 'station.credential', ts: TS, payload: station(i + 1, 'adopt') }));
      // And one enrolment whose names are long and many: a detail stays small whatever the table writes.
      const loud: LyingEntry = { type: 'peer.credential', ts: TS, payload: { ...peer(long, 'enrol'), by: Array.from({ length: 50 }, () => long) } };
      assert.equal((await liar.send([...adopts, ...stations, loud])).statusCode, 200);
      const list = await raised(kit.db);
      noSecret(list);
      assert.equal(list.length, 3, JSON.stringify(list.map((a) => [a.kind, a.detail.action])));
      for (const a of list) assert.ok(JSON.stringify(a.detail).length < 4_000, `${a.kind}: ${JSON.stringify(a.detail).length} characters`);
      const peersAdopted = list.find((a) => a.kind === PEER && a.detail.action === 'adopt');
      const stationsAdopted = list.find((a) => a.kind === STATION && a.detail.action === 'adopt');
      // Its table is the first adopted one's (both cut to 64 characters): enrolled over it, a replacement.
      const enrolled = list.find((a) => a.kind === PEER && a.detail.action === 'replace');
      assert.equal(peersAdopted?.detail.count, 2_400);
      assert.ok(Array.isArray(peersAdopted?.detail.tables) && peersAdopted.detail.tables.length <= 100);
      assert.equal(stationsAdopted?.detail.count, 2_400);
      assert.ok(Array.isArray(stationsAdopted?.detail.stations) && stationsAdopted.detail.stations.length <= 100);
      assert.equal(peersAdopted?.detail.late, undefined, 'a first adoption');
      assert.ok(Array.isArray(enrolled?.detail.by) && enrolled.detail.by.length <= 2, 'at most the two people');
    } finally {
      await kit.close();
    }
  });

  it(`more than START_ENTRIES_READ (${START_ENTRIES_READ}) faults and power resets before an adoption read as a table that ran: late`, async () => {
    const kit = await backofficeKit();
    try {
      const liar = await lyingTable(kit.app, kit.db, 'T9');
      const starts = (n: number): LyingEntry[] =>
        Array.from({ length: n }, (_, i) =>
          i % 2 === 0 ? { type: 'power.reset', ts: TS, payload: { clean: true } } : { type: 'tilt.raise', ts: TS, payload: { kind: 'upstream-offline' } },
        );
      assert.equal((await liar.send(starts(START_ENTRIES_READ - 1))).statusCode, 200);
      const adopt: LyingEntry = { type: 'station.credential', ts: TS, payload: station(101, 'adopt') };
      assert.equal((await liar.send([adopt])).statusCode, 200);
      assert.equal((await raised(kit.db)).at(-1)?.detail.late, undefined, `${START_ENTRIES_READ - 1} entries before it: a first adoption`);
      // Two more on another table: its own entries alone count.
      const liar2 = await lyingTable(kit.app, kit.db, 'T8');
      assert.equal((await liar2.send(starts(START_ENTRIES_READ + 1))).statusCode, 200);
      assert.equal((await liar2.send([adopt])).statusCode, 200);
      assert.equal((await raised(kit.db)).at(-1)?.detail.late, true, `${START_ENTRIES_READ + 1} entries before it`);
    } finally {
      await kit.close();
    }
  });

  it('an entry the table could not read (no action, a station that is no number) raises nothing, and breaks nothing else', async () => {
    const kit = await backofficeKit();
    try {
      const liar = await lyingTable(kit.app, kit.db, 'T9');
      const sent = await liar.send([
        { type: 'peer.credential', ts: TS, payload: { table: 'bj-1', by: [ANA] } },
        { type: 'station.credential', ts: TS, payload: { station: 'seven', action: 'enrol', by: [ANA] } },
        { type: 'station.credential', ts: TS, payload: station(9, 'enrol') },
      ]);
      assert.equal(sent.statusCode, 200);
      const list = await raised(kit.db);
      assert.deepEqual(
        list.map((a) => [a.kind, a.detail.station, a.detail.action]),
        [[STATION, 9, 'enrol']],
      );
    } finally {
      await kit.close();
    }
  });
});

// Every start of a table journals `power.reset` first, and the host adopts only while the journal
// holds no credential entry of the type: at the folder's first start, or at the first start of a
// version that journals them. An adoption after a start that ran (opened its table: `table.input`)
// is the latter, or rows planted in the files since: a person confirms it (late), whether or not
// the table journalled a credential entry of the type before.
const START: NewEntry = { type: 'power.reset', payload: { clean: true, softwareVersion: '0.0.0-test' } };
const NO_STATION: NewEntry = { type: 'station.credential', payload: { action: 'none', by: ['no remote stations at start'] } };
// What a start journals before its adoption step, and what a start that opens its table journals after it.
const RULES: NewEntry = {
  type: 'rules.record',
  payload: { digest: 'a'.repeat(64), game: 'war', profile: 'macau', article: 'test article', demonstration: true, cause: 'open' },
};
const FAULT: NewEntry = { type: 'tilt.raise', payload: { kind: 'upstream-offline' } };
const RESUME: NewEntry = { type: 'table.input', payload: { input: { kind: 'resume', at: 1, newShoe: false }, effects: 0 } };
const NO_PEER: NewEntry = { type: 'peer.credential', payload: { table: TableId.parse('T1'), action: 'none', by: ['no peers at start'] } };
const asNew = (e: Entry): NewEntry => (e.type === 'peer.credential' ? { type: e.type, payload: { ...e.payload, table: TableId.parse(e.payload.table) } } : e);

for (const database of DATABASES) {
  describe(`an adoption at a table's later start (${database})`, () => {
    const rig = alarmRig(database, [PEER, STATION]);
    it('is late though the table journalled no credential of the type before (rows found at the upgrade, or planted)', async () => {
      const first = await rig.journal([START, asNew(p(peer('bj-1', 'adopt', 1, ['adopted as found']))), RESUME]);
      assert.deepEqual(
        first.alarms,
        [{ kind: PEER, terminal: 'T1', detail: { seq: first.seqs[1], action: 'adopt', count: 1, tables: ['bj-1'] } }],
        'the first start',
      );
      const later = await rig.journal([
        START,
        asNew(s(station(101, 'adopt'))),
        asNew(s(station(102, 'adopt'))),
        asNew(p(peer('bj-2', 'adopt', 2, ['adopted as found']))),
      ]);
      assert.deepEqual(later.alarms, [
        { kind: PEER, terminal: 'T1', detail: { seq: later.seqs[3], action: 'adopt', count: 1, tables: ['bj-2'], late: true } },
        { kind: STATION, terminal: 'T1', detail: { seq: later.seqs[1], action: 'adopt', count: 2, stations: [101, 102], late: true } },
      ]);
    });
  });

  // The review of 1 December: the entries before an adoption were read as "any not an adoption",
  // so an adoption journalled after the first start's adoption, with no start between (no
  // `power.reset`: a table that is not the host's code), passed as a first one. One adoption is
  // one append of the host's, its entries seq after seq, though a batch may cut it.
  describe(`a second adoption after the first start's (${database})`, () => {
    const rig = alarmRig(database, [PEER, STATION]);
    it("is late; the first start's adoption cut across two batches is not", async () => {
      const first = await rig.journal([asNew(p(peer('t-2', 'adopt', 1, ['adopted as found'])))]);
      const rest = await rig.journal([asNew(p(peer('t-3', 'adopt', 2, ['adopted as found'])))]);
      assert.deepEqual(
        [...first.alarms, ...rest.alarms].map((a) => a.detail.late),
        [undefined, undefined],
        'one adoption in two batches',
      );
      await rig.journal([asNew(s(station(101, 'adopt')))]);
      const hostile = await rig.journal([asNew(p(peer('evil-9', 'adopt', 9, ['adopted as found'])))]);
      assert.deepEqual(hostile.alarms, [
        { kind: PEER, terminal: 'T1', detail: { seq: hostile.seqs[0], action: 'adopt', count: 1, tables: ['evil-9'], late: true } },
      ]);
      const gap = await rig.journal([asNew(s(station(102, 'adopt'))), START, asNew(s(station(103, 'adopt')))]);
      assert.deepEqual(
        gap.alarms.map((a) => a.detail.late),
        [true],
        'adoptions not seq after seq are two: the later one is late',
      );
    });
  });

  describe(`a first start that found no remote station (${database})`, () => {
    const rig = alarmRig(database, [PEER, STATION]);
    it('journals `none`, which raises nothing; a station adopted after it is late', async () => {
      assert.deepEqual((await rig.journal([START, NO_STATION])).alarms, [], 'no station at start');
      const planted = await rig.journal([asNew(s(station(101, 'adopt')))]);
      assert.deepEqual(planted.alarms, [
        { kind: STATION, terminal: 'T1', detail: { seq: planted.seqs[0], action: 'adopt', count: 1, stations: [101], late: true } },
      ]);
    });
  });
}

// The review of 2 December: a first start refused after its `power.reset` and before its
// adoption (a configuration the game refuses, a store that does not open, a power cut) leaves
// the power reset and what the start journals before the adoption step (the rule set on record,
// the faults it restores, the service accounts and the peers adopted as found); the next start's
// adoption, the folder's first, was marked late by its two power resets. A table that ran before
// the adoption journalled more than that (every start that opens the table journals its
// `table.input`, and rounds and money are entries), which no entry appended later takes back.
const lateOf = (alarms: readonly Raised[]): unknown[] => alarms.map((a) => [a.kind, a.detail.action, a.detail.late]);

for (const database of DATABASES) {
  describe(`a first start refused before its adoption (${database})`, () => {
    const rig = alarmRig(database, [PEER, STATION]);
    it("leaves the next start's adoption a first one: not late", async () => {
      assert.deepEqual((await rig.journal([START])).alarms, [], 'refused before the table was rebuilt');
      // Refused again, at the remote stations' step: its rule set, a fault and its peers journalled.
      assert.deepEqual((await rig.journal([START, RULES, FAULT, NO_PEER])).alarms, []);
      const adopted = await rig.journal([START, RULES, asNew(s(station(101, 'adopt'))), asNew(s(station(102, 'adopt')))]);
      assert.deepEqual(lateOf(adopted.alarms), [[STATION, 'adopt', undefined]]);
    });
  });

  describe(`an adoption after a start that ran (${database})`, () => {
    const rig = alarmRig(database, [PEER, STATION]);
    it('is late, whatever "refused starts" are journalled after the run', async () => {
      await rig.journal([START, RULES, RESUME]);
      // A hostile host's fake refused starts between the run and the adoption change nothing.
      await rig.journal([START, START, RULES, FAULT, START]);
      const adopted = await rig.journal([START, RULES, asNew(s(station(101, 'adopt')))]);
      assert.deepEqual(lateOf(adopted.alarms), [[STATION, 'adopt', true]]);
    });
  });

  describe(`an adoption after a run with no power reset journalled (${database})`, () => {
    const rig = alarmRig(database, [PEER, STATION]);
    it('is late: a table that is not the host’s code is read by what it journalled', async () => {
      await rig.journal([RESUME, FAULT]);
      const adopted = await rig.journal([asNew(p(peer('bj-1', 'adopt', 1, ['adopted as found'])))]);
      assert.deepEqual(lateOf(adopted.alarms), [[PEER, 'adopt', true]]);
    });
  });
}
