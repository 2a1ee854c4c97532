// The names protocol/lazy.ts gives the schemas a page must not build (issue 52 item 3): a table
// page a station's, a station page the table's, and neither the host's own. Read by
// table-page-schemas.test.ts and station-page-schemas.test.ts.

/** A station's own: a table page has no use for them. */
export const STATIONS_ONLY = [
  'StationState',
  'StationOwnState',
  "Snapshot of a station's own part",
  'CashoutState',
  'StationBetting',
  'StationDecision',
  'StationTransfers',
  'StationTicket',
  'StationRecallRound',
  'PublicPanel',
  'ShoeCoups',
  'PayLine',
];

/** The table display's: a station page has no use for them. */
export const TABLES_ONLY = ['TableState', 'Snapshot of the table', 'SeatState', 'StadiumView', 'JackpotView', 'RoadsView'];

/** The host's (its clients' messages, the station agent's devices, Electron's ports) and service mode's: no table or station page uses them. */
export const NO_PAGES = [
  'ClientMessage',
  'CommandBody',
  'Hello',
  'HelloStation',
  'Command',
  'HostMessage',
  'AgentMessage',
  'HostDeviceMessage',
  'HostReady',
  'ScreenPort',
  'TransferCommand',
  'EventFilter',
  'ServiceState',
  'Snapshot of service mode',
];
