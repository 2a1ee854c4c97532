// A round's evidence reads the entries between its first and its last to prove the chain: only
// their seq and hashes go into the bundle (`proof.links`). The upstream read each one's whole body
// too, so a round whose span held big entries (a table's journal between a round's first card and
// its void: another station's traffic, or a hostile table's padding) made the evidence read every
// body of the span into memory, for links of a few hashes each. Now the span is read without bodies.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Sql } from '../../upstream/index.js';
import { roundEvidence } from '../../upstream/backoffice/round-evidence.js';
import { backofficeKit, type BackofficeKit } from './backoffice-kit.js';
import { lyingTable } from './lying-journal-kit.js';

const TS = '2026-11-26T08:00:00.000Z';
const FILLERS = 200;
const PAD = 'x'.repeat(20_000);
/** A kiosk's entry names its time zone's offset. */
const zoned = (body: string) => body.replace('{', '{"tzOffsetMin":480,');

describe("a round's evidence over a span of big entries", () => {
  let kit: BackofficeKit;
  before(async () => {
    kit = await backofficeKit();
  });
  after(() => kit.close());

  it('reads the span without its bodies: what the database answers is about the bundle, not the span', async () => {
    const t = await lyingTable(kit.app, kit.db, 'E1');
    assert.equal((await t.send([{ type: 'card.read', ts: TS, payload: { roundId: 'R1', card: '5C' }, text: zoned }])).statusCode, 200);
    for (let i = 0; i < FILLERS; i += 50) {
      const batch = Array.from({ length: 50 }, () => ({ type: 'note', ts: TS, payload: { pad: PAD } }));
      assert.equal((await t.send(batch)).statusCode, 200);
    }
    const settle = { roundId: 'R1', tableId: 'E1', game: 'baccarat', profile: 'p', cards: [], decisions: [], reason: 'test', authorisedBy: ['sup-1'] };
    assert.equal((await t.send([{ type: 'round.void', ts: TS, payload: settle, text: zoned }])).statusCode, 200);
    let read = 0;
    const counting: Sql = {
      async query<T>(text: string, params?: unknown[]) {
        const r = await kit.db.query<T>(text, params);
        read += JSON.stringify(r.rows).length;
        return r;
      },
      exec: (text) => kit.db.exec(text),
    };
    const bundle = await roundEvidence(counting, 'E1', 'R1', new Date());
    assert.ok(typeof bundle === 'object', String(bundle));
    assert.equal(bundle.proof.links.length, FILLERS + 2);
    const size = JSON.stringify(bundle).length;
    assert.ok(read < 3 * size, `read ${read} bytes from the database for a bundle of ${size}`);
  });
});
