// A round whose entries do not read as a ledger writes them (a corrupt row, or a table whose key
// leaked journalling a void without its time zone): the round's record could not be made, and the
// evidence route answered 500 with no audit entry, as if the upstream had failed, for as long as the
// row stood. Now it is refused by name (`round-unreadable`, 422) and audited as every refusal is.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { readable } from '../../upstream/backoffice/round-evidence.js';
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

// Only the stored entries' failing to read (their JSON, their schemas) is the round's being
// unreadable: a fault of the upstream's own code is a 5xx, logged, not a 422 blaming the table's
// journal (`readable` swallowed every throw, a TypeError of a bug as much as a ZodError).
describe('what makes a round unreadable', () => {
  it('a stored entry that is no JSON, or does not fit the schemas', () => {
    assert.equal(
      readable(() => JSON.parse('{')),
      'round-unreadable',
    );
    assert.equal(
      readable(() => z.object({ seq: z.number() }).parse({ seq: 'one' })),
      'round-unreadable',
    );
    assert.equal(
      readable(() => 7),
      7,
    );
  });

  it('any other throw is the upstream’s own fault: thrown on, not a refusal', () => {
    const bug = (): number => {
      throw new TypeError("Cannot read properties of undefined (reading 'map')");
    };
    assert.throws(() => readable(bug), TypeError);
    assert.throws(
      () =>
        readable(() => {
          throw new Error('the chain of round R1 skips from 3 to 5');
        }),
      /skips/,
    );
  });
});
