// Test-only: the views the decoder tests feed a page (not used by the kiosk itself). Types and
// plain data only, so that a test importing them builds no schema before its first message
// (tests/protocol/{table,station}-page-schemas.test.ts count what is built).
import { stationView, type StationOwnState, type TableState } from '../views.js';

/** A baccarat table's view with one seat taken, no round. */
export const TABLE_STATE: TableState = {
  kind: 'table',
  tableId: 'T1',
  game: 'baccarat',
  profile: 'standard',
  currency: 'MOP',
  limits: { min: 10000, max: 500000 },
  language: 'zh-Hant',
  seats: [{ seat: 1, station: 1 }],
  round: null,
};

/** The station whose own part is {@link STATION_OWN_STATE}. */
export const STATION_VIEW = stationView(2);

/** Station 2's own part at that table: no credit, the betting closed, no decision. */
export const STATION_OWN_STATE: StationOwnState = {
  kind: 'station',
  station: 2,
  seat: 2,
  game: 'baccarat',
  currency: 'MOP',
  limits: { min: 10000, max: 500000 },
  language: 'zh-Hant',
  credit: 0,
  betting: { open: false, spots: [], bets: [] },
  decision: null,
};
