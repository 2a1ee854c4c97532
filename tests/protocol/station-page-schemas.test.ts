// A station page builds the schemas of its own view and of the messages it receives, no other (issue 52
// item 3): a station page never a table's, nor the host's (its clients' messages, the station
// agent's devices, Electron's ports). The table page's side is table-page-schemas.test.ts: each
// file runs in a process of its own, and what is built stays built.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeHostMessage, encode } from '../../protocol/codec.js';
import { PROTOCOL_VERSION } from '../../protocol/limits.js';
import { ViewComposer } from '../../protocol/compose.js';
import { NO_PAGES, TABLES_ONLY } from './schema-names.js';
import { schemasBuilt } from '../../protocol/lazy.js';
import { STATION_OWN_STATE as OWN, STATION_VIEW as STATION } from '../../protocol/testing/views.js';

describe('the schemas a station page builds', () => {
  it("are its own view's and its messages', not the table's nor the host's, and none before a message comes", () => {
    assert.deepEqual([...schemasBuilt()], [], 'a schema built at load');
    const composer = new ViewComposer(STATION);
    const frames = [
      encode({ type: 'welcome', ref: 'h1', protocol: PROTOCOL_VERSION, session: 's1', view: STATION }),
      encode({ type: 'snapshot', view: STATION, version: 1, state: OWN }),
      encode({ type: 'public', part: 'round', version: 1, state: null }),
      encode({ type: 'public', part: 'panel', version: 1, state: { shoe: { id: 's1', coups: ['B7'] } } }),
      `["${STATION}",2,[["set",["credit"],40000]]]`,
      encode({ type: 'ack', ref: 'c1', view: STATION, version: 2 }),
    ];
    for (const f of frames) {
      const d = decodeHostMessage(f, STATION);
      assert.ok(d.ok, f);
      composer.take(d.message);
    }
    assert.equal(composer.latest()?.kind, 'station');
    const built = schemasBuilt();
    for (const name of ['StationOwnState', "Snapshot of a station's own part", 'PublicPanel', 'ShoeCoups']) assert.ok(built.has(name), `${name} not built`);
    for (const name of [...TABLES_ONLY, ...NO_PAGES]) assert.equal(built.has(name), false, `${name} built on a station page`);
    // Its recall, once asked for and sent: then, not before.
    assert.equal(built.has('StationRecallRound'), false);
    const recall = decodeHostMessage(encode({ type: 'recall', view: STATION, version: 1, rounds: [] }), STATION);
    assert.ok(recall.ok);
  });

  it('refuses a message of no type the host sends, naming the field, as any other malformed one', () => {
    const d = decodeHostMessage('{"type":"snapshotx","view":"station/2"}', STATION);
    assert.equal(d.ok, false);
    assert.match(d.ok ? '' : d.error.detail, /^type: not a message the host sends/);
    const none = decodeHostMessage('{"view":"station/2"}', STATION);
    assert.match(none.ok ? '' : none.error.detail, /^\(root\): a host message is an object with a type/);
    const number = decodeHostMessage('7', STATION);
    assert.equal(number.ok ? '' : number.error.code, 'invalid-message');
    // A known type with a field out of its schema: the field is named.
    const credit = decodeHostMessage(encode({ type: 'snapshot', view: STATION, version: 1, state: { ...OWN, credit: -1 } }), STATION);
    assert.match(credit.ok ? '' : credit.error.detail, /^state\.credit: /);
  });
});
