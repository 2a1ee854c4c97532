import { z } from 'zod';
import { MAX_HOST_MESSAGE_BYTES, MAX_STATION, StationNumber } from '../../protocol/index.js';
import { SharedMessage, type Update } from '../screens/outbox.js';
import { NONCE, PROOF, PROOF_KEY } from '../stadium/station-proof.js';

/**
 * The subjects of one table on NATS. The host publishes; the edges subscribe (public parts and
 * their own stations' parts) and publish only their commands and attachments (each edge's NATS
 * user may publish under its own name only: `cmd.<edge>.>` and `attach.<edge>`).
 *
 * - `etg.<table>.pub.<part>`: a public part (round, panel), one message per change.
 * - `etg.<table>.edge.<edge>.st.<station>.own` / `.recall`: a station's own part, its recall, on
 *   the subjects of the one edge that holds the station (the host publishes there only), and
 *   `.gone` when the station attached at another edge (this one closes its connections).
 * - `etg.<table>.edge.<edge>.pub` / `.enrol`: the last public parts and enrolment, sent to that
 *   edge alone when it asks for them (`last.<edge>`).
 * - `etg.<table>.enrol`: the enrolled stations' public proof keys (never a secret, nor its hash).
 * - `etg.<table>.challenge.<edge>`: an edge asking the host for nonces to greet its connections with (request).
 * - `etg.<table>.attach.<edge>`: an edge attaching a station with its proof on that nonce (request).
 * - `etg.<table>.cmd.<edge>.<station>`: a station's command through its edge (request).
 * - `etg.<table>.resend.<edge>.<station>`: an edge asking for the own part of a station it holds,
 *   whole (its own housekeeping, on a budget of its own at the host: never the station's message rate).
 * - `etg.<table>.last.<edge>`: an edge asking for the last public parts and enrolment (request).
 *
 * Every request an edge may make is answered by the host, on the edge's own inbox only: no
 * JetStream, whose API answers wherever the request's reply subject says (an edge could have the
 * server write on the enrolment, a public part or another edge's subjects). A station's own parts
 * are sent to the edge that attaches it, whole, when it attaches. What the edges are sent is
 * display state only, which the host publishes again whole after a restart of NATS (the money is
 * in the host's journal, never here).
 */
export function tableSubjects(tableId: string) {
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(tableId)) throw new Error(`a table id NATS can name: ${tableId}`);
  const root = `etg.${tableId}`;
  return {
    root,
    publicPart: (part: string) => `${root}.pub.${part}`,
    publicAll: `${root}.pub.>`,
    own: (edge: string, station: number) => `${root}.edge.${edge}.st.${station}.own`,
    recall: (edge: string, station: number) => `${root}.edge.${edge}.st.${station}.recall`,
    gone: (edge: string, station: number) => `${root}.edge.${edge}.st.${station}.gone`,
    /** The last public parts and enrolment, sent to one edge that asked (`last`). */
    edgePublic: (edge: string) => `${root}.edge.${edge}.pub`,
    edgeEnrol: (edge: string) => `${root}.edge.${edge}.enrol`,
    /** Everything published for one edge (its user may read these and no other edge's). */
    edgeAll: (edge: string) => `${root}.edge.${edge}.>`,
    enrol: `${root}.enrol`,
    challenge: (edge: string) => `${root}.challenge.${edge}`,
    challengeAll: `${root}.challenge.*`,
    attach: (edge: string) => `${root}.attach.${edge}`,
    attachAll: `${root}.attach.*`,
    command: (edge: string, station: number) => `${root}.cmd.${edge}.${station}`,
    commandAll: `${root}.cmd.*.*`,
    resend: (edge: string, station: number) => `${root}.resend.${edge}.${station}`,
    resendAll: `${root}.resend.*.*`,
    last: (edge: string) => `${root}.last.${edge}`,
    lastAll: `${root}.last.*`,
  };
}
export type TableSubjects = ReturnType<typeof tableSubjects>;

/**
 * A station's number as a subject names it (`cmd.<edge>.<N>`): a station's, in its plain decimal
 * form. Read with `Number`, `0x65`, `101e0` or `0101` named station 101 and `abc` none (NaN); an
 * edge may publish any token there (its permissions end in `*`).
 */
const SubjectStation = z
  .string()
  .regex(/^[1-9][0-9]{0,5}$/)
  .transform(Number)
  .pipe(StationNumber);

/** The station a subject's token names, or null when it names none. */
export function stationInSubject(token: string | undefined): number | null {
  const parsed = SubjectStation.safeParse(token);
  return parsed.success ? parsed.data : null;
}

/** An edge's name as it appears in subjects and in its NATS user. */
export const EdgeName = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/);

/**
 * One update as published: the host's epoch (a new one at each start of its bridge: versions
 * start again), the outbox slot it replaces, its version, and the patch (may be empty) followed by
 * the whole message, both as the screens are sent them. A four-line ASCII header, the patch's
 * length in bytes (`b<n>`), then the two messages' UTF-8 bytes as the host encoded them once:
 * the edge hands either on to its stations as they came, decoding nothing.
 *
 * `withWhole` false: the patch alone (a station's own part, when the edge holds the version
 * before; the edge makes the whole itself if a connection needs it, `own-chain.ts`). The message
 * then ends with the patch.
 */
/**
 * The largest message encodeUpdate makes: a patch and a whole, each at most the protocol's largest
 * host message, and a head of a few dozen bytes. The stadium's NATS server is configured to take
 * it (nats-server.ts, `max_payload`): its default, 1 MiB, is less.
 */
export const MAX_PUBLISHED_UPDATE_BYTES = 2 * MAX_HOST_MESSAGE_BYTES + 4096;

export function encodeUpdate(epoch: string, slot: string, update: Update, withWhole = true): Uint8Array {
  const patch = update.patch?.bytes ?? EMPTY;
  if (!withWhole && patch.byteLength === 0) throw new Error('an update published without its whole needs its patch');
  const whole = withWhole ? update.whole().bytes : EMPTY;
  const head = Buffer.from(`${epoch}\n${slot}\n${update.version}\nb${patch.byteLength}\n`, 'latin1');
  return Buffer.concat([head, patch, whole], head.byteLength + patch.byteLength + whole.byteLength);
}

const EMPTY = new Uint8Array(0);

export interface PublishedUpdate {
  readonly epoch: string;
  readonly slot: string;
  readonly update: Update;
  /** Published as its patch alone (a station's own part): `update.whole()` is not to be called; the edge chains it on the version before. */
  readonly patchOnly: boolean;
}

const SLOT = /^(public:(round|panel)|view:station\/\d{1,4}|recall:station\/\d{1,4})$/;
const NL = 10;

function noWhole(): never {
  throw new Error('an update published as its patch alone has no whole here');
}

/**
 * The update in a published message, or null for one that is not (the edge drops it). The
 * messages it holds are views of `data`: the caller hands over a copy nothing else writes to.
 * Only a station's own part may come as its patch alone.
 */
export function decodeUpdate(data: Uint8Array): PublishedUpdate | null {
  let at = 0;
  const fields: string[] = [];
  for (let i = 0; i < 4; i++) {
    const nl = data.indexOf(NL, at);
    // Each header field is short: one longer than 64 bytes is not one.
    if (nl < 0 || nl - at > 64) return null;
    fields.push(String.fromCharCode(...data.subarray(at, nl)));
    at = nl + 1;
  }
  const [epoch = '', slot = '', v = '', n = ''] = fields;
  const version = Number(v);
  const patchLength = /^b\d{1,9}$/.test(n) ? Number(n.slice(1)) : NaN;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(epoch) || !SLOT.test(slot)) return null;
  if (!/^\d{1,15}$/.test(v) || !Number.isSafeInteger(version) || !Number.isSafeInteger(patchLength)) return null;
  if (at + patchLength > data.byteLength) return null;
  const patchOnly = at + patchLength === data.byteLength;
  if (patchOnly && (patchLength === 0 || !slot.startsWith('view:'))) return null;
  const patch = patchLength > 0 ? SharedMessage.ofBytes(data.subarray(at, at + patchLength)) : null;
  if (patchOnly) return { epoch, slot, update: { version, patch, whole: noWhole }, patchOnly };
  const whole = SharedMessage.ofBytes(data.subarray(at + patchLength));
  return { epoch, slot, update: { version, patch, whole: () => whole }, patchOnly };
}

/**
 * The enrolment the host publishes: each station in force with its public proof key
 * (host/stadium/station-proof.ts). A station a table may have (`StationNumber`, as a subject's is
 * read): the edge distrusts the host's bus too, and refuses an enrolment naming any other whole.
 */
export const PublishedEnrolment = z.strictObject({
  stations: z.array(z.strictObject({ station: StationNumber, proofKey: z.string().regex(PROOF_KEY) })).max(MAX_STATION),
});
export type PublishedEnrolment = z.infer<typeof PublishedEnrolment>;

/** Nonces an edge asks for at once (it greets each new connection with one). */
export const MAX_NONCES_ASKED = 256;
/** An edge asking for nonces to greet its new connections with; the host answers as many as the edge's share allows (maybe none). */
export const ChallengeRequest = z.strictObject({ count: z.number().int().min(1).max(MAX_NONCES_ASKED) });
export const ChallengeAnswer = z.strictObject({ nonces: z.array(z.string().regex(NONCE)).max(MAX_NONCES_ASKED) });

/** An edge attaching a station: the host's nonce and the station's proof on it, which the host checks itself. */
export const Attach = z.strictObject({ station: z.number().int().positive(), nonce: z.string().regex(NONCE), proof: z.string().regex(PROOF) });
/**
 * The host's answer to an attachment: taken or not, and when taken the hold's number (`hold`, one
 * count of the host's for all stations and edges, so a later attachment has a larger number). A
 * `gone` names the hold it ended (`Gone`), so an edge tells a `gone` for the connections it held
 * before from one for an attachment answered since (absent: a host before 6 December).
 */
export const AttachAnswer = z.strictObject({ ok: z.boolean(), hold: z.number().int().positive().optional() });
/** The payload of `gone`: the number of the hold at this edge it ended (empty from a host before 6 December: every hold). */
export const Gone = z.strictObject({ hold: z.number().int().positive() });
/**
 * The host's answer to an edge's ask for the last values, after it sent them (`ok`) or not (asked
 * too often), with the stations the host holds at that edge (`held`; absent from a host before 5
 * December): the edge closes its connections of any other (a `gone` it never heard). Each a station
 * a table may have: an answer naming any other is refused whole, and asked again.
 */
export const LastAnswer = z.strictObject({ ok: z.boolean(), held: z.array(StationNumber).max(65_536).optional() });
export type LastAnswer = z.infer<typeof LastAnswer>;

/**
 * An edge's NATS permissions: it may publish only its own commands, challenges, attachments and
 * asks for the last values, each answered by the host on the edge's own inbox (never JetStream's
 * API: the server answers that on whatever reply subject the edge names), and read only its
 * table's public parts and enrolment, what the host publishes for this edge (the own parts of the
 * stations it holds, the last values it asked for), and its own replies (its connection's
 * `inboxPrefix` is `edgeInbox(edge)`). Nothing of another edge's stations, nor of another table.
 */
export function edgePermissions(tableId: string, edge: string): { publish: string[]; subscribe: string[] } {
  const s = tableSubjects(tableId);
  return {
    publish: [`${s.root}.cmd.${edge}.*`, `${s.root}.resend.${edge}.*`, s.challenge(edge), s.attach(edge), s.last(edge)],
    subscribe: [s.publicAll, s.edgeAll(edge), s.enrol, `${edgeInbox(edge)}.>`],
  };
}

/** The prefix of an edge's reply subjects: its own, so no other edge may read its answers. */
export function edgeInbox(edge: string): string {
  return `_INBOX_${edge}`;
}
