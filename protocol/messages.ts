import { z } from 'zod';
import { RefusalReason } from './refusals.js';
import { DecisionAction, Spot } from './round.js';
import { SERVICE_COMMANDS } from './service.js';
import { MinorUnits } from './units.js';
import { Language, ViewName, ViewState } from './views.js';

/** Correlates a reply with the client message it answers. */
const MessageId = z.string().min(1).max(64);

/** A view's version: it grows by one on every change the host makes to that view. */
export const Version = z.number().int().nonnegative();

// ── Client → host ────────────────────────────────────────────────────────────

/**
 * First message on every connection. The launch token proves the kiosk started this screen, and
 * names the one view the screen may subscribe to: a station never sees another station's data.
 */
export const Hello = z.strictObject({
  type: z.literal('hello'),
  id: MessageId,
  protocol: z.number().int(),
  token: z.string().min(16).max(256),
});

export const Subscribe = z.strictObject({
  type: z.literal('subscribe'),
  id: MessageId,
  view: ViewName,
});

/** The commands a screen may send; later issues add bets, decisions, service actions. */
export const CommandBody = z.discriminatedUnion('name', [
  z.strictObject({ name: z.literal('set-language'), language: Language }),
  /** Adds chips to a betting spot while betting is open; refused over the credit or the spot's maximum. */
  z.strictObject({ name: z.literal('place-bet'), spot: Spot, amount: MinorUnits.positive() }),
  z.strictObject({ name: z.literal('clear-bets') }),
  /** Answers the station's pending decision with one of its legal actions. */
  z.strictObject({ name: z.literal('decide'), action: DecisionAction, amount: MinorUnits.positive().optional() }),
  /** Asks for the station's whole credit to be paid by an attendant (handpay); the station locks until paid. */
  z.strictObject({ name: z.literal('cash-out') }),
  /** Service mode: sign-in, pages, actions and the second person's confirmation (protocol/service.ts). */
  ...SERVICE_COMMANDS,
]);
export type CommandBody = z.infer<typeof CommandBody>;

/** A command names the view and the version it was made against; a stale one is refused. */
export const Command = z.strictObject({
  type: z.literal('command'),
  id: MessageId,
  view: ViewName,
  version: Version,
  command: CommandBody,
});

export const ClientMessage = z.discriminatedUnion('type', [Hello, Subscribe, Command]);
export type ClientMessage = z.infer<typeof ClientMessage>;
export type Hello = z.infer<typeof Hello>;
export type Subscribe = z.infer<typeof Subscribe>;
export type Command = z.infer<typeof Command>;

// ── Host → client ────────────────────────────────────────────────────────────

export const Welcome = z.strictObject({
  type: z.literal('welcome'),
  ref: MessageId,
  protocol: z.number().int(),
  session: z.string().min(1),
  /** The view the launch token grants. */
  view: ViewName,
});

export const Snapshot = z.strictObject({
  type: z.literal('snapshot'),
  view: ViewName,
  version: Version,
  state: ViewState,
});

export const Ack = z.strictObject({
  type: z.literal('ack'),
  ref: MessageId,
  view: ViewName,
  version: Version,
});

export const ErrorCode = z.enum([
  'invalid-json',
  'invalid-message',
  'oversized',
  'protocol-version',
  'unauthorized',
  'hello-required',
  'already-greeted',
  'forbidden-view',
  'not-subscribed',
  'stale-version',
  'rejected',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ProtocolError = z.strictObject({
  type: z.literal('error'),
  code: ErrorCode,
  /** A message key under `errors.` in the locale catalogues, for anything shown to a person. */
  messageKey: z.string(),
  /** Technical detail for logs and service mode; never shown to a player. */
  detail: z.string().max(2000),
  ref: MessageId.optional(),
  view: ViewName.optional(),
  currentVersion: Version.optional(),
  /** Why a station command was refused (`rejected`); `messageKey` is then `refusals.<reason>`. */
  refusal: RefusalReason.optional(),
});

export const HostMessage = z.discriminatedUnion('type', [Welcome, Snapshot, Ack, ProtocolError]);
export type HostMessage = z.infer<typeof HostMessage>;
export type Welcome = z.infer<typeof Welcome>;
export type Snapshot = z.infer<typeof Snapshot>;
export type Ack = z.infer<typeof Ack>;
export type ProtocolError = z.infer<typeof ProtocolError>;
