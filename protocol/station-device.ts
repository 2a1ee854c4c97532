import { z } from 'zod';
import { lazily } from './lazy.js';
import { MAX_MESSAGE_BYTES, utf8ByteLength } from './limits.js';
import { MinorUnits, StationNumber } from './units.js';

// The link between a remote station's agent (its bill acceptor, on the station's machine) and the
// table host, over the host's LAN listener (`/station-device`, TLS). The agent's driver asks the
// host before it stacks a note and before it acknowledges a credit; the host journals first and
// answers after the durable commit. Every note is named by the driver's escrow id, so a message
// resent after a reconnect (either side killed, the network cut mid-note) is journalled once.

const Id = z.string().min(1).max(64);
const EscrowId = z.string().min(1).max(64);
const Note = {
  escrowId: EscrowId,
  /** Minor units. */
  amount: MinorUnits.positive(),
  /** Face value in major units. */
  denomination: z.number().int().positive(),
  currency: z.enum(['HKD', 'MOP']),
};

export const DEVICE_PROTOCOL_VERSION = 1;

/** Device events the host takes for its faults and service mode (hardware/billacceptor/types.ts). */
export const RELAYED_EVENTS = [
  'connected',
  'disconnected',
  'reconnected',
  'jam',
  'stackerFull',
  'stackerRemoved',
  'stackerReplaced',
  'cheated',
  'failure',
  'faultCleared',
  'idle',
  'unvaluedCredit',
  'rejected',
] as const;

/** Device bytes as one message carries them (base64): a frame or a few, far under the message limit. */
const Bytes = z.base64().min(1).max(4096);

export const AgentMessage = lazily('AgentMessage', () =>
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('hello-device'),
      protocol: z.number().int(),
      station: StationNumber,
      secret: z.string().min(32).max(128),
      acceptor: z.enum(['id003', 'ssp']),
      /**
       * `relay`: the agent only relays the acceptor's bytes (`port`, `bytes`) and the host runs the
       * driver, as for a seated station; absent or `driver`: the agent runs the driver and relays
       * its money questions (`escrow`, `credit`, `returned`).
       */
      mode: z.enum(['driver', 'relay']).optional(),
    }),
    /** Relay mode: the acceptor's port on the station's machine opened (`open`) or went. */
    z.strictObject({ type: z.literal('port'), open: z.boolean(), detail: z.string().max(400).optional() }),
    /** Relay mode: bytes the acceptor sent, in order. */
    z.strictObject({ type: z.literal('bytes'), data: Bytes }),
    /**
     * The station's SAS link (docs/sas.md, "Remote stations"): the agent opened (`open`) the
     * station's own SAS port or lost it. Never names a station: it is the greeted link's.
     */
    z.strictObject({ type: z.literal('sas-port'), open: z.boolean(), detail: z.string().max(400).optional() }),
    /** Bytes the casino's system sent on the station's SAS line, in order, as the port gave them (the fallback stream, docs/sas.md "Framing"). */
    z.strictObject({ type: z.literal('sas-bytes'), data: Bytes }),
    /** A note in escrow: the host journals it, then answers stack or return. */
    z.strictObject({ type: z.literal('escrow'), id: Id, ...Note }),
    /** The protocol's credit point: the host journals the credit, then answers; only then does the agent acknowledge the device. */
    z.strictObject({ type: z.literal('credit'), id: Id, ...Note, recovered: z.boolean() }),
    /** A note in escrow went back to the customer: journalled against its escrow. */
    z.strictObject({ type: z.literal('returned'), id: Id, ...Note, reason: z.string().min(1).max(64) }),
    /** Anything else the device said that the host's faults and service mode care about. */
    z.strictObject({ type: z.literal('event'), event: z.enum(RELAYED_EVENTS), detail: z.string().max(400).optional() }),
  ]),
);
export type AgentMessage = z.infer<typeof AgentMessage>;

export const HostDeviceMessage = lazily('HostDeviceMessage', () =>
  z.discriminatedUnion('type', [
    /**
     * The agent is known. `pendingNote`: a note the ledger holds in escrow for this station,
     * neither credited nor returned (a kill or a cut mid-note): the driver resolves it with the
     * device's own report. `lastCredit`: the note credited last at the station when nothing was
     * escrowed since (the agent may have stopped before acknowledging it to the device, which then
     * repeats its credit report: acknowledged, credited nothing). `enabled`: whether the acceptor
     * may take notes now.
     */
    z.strictObject({
      type: z.literal('device-welcome'),
      pendingNote: z.strictObject(Note).nullable(),
      lastCredit: z.strictObject(Note).nullable().optional(),
      enabled: z.boolean(),
      accept: z.array(z.number().int().positive()).max(16),
      /** The host runs this station's SAS machine on bytes its agent relays (`remoteSas`): the agent opens its SAS port. */
      sas: z.boolean().optional(),
    }),
    z.strictObject({ type: z.literal('decision'), ref: Id, decision: z.enum(['stack', 'return']) }),
    /** The credit or return named by `ref` is journalled (now, or before: a resend). */
    z.strictObject({ type: z.literal('journalled'), ref: Id }),
    /** The host could not journal it: the agent must not acknowledge the device. */
    z.strictObject({ type: z.literal('refused'), ref: Id.optional(), reason: z.string().max(400) }),
    z.strictObject({ type: z.literal('enable'), enabled: z.boolean(), accept: z.array(z.number().int().positive()).max(16) }),
    /** Relay mode: bytes the host's driver writes to the acceptor, in order. */
    z.strictObject({ type: z.literal('bytes'), data: Bytes }),
    /** Bytes the station's SAS machine (on the host) sends to the casino's system, in order. */
    z.strictObject({ type: z.literal('sas-bytes'), data: Bytes }),
  ]),
);
export type HostDeviceMessage = z.infer<typeof HostDeviceMessage>;

/** A JSON message under the size limit, checked against its schema: the decoder of every typed link (agents, peer hosts). */
export function decodeWith<T>(schema: z.ZodType<T>, raw: string): { ok: true; message: T } | { ok: false; error: string } {
  if (utf8ByteLength(raw) > MAX_MESSAGE_BYTES) return { ok: false, error: 'oversized' };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  const r = schema.safeParse(json);
  return r.success ? { ok: true, message: r.data } : { ok: false, error: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
}

export const decodeAgentMessage = (raw: string) => decodeWith(AgentMessage, raw);
export const decodeHostDeviceMessage = (raw: string) => decodeWith(HostDeviceMessage, raw);
