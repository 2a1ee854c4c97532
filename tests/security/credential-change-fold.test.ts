// The upstream reads a table's `peer.credential` and `station.credential` entries as the table does,
// or an enrolment over a credential in force would be alarmed as a first one, and one the table takes
// could be read as nothing (upstream/ingest/credential-changes.ts folds them apart from the host's
// code, which the upstream does not import). The two folds are run on the same random journals,
// appended to a real ledger and read back by the host's own readers, and compared.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Ledger, PAYLOADS } from '../../ledger/index.js';
import { journalledPeers } from '../../host/peers/peer-journal.js';
import { ledgerStationJournal } from '../../host/stadium/credential-journal.js';
import { TableId } from '../../terms/transfer-terms.js';
import { foldInForce, PEER_ACTIONS, readCredential, STATION_ACTIONS } from '../../upstream/ingest/credential-changes.js';

const BY = ['Ana (1001)', 'Rui (1002)'];
const TABLES = ['bj-1', 'bj-2', 'war-1'];
const digest = fc.constantFrom('a', 'b').map((c) => c.repeat(64));

const peerEntry = fc
  .record({ table: fc.constantFrom(...TABLES), action: fc.constantFrom(...PEER_ACTIONS), digest: fc.option(digest, { nil: undefined }) })
  .map(({ table, action, digest: d }) => ({ table, action, by: BY, ...(d !== undefined && action !== 'revoke' ? { digest: d } : {}) }));
const stationEntry = fc
  .record({ station: fc.integer({ min: 1, max: 3 }), action: fc.constantFrom(...STATION_ACTIONS), credential: fc.option(digest, { nil: undefined }) })
  // `none` names no station and carries no credential (the first start found none in force).
  .map(({ station, action, credential }) =>
    action === 'none' ? { action, by: BY } : { station, action, by: BY, ...(credential !== undefined && action !== 'revoke' ? { credential } : {}) },
  );

describe('the upstream folds peer and station credentials as the table does', () => {
  it('the actions it reads are the schema’s', () => {
    assert.deepEqual([...PEER_ACTIONS].sort(), [...PAYLOADS['peer.credential'].shape.action.options].sort());
    assert.deepEqual([...STATION_ACTIONS].sort(), [...PAYLOADS['station.credential'].shape.action.options].sort());
  });

  it('which peers’ and stations’ credentials are in force, after any journal, as the host’s readers have it', () => {
    fc.assert(
      fc.property(fc.array(peerEntry, { maxLength: 12 }), fc.array(stationEntry, { maxLength: 12 }), (peers, stations) => {
        const ledger = Ledger.open({ file: ':memory:', terminalId: 'T1' });
        try {
          for (const payload of peers) ledger.append({ type: 'peer.credential', payload: { ...payload, table: TableId.parse(payload.table) } });
          for (const payload of stations) ledger.append({ type: 'station.credential', payload });
          const up = { peers: new Map<string, boolean>(), stations: new Map<string, boolean>() };
          for (const p of peers) foldInForce(up.peers, readCredential('peer.credential', p) ?? assert.fail(JSON.stringify(p)));
          for (const s of stations) foldInForce(up.stations, readCredential('station.credential', s) ?? assert.fail(JSON.stringify(s)));
          const hostPeers = journalledPeers(ledger).inForce;
          for (const t of TABLES) assert.equal(up.peers.get(t) ?? false, (hostPeers.get(TableId.parse(t)) ?? null) !== null, `peer ${t}`);
          const hostStations = ledgerStationJournal(ledger).read().inForce;
          for (const n of [1, 2, 3]) assert.equal(up.stations.get(String(n)) ?? false, (hostStations.get(n) ?? null) !== null, `station ${n}`);
        } finally {
          ledger.close();
        }
      }),
      { numRuns: 300 },
    );
  });
});
