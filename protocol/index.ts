export * from './limits.js';
export * from './views.js';
export * from './jackpot.js';
export * from './messages.js';
export * from './codec.js';
export * from './preload-api.js';
export * from './utility-messages.js';
export * from './round.js';
export * from './refusals.js';
export * from './service.js';
export * from './service-view.js';
export * from './meters.js';
export * from './screen-extras.js';
export * from './tilts.js';
export * from './compose.js';
export * from './shoe-coups.js';
export * from './patch.js';
export * from './units.js';
export * from './station-device.js';
export * from './transfer-requests.js';
export * from './station-tables.js';
export {
  HANDPAY_WHY,
  MAX_STATION_TICKETS,
  PRINTER_FAULTS,
  StationTicket,
  TICKET_LOG_STATES,
  TICKET_NOT_PRINTED_REASONS,
  TICKET_RETURN_REASONS,
  TICKET_VOID_REASONS,
  type HandpayWhy,
  type PrinterFaultName,
  type TicketLogStateName,
  type TicketNotPrintedReason,
  type TicketReturnReason,
  type TicketVoidReason,
} from './tickets.js';
export { DEVICE_EVENTS, DEVICE_STATES, SYNC_ERRORS, SYNC_STATES, type DeviceEvent, type DeviceState, type SyncError, type SyncState } from './service-rows.js';
