// A screen decodes the host's messages for its own view (issue 31): a table or a station page
// never builds service mode's schemas (a third of protocol/'s, 0.33 MB of a page's heap), and
// what a page accepts is still checked as strictly, less snapshots of another kind of view.
// The order of the tests matters: the first runs before anything in this process has built them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeHostMessage, encode } from './codec.js';
import { ViewComposer } from './compose.js';
import { serviceSchemasBuilt } from './service-view.js';
import { STATION_OWN_STATE as OWN, STATION_VIEW as STATION, TABLE_STATE as TABLE } from './testing/views.js';
import type { ViewName } from './views.js';

const SERVICE = { kind: 'service', tableId: 'T1', softwareVersion: '1.0', language: 'en', signedIn: false };

/** The messages as a page of `view` reads them, each through its composer: the composed views, in order. */
function screen(view: ViewName, frames: string[]): unknown[] {
  const composer = new ViewComposer(view);
  const shown: unknown[] = [];
  for (const f of frames) {
    const d = decodeHostMessage(f, view);
    assert.equal(d.ok, true, `${view}: ${f} ${JSON.stringify(d)}`);
    const taken = d.ok ? composer.take(d.message) : null;
    if (taken) shown.push(taken.state);
  }
  return shown;
}

const snapshot = (view: string, version: number, state: unknown) => JSON.stringify({ type: 'snapshot', view, version, state });

describe("a screen's decoder, for its own view", () => {
  it('builds no service schema on a table page or a station page', () => {
    const table = screen('table', [snapshot('table', 1, TABLE), '["table",2,[["set",["language"],"pt"]]]']);
    assert.deepEqual(table, [TABLE, { ...TABLE, language: 'pt' }]);
    const station = screen(STATION, [
      snapshot(STATION, 1, OWN),
      encode({ type: 'public', part: 'round', version: 1, state: null }),
      `["${STATION}",2,[["set",["credit"],40000]]]`,
    ]);
    assert.equal(station.length, 3);
    assert.deepEqual(station.at(-1), { ...OWN, credit: 40000, round: null });
    assert.equal(serviceSchemasBuilt(), false, "a table's or a station's messages built service mode's schemas");
  });

  it('refuses a snapshot of another kind of view, and whatever the full decoder refuses', () => {
    assert.equal(decodeHostMessage(snapshot('table', 1, OWN), 'table').ok, false, 'a station part on the table page');
    assert.equal(decodeHostMessage(snapshot(STATION, 1, TABLE), STATION).ok, false, 'the table view on a station page');
    assert.equal(decodeHostMessage(snapshot('table', 1, { ...TABLE, seats: [] }), 'table').ok, false, 'a table without seats');
    assert.equal(decodeHostMessage(snapshot(STATION, 1, { ...OWN, credit: -1 }), STATION).ok, false, 'a negative credit');
    assert.equal(decodeHostMessage(snapshot('table', 1, SERVICE), 'table').ok, false, 'service mode on the table page');
    assert.equal(decodeHostMessage(`["${STATION}",2,[]]`, STATION).ok, false, 'a patch without operations');
  });

  it("checks service mode's snapshots and patches on the service page as the full decoder does", () => {
    const good = snapshot('service', 1, SERVICE);
    assert.equal(decodeHostMessage(good, 'service').ok, true);
    assert.equal(serviceSchemasBuilt(), true);
    const bad = snapshot('service', 1, { ...SERVICE, page: { page: 'sync', sync: null, extra: 1 } });
    assert.equal(decodeHostMessage(bad).ok, false);
    assert.equal(decodeHostMessage(bad, 'service').ok, false, 'a page with a field it does not have');
    assert.equal(decodeHostMessage(snapshot('service', 1, TABLE), 'service').ok, false, 'the table view on the service page');
    // A patch to a page the schema refuses is not applied (the composer keeps the version it holds).
    const composer = new ViewComposer('service');
    const take = (m: string) => {
      const d = decodeHostMessage(m, 'service');
      return d.ok ? composer.take(d.message) : null;
    };
    assert.ok(take(good));
    assert.equal(take('["service",2,[["set",["signedIn"],"yes"]]]'), null);
    assert.deepEqual(take('["service",2,[["set",["page"],{"page":"sync","sync":null}]]]')?.state, { ...SERVICE, page: { page: 'sync', sync: null } });
  });
});
