// JCM ID-003 byte values (research note §1.2; cross-checked there against several open
// implementations). Names follow the JCM terms.

export const SYNC = 0xfc;

export const CMD = {
  STATUS_REQUEST: 0x11,
  ACK: 0x50,
  RESET: 0x40,
  STACK_1: 0x41,
  STACK_2: 0x42,
  RETURN: 0x43,
  HOLD: 0x44,
  WAIT: 0x45,
  SET_DENOMINATION: 0xc0,
  SET_SECURITY: 0xc1,
  SET_COMMUNICATION_MODE: 0xc2,
  SET_INHIBIT: 0xc3,
  SET_DIRECTION: 0xc4,
  SET_OPTIONAL_FUNCTION: 0xc5,
  /** Barcode function: `01 12` = Interleaved 2 of 5, 18 characters (Aristocrat's ConfigureDevice). */
  SET_BARCODE_FUNCTION: 0xc6,
  /** Bar inhibit: 0xFC takes notes and tickets (Aristocrat's EnableNotesAndBarcodes). */
  SET_BAR_INHIBIT: 0xc7,
  GET_VERSION: 0x88,
  GET_BOOT_VERSION: 0x89,
  GET_CURRENCY_ASSIGN: 0x8a,
} as const;

export const STATUS = {
  ENABLE: 0x11,
  ACCEPTING: 0x12,
  ESCROW: 0x13,
  STACKING: 0x14,
  VEND_VALID: 0x15,
  STACKED: 0x16,
  REJECTING: 0x17,
  RETURNING: 0x18,
  HOLDING: 0x19,
  DISABLE: 0x1a,
  INITIALIZE: 0x1b,
  POWER_UP: 0x40,
  POWER_UP_BILL_IN_ACCEPTOR: 0x41,
  POWER_UP_BILL_IN_STACKER: 0x42,
  STACKER_FULL: 0x43,
  STACKER_OPEN: 0x44,
  JAM_IN_ACCEPTOR: 0x45,
  JAM_IN_STACKER: 0x46,
  PAUSE: 0x47,
  CHEATED: 0x48,
  FAILURE: 0x49,
  COMMUNICATION_ERROR: 0x4a,
  INVALID_COMMAND: 0x4b,
} as const;

export const REJECT_REASONS: Readonly<Record<number, string>> = {
  0x71: 'insertion error',
  0x72: 'magnetic pattern error',
  0x73: 'sensor or intrusion error',
  0x74: 'data amplitude error',
  0x75: 'feed error',
  0x76: 'denomination assessing error',
  0x77: 'photo pattern error',
  0x78: 'photo level error',
  0x79: 'inhibited denomination',
  0x7b: 'operation error',
  0x7c: 'bill in transport at the wrong time',
  0x7d: 'length error',
  0x7e: 'colour pattern error',
  0x7f: 'true bill feature error',
  0x91: 'barcode function not set',
  0x92: 'unknown barcode',
  0x93: 'barcode character count error',
  0x94: 'barcode start bit error',
  0x95: 'barcode stop bit error',
  0x96: 'barcode not set',
  0x9d: 'ticket length error',
};

/** First escrow code of the currency-assign table (0x61…0x68 are denominations, 0x6F a ticket). */
export const ESCROW_CODE_FIRST = 0x61;
export const ESCROW_CODE_LAST = 0x68;

/** ESCROW's code of a barcode ticket; its digits follow in the same reply (Aristocrat: 6–18 ASCII characters). */
export const TICKET_ESCROW_CODE = 0x6f;
export const BARCODE_I2OF5 = 0x01;
export const BARCODE_LENGTH = 18;
export const BAR_INHIBIT_NOTES_AND_TICKETS = 0xfc;

/** Status codes whose reply carries one data byte. */
export const STATUS_WITH_BYTE = new Set<number>([STATUS.ESCROW, STATUS.REJECTING, STATUS.FAILURE]);
