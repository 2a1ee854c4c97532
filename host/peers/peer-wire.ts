import { z } from 'zod';
import { decodeWith } from '../../protocol/index.js';
import { TableId } from '../../terms/transfer-terms.js';

// The link between two table hosts of one floor (`/peer` on the LAN listener, TLS): the dialling
// host says who it is with the secret the other enrolled it with, then only carries transfer
// messages (host/transfers/messages.ts) one way, to the host it dialled. Each host sends over the
// link it dialled (the other's certificate pinned) and takes over the links dialled into it (the
// dialler's secret checked): whichever way a message goes, both ends are authenticated.

/**
 * 2 since 2 December: a move may be refused `credit-limit` (the receiving station's credit limit).
 * A table of version 1 read that refusal as malformed and never reversed its debit, the player's
 * credit left in flight (a review): two tables that do not speak the same refusals do not link,
 * and a move already in flight between them waits until both are upgraded, then is answered as
 * any other (docs/transfers.md, "Upgrading a floor").
 */
export const PEER_PROTOCOL_VERSION = 2;

/** A peer's secret as enrolment gives it: 256 random bits, base64url (43 characters). */
const Secret = z.string().min(32).max(128);

export const PeerHello = z.strictObject({
  type: z.literal('hello-peer'),
  protocol: z.number().int(),
  /** The dialling table, as the listening host enrolled it. */
  table: TableId,
  secret: Secret,
});
export type PeerHello = z.infer<typeof PeerHello>;

/** What a dialling host sends once welcomed: one transfer message, unparsed here (the transfer step distrusts it). */
export const PeerCarry = z.strictObject({ type: z.literal('transfer'), message: z.unknown() });

export const PeerInbound = z.discriminatedUnion('type', [PeerHello, PeerCarry]);
export type PeerInbound = z.infer<typeof PeerInbound>;

/** The listening host's only words: it knows the dialler (and says which table it is itself). */
export const PeerWelcome = z.strictObject({ type: z.literal('peer-welcome'), protocol: z.number().int(), table: TableId });
export type PeerWelcome = z.infer<typeof PeerWelcome>;

export const decodePeer = decodeWith;
