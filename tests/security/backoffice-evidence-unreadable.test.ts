// A round whose entries do not read as a ledger writes them (a corrupt row, or a table whose key
// leaked journalling a void without its time zone): the round's record could not be made, and the
// evidence route answered 500 with no audit entry, as if the upstream had failed, for as long as the
// row stood. Now it is refused by name (`round-unreadable`, 422) and audited as every refusal is.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backofficeKit, signIn, type BackofficeKit } from './backoffice-kit.js';
import { lyingTable } from './lying-journal-kit.js';

const TS = '2026-11-26T08:00:00.000Z';

describe("a round's evidence from entries that do not read", () => {
  let kit: BackofficeKit;
  before(async () => {
    kit = await backofficeKit();
  });
  after(() => kit.close());

  it('is refused by name and audited, not a 500', async () => {
    const t = await lyingTable(kit.app, kit.db, 'U1');
    const void_ = { roundId: 'R1', tableId: 'U1', game: 'baccarat', profile: 'p', cards: [], decisions: [], reason: 'test', authorisedBy: ['sup-1'] };
    // No tzOffsetMin: every kiosk entry names it, the round's record needs it.
    assert.equal(
      (
        await t.send([
          { type: 'card.read', ts: TS, payload: { roundId: 'R1' } },
          { type: 'round.void', ts: TS, payload: void_ },
        ])
      ).statusCode,
      200,
    );
    const { cookie } = await signIn(kit.app, 'supervisor');
    const r = await kit.app.inject({ method: 'GET', url: '/backoffice/api/tables/U1/rounds/R1/evidence', headers: { cookie } });
    assert.equal(r.statusCode, 422, r.body);
    assert.equal((r.json() as { error: string }).error, 'round-unreadable');
    const audited = await kit.db.query<{ refused: string }>("SELECT detail->>'refused' AS refused FROM audit_log WHERE action = 'round.evidence'");
    assert.deepEqual(
      audited.rows.map((x) => x.refused),
      ['round-unreadable'],
    );
  });
});
