// The table page builds the schemas of its own view and of the messages it receives, no other
// (issue 52 item 3): no station's, nor the host's own. A station page's side is
// station-page-schemas.test.ts (each file runs in a process of its own: what is built stays built).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeHostMessage, encode } from '../../protocol/codec.js';
import { PROTOCOL_VERSION } from '../../protocol/limits.js';
import { ViewComposer } from '../../protocol/compose.js';
import { schemasBuilt } from '../../protocol/lazy.js';
import { TABLE_STATE as TABLE } from '../../protocol/testing/views.js';
import { NO_PAGES, STATIONS_ONLY } from './schema-names.js';

describe('the schemas the table page builds', () => {
  it("are its own view's and its messages', not a station's nor the host's, and none before a message comes", () => {
    assert.deepEqual([...schemasBuilt()], [], 'a schema built at load');
    const composer = new ViewComposer('table');
    const frames = [
      encode({ type: 'welcome', ref: 'h1', protocol: PROTOCOL_VERSION, session: 's1', view: 'table' }),
      encode({ type: 'snapshot', view: 'table', version: 1, state: TABLE }),
      '["table",2,[["set",["language"],"pt"]]]',
      encode({ type: 'error', code: 'stale-version', messageKey: 'errors.stale-version', detail: 'x' }),
    ];
    for (const f of frames) {
      const d = decodeHostMessage(f, 'table');
      assert.ok(d.ok, f);
      composer.take(d.message);
    }
    assert.deepEqual(composer.latest(), { ...TABLE, language: 'pt' });
    const built = schemasBuilt();
    for (const name of ['TableState', 'Snapshot of the table', 'PatchTuple']) assert.ok(built.has(name), `${name} not built`);
    for (const name of [...STATIONS_ONLY, ...NO_PAGES]) assert.equal(built.has(name), false, `${name} built on the table page`);
  });

  it('refuses what it refused before: a station part, a table without seats, a patch to another view', () => {
    assert.equal(decodeHostMessage(encode({ type: 'snapshot', view: 'table', version: 1, state: { ...TABLE, seats: [] } }), 'table').ok, false);
    const own = { kind: 'station', station: 1, game: 'baccarat', currency: 'MOP', limits: TABLE.limits, language: 'en', credit: 0 };
    const d = decodeHostMessage(JSON.stringify({ type: 'snapshot', view: 'table', version: 1, state: own }), 'table');
    assert.equal(d.ok, false, 'a station part on the table page');
    assert.equal(decodeHostMessage('["table",2,[]]', 'table').ok, false, 'a patch without operations');
  });
});
