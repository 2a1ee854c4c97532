// SAS 6.02 byte constants the machine side uses. Sources (docs/sas.md, "Sources"): the SAS 6.02
// protocol document (IGT, GSA adoption gsa-p0013.004.00) as summarised in public SAS projects'
// references, and the field tables quoted by public SAS implementations; every figure is a fact of
// the protocol, none of their code is copied.

/** The long polls this machine answers (SAS 6.02 Appendix B), by name. */
export const LP = {
  shutdown: 0x01, // disable play (type S, ACK)
  startup: 0x02, // enable play (type S, ACK)
  enableBills: 0x06,
  disableBills: 0x07,
  meters10to15: 0x0f, // cancelled credits, coin in, coin out, drop, jackpot, games played
  cancelledCredits: 0x10,
  coinIn: 0x11,
  coinOut: 0x12,
  drop: 0x13,
  jackpot: 0x14,
  gamesPlayed: 0x15,
  gamesWon: 0x16,
  gamesLost: 0x17,
  gamesSincePowerUpAndDoor: 0x18, // 2 × 2 BCD
  meters11to15: 0x19, // coin in, coin out, drop, jackpot, games played
  currentCredits: 0x1a,
  handpayInfo: 0x1b,
  meters: 0x1c, // coin in, coin out, drop, jackpot, games played, games won, slot door opened, power reset
  machineInfo: 0x1f,
  romSignature: 0x21,
  selectedMeters: 0x2f,
  setValidationId: 0x4c, // set secure enhanced validation id (type S)
  validationInfo: 0x4d, // send enhanced validation information (type S)
  versionAndSerial: 0x54,
  pendingCashout: 0x57, // send pending cash-out information (type R; §15.7)
  receiveValidationNumber: 0x58, // receive validation number (type S; §15.8)
  extendedMeters: 0x6f,
  extendedMetersAlt: 0xaf,
  ticketValidationData: 0x70, // send ticket validation data (type R)
  aftTransfer: 0x72, // AFT transfer funds (type M, variable)
  aftStatus: 0x74, // AFT game lock and status request (type S)
  aftRegister: 0x73, // AFT register gaming machine (type S, length 01 or 1D)
  redeemTicket: 0x71, // redeem ticket (type M, variable)
  sendDateTime: 0x7e,
  receiveDateTime: 0x7f,
  remoteHandpayReset: 0x94,
} as const;

/** General poll exception codes (SAS 6.02 Appendix A, Table A-1) the kiosk may raise. */
export const EXC = {
  none: 0x00,
  slotDoorOpened: 0x11,
  slotDoorClosed: 0x12,
  dropDoorOpened: 0x13,
  dropDoorClosed: 0x14,
  powerApplied: 0x17,
  powerLost: 0x18,
  cashboxDoorOpened: 0x19,
  cashboxDoorClosed: 0x1a,
  cashboxRemoved: 0x1b,
  cashboxInstalled: 0x1c,
  generalTilt: 0x20,
  billJam: 0x28,
  billAcceptorFailure: 0x29,
  operatorChangedOptions: 0x3c,
  cashoutTicketPrinted: 0x3d,
  handpayValidated: 0x3e,
  validationIdNotConfigured: 0x3f,
  /** Bill accepted of no other code. 0x47–0x4E and 0x50 are named for US dollar notes; the station sends them for the same face values in the table's currency (MOP, HKD: host/devices/sas-exceptions.ts, docs/sas.md "Our readings"), this one for any other face value. */
  billAccepted: 0x4f,
  handpayPending: 0x51,
  handpayReset: 0x52,
  sasProgressiveLevelHit: 0x56,
  systemValidationRequest: 0x57,
  printerCommError: 0x60,
  printerPaperOut: 0x61,
  /** Table A-1 (`GeneralExceptionCode.cs`: `PrinterPaperLow = 0x74`, then power off, power on, ribbon, carriage jam). */
  printerCarriageJam: 0x78,
  ticketInserted: 0x67,
  ticketTransferComplete: 0x68,
  aftTransferComplete: 0x69,
  aftRequestHostCashout: 0x6a,
  aftRequestHostCashoutWin: 0x6b,
  aftRequestToRegister: 0x6c,
  aftRegistrationAcknowledged: 0x6d,
  gameLocked: 0x6f,
  bufferOverflow: 0x70,
  gameStarted: 0x7e,
  gameEnded: 0x7f,
  authenticationComplete: 0x8f,
} as const;

/**
 * The priority exceptions in the order SAS 6.02 §2.2.1 gives them, highest first. They are not
 * queued: each is a flag, set until the host acknowledges it, and any set flag is reported before
 * the FIFO queue.
 */
export const PRIORITY_ORDER: readonly number[] = [
  EXC.systemValidationRequest,
  EXC.ticketInserted,
  EXC.ticketTransferComplete,
  EXC.validationIdNotConfigured,
  EXC.aftRequestHostCashout,
  EXC.aftRequestHostCashoutWin,
  EXC.gameLocked,
  EXC.sasProgressiveLevelHit,
  EXC.cashoutTicketPrinted,
  EXC.handpayValidated,
  EXC.aftTransferComplete,
  EXC.aftRequestToRegister,
  EXC.aftRegistrationAcknowledged,
  EXC.handpayReset,
  EXC.handpayPending,
  EXC.authenticationComplete,
  EXC.bufferOverflow,
];

/**
 * The meters the machine side can report, by the names the host fills in, with their SAS meter
 * code (Table C-7) where the table has one. In credits of the accounting denomination, but for the
 * two Table C-7 counts in cents (A0 and B8: `aftInCents`, `aftOutCents`), and the counts (games, transfers).
 */
export const METER_CODES = {
  coinIn: 0x00,
  coinOut: 0x01,
  jackpot: 0x02,
  handpaidCancelledCredits: 0x03,
  cancelledCredits: 0x04,
  gamesPlayed: 0x05,
  gamesWon: 0x06,
  gamesLost: 0x07,
  billsInCredits: 0x0b,
  currentCredits: 0x0c,
  ticketInCredits: 0x15,
  ticketOutCredits: 0x16,
  drop: 0x24,
  gamesSincePowerUp: 0x25,
  gamesSinceDoorClosed: 0x26,
  aftInCents: 0xa0, // in-house cashable transfers to the machine (cents, not credits)
  aftIn: 0xa1, // their count
  aftOutCents: 0xb8, // in-house cashable transfers to the host (cents, not credits)
  aftOut: 0xb9, // their count
} as const;

/** Meters with no Table C-7 code, reported only inside long poll 0x1C. */
export type UncodedMeter = 'slotDoorOpened' | 'powerResets';
export type CodedMeter = keyof typeof METER_CODES;
export type MeterName = CodedMeter | UncodedMeter;

const isCoded = (name: string): name is CodedMeter => Object.hasOwn(METER_CODES, name);
const CODE_TO_NAME = new Map<number, CodedMeter>();
for (const name of Object.keys(METER_CODES)) if (isCoded(name)) CODE_TO_NAME.set(METER_CODES[name], name);

/** The meter a Table C-7 code names, if this machine knows it. */
export function meterForCode(code: number): CodedMeter | undefined {
  return CODE_TO_NAME.get(code);
}

/** Accounting denominations (Table C-4): minor units (cents) to the code sent in long poll 0x1F. */
export const DENOMINATION_CODES: ReadonlyMap<number, number> = new Map([
  [1, 0x01],
  [5, 0x02],
  [10, 0x03],
  [25, 0x04],
  [50, 0x05],
  [100, 0x06],
  [500, 0x07],
  [1000, 0x08],
  [2000, 0x09],
  [10000, 0x0a],
  [20, 0x0b],
  [200, 0x0c],
  [250, 0x0d],
  [2500, 0x0e],
  [5000, 0x0f],
  [20000, 0x10],
  [25000, 0x11],
  [50000, 0x12],
  [100000, 0x13],
  [200000, 0x14],
  [250000, 0x15],
  [500000, 0x16],
  [2, 0x17],
  [3, 0x18],
  [15, 0x19],
  [40, 0x1a],
]);
