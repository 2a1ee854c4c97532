// The lies the drivers' model-based fuzz draws for the hostile device (hostile-acceptor.ts): every
// kind its protocol's messages allow, with any code, channel or data byte the frame can carry.
import fc from 'fast-check';
import { ESCROW_CODE_FIRST, STATUS } from '../../hardware/billacceptor/id003/constants.js';
import { EVENT, RESP } from '../../hardware/billacceptor/ssp/constants.js';
import type { Id003Lie, SspLie } from './hostile-acceptor.js';

const STATUS_CODES = Object.values(STATUS);
/** The currency-assign codes (0x61… the HKD notes, then codes the table does not use), a ticket, and nonsense. */
const ESCROW_CODES = [...Array.from({ length: 8 }, (_, i) => ESCROW_CODE_FIRST + i), 0x6f, 0x00, 0xff];

/** A barcode ticket's escrow: 0x6F and its characters (18 digits, or any bytes at all). */
const ticketEscrow: fc.Arbitrary<Id003Lie> = fc
  .oneof(
    fc.stringMatching(/^\d{18}$/).map((d) => Array.from(d, (c) => c.charCodeAt(0))),
    fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 24 }),
  )
  .map((digits): Id003Lie => ({ kind: 'status', code: STATUS.ESCROW, data: [0x6f, ...digits] }));

const id003Status: fc.Arbitrary<Id003Lie> = fc.oneof(
  fc.constantFrom(...ESCROW_CODES).map((c): Id003Lie => ({ kind: 'status', code: STATUS.ESCROW, data: [c] })),
  ticketEscrow,
  fc.constantFrom(...STATUS_CODES).map((code): Id003Lie => ({ kind: 'status', code })),
  fc.constantFrom(STATUS.VEND_VALID, STATUS.STACKING, STATUS.STACKED, STATUS.POWER_UP_BILL_IN_STACKER).map((code): Id003Lie => ({ kind: 'status', code })),
  fc
    .tuple(fc.constantFrom(STATUS.REJECTING, STATUS.FAILURE), fc.integer({ min: 0, max: 255 }))
    .map(([code, b]): Id003Lie => ({ kind: 'status', code, data: [b] })),
);

export const id003Lies: fc.Arbitrary<Id003Lie> = fc.oneof(
  { arbitrary: id003Status, weight: 6 },
  { arbitrary: fc.integer({ min: 0, max: 6 }).map((back): Id003Lie => ({ kind: 'replay', back })), weight: 1 },
  { arbitrary: fc.constant<Id003Lie>({ kind: 'mute' }), weight: 1 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom<'stack' | 'return' | 'hold'>('stack', 'return', 'hold'), fc.boolean())
      .map(([command, execute]): Id003Lie => ({ kind: 'refuse', command, execute })),
    weight: 2,
  },
  { arbitrary: fc.constantFrom<'ack' | 'invalid'>('ack', 'invalid').map((answer): Id003Lie => ({ kind: 'return-as-stack', answer })), weight: 2 },
  { arbitrary: fc.constant<Id003Lie>({ kind: 'stack-as-return' }), weight: 1 },
  { arbitrary: fc.constant<Id003Lie>({ kind: 'ignore-inhibits' }), weight: 1 },
);

/** SSP validator events with their data byte: channels 0–8 (0 "unknown", 7–8 outside the HKD dataset). */
const channel = fc.integer({ min: 0, max: 8 });
const sspEvent: fc.Arbitrary<number[]> = fc
  .oneof(
    { arbitrary: fc.tuple(fc.constantFrom(EVENT.READ, EVENT.CREDIT, EVENT.CLEARED_FROM_FRONT, EVENT.CLEARED_INTO_CASHBOX, EVENT.FRAUD), channel), weight: 4 },
    {
      arbitrary: fc
        .constantFrom(
          EVENT.SLAVE_RESET,
          EVENT.STACKING,
          EVENT.STACKED,
          EVENT.REJECTING,
          EVENT.REJECTED,
          EVENT.DISABLED,
          EVENT.UNSAFE_JAM,
          EVENT.SAFE_JAM,
          EVENT.STACKER_FULL,
          EVENT.CASHBOX_REMOVED,
          EVENT.CASHBOX_REPLACED,
          EVENT.NOTE_PATH_OPEN,
          EVENT.CHANNEL_DISABLE,
          0x99, // an event no validator table has
        )
        .map((e) => [e]),
      weight: 3,
    },
  )
  .map((e) => e.flat());

export const sspLies: fc.Arbitrary<SspLie> = fc.oneof(
  { arbitrary: fc.array(sspEvent, { maxLength: 3 }).map((es): SspLie => ({ kind: 'events', events: es.flat() })), weight: 6 },
  { arbitrary: fc.integer({ min: 0, max: 6 }).map((back): SspLie => ({ kind: 'replay', back })), weight: 1 },
  { arbitrary: fc.integer({ min: 0, max: 6 }).map((back): SspLie => ({ kind: 'stale', back })), weight: 1 },
  { arbitrary: fc.constantFrom(RESP.UNKNOWN, RESP.CANNOT_PROCESS, RESP.FAIL).map((code): SspLie => ({ kind: 'answer', code })), weight: 1 },
  { arbitrary: fc.constant<SspLie>({ kind: 'mute' }), weight: 1 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom<'reject' | 'hold'>('reject', 'hold'), fc.boolean())
      .map(([command, execute]): SspLie => ({ kind: 'refuse', command, execute })),
    weight: 2,
  },
  { arbitrary: fc.constant<SspLie>({ kind: 'ignore-inhibits' }), weight: 1 },
  // The next SETUP REQUEST (the first, or one after a reset or reconnect) values the channels so:
  // any note's face, 0 (no claim) or a face no note has, for 4 to 8 channels.
  {
    arbitrary: fc
      .array(fc.constantFrom(0, 10, 20, 50, 100, 500, 1000, 7), { minLength: 4, maxLength: 8 })
      .map((channels): SspLie => ({ kind: 'dataset', channels })),
    weight: 1,
  },
);
