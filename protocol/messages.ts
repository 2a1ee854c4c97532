import { z } from 'zod';
import { lazily } from './lazy.js';
import { PatchOps, type PatchOp } from './patch.js';
import { plainPatchTuple } from './patch-read.js';
import { RefusalReason } from './refusals.js';
import { DecisionAction, Spot } from './round.js';
import { serviceCommands } from './service.js';
import { transferCommands } from './transfer-requests.js';
import { MinorUnits, StationNumber } from './units.js';
import { MAX_RECALL_ROUNDS, StationRecallRound } from './screen-extras.js';
import { Language, PublicPanel, PublicRound, SnapshotState, snapshotStateOf, ViewName } from './views.js';

/** Correlates a reply with the client message it answers. */
const MessageId = z.string().min(1).max(64);

/** A view's version: it grows by one on every change the host makes to that view. */
export const Version = z.number().int().nonnegative();

// ── Client → host ────────────────────────────────────────────────────────────

/**
 * First message on every connection. The launch token proves the kiosk started this screen, and
 * names the one view the screen may subscribe to: a station never sees another station's data.
 */
export const Hello = lazily('Hello', () =>
  z.strictObject({
    type: z.literal('hello'),
    id: MessageId,
    protocol: z.number().int(),
    token: z.string().min(16).max(256),
  }),
);

/**
 * First message of a remote station (a machine on the casino LAN, over TLS): its station number
 * and the secret its enrolment gave it, which the host keeps only hashed. It grants that one
 * station's view; a revoked or wrong secret is `unauthorized`.
 *
 * Through an edge (issue 55) the secret never leaves the station: the edge greets each new
 * connection with a `challenge`, a nonce the table's host issued to that edge, and the station's
 * first hello carries its station, that nonce and its proof (an Ed25519 signature,
 * host/stadium/station-proof.ts): one round trip.
 */
export const HelloStation = lazily('HelloStation', () =>
  z.strictObject({
    type: z.literal('hello-station'),
    id: MessageId,
    protocol: z.number().int(),
    station: StationNumber,
    secret: z.string().min(32).max(128).optional(),
    nonce: z
      .string()
      .regex(/^[A-Za-z0-9_-]{24}$/)
      .optional(),
    proof: z
      .string()
      .regex(/^[A-Za-z0-9_-]{86}$/)
      .optional(),
  }),
);

export const Subscribe = lazily('Subscribe', () =>
  z.strictObject({
    type: z.literal('subscribe'),
    id: MessageId,
    view: ViewName,
  }),
);

/** The commands a screen may send; later issues add bets, decisions, service actions. */
export const CommandBody = lazily('CommandBody', () =>
  z.discriminatedUnion('name', [
    z.strictObject({ name: z.literal('set-language'), language: Language }),
    /** Adds chips to a betting spot while betting is open; refused over the credit or the spot's maximum. */
    z.strictObject({ name: z.literal('place-bet'), spot: Spot, amount: MinorUnits.positive() }),
    z.strictObject({ name: z.literal('clear-bets') }),
    /** Answers the station's pending decision with one of its legal actions. */
    z.strictObject({ name: z.literal('decide'), action: DecisionAction, amount: MinorUnits.positive().optional() }),
    /** Asks for the station's whole credit to be paid by an attendant (handpay); the station locks until paid. */
    /** `via`: the player's choice; absent, a ticket where the station's printer can print one, else a handpay (docs/tito.md). */
    /**
     * `endsStreak`: the player confirmed cashing out while the station holds an open winning-streak
     * stake (Macau 2009 Art. 13 5)), which a round dealt without this station's bet then loses; the
     * host refuses such a cash-out without it (`streak-held`). Only `true`, or absent.
     */
    z.strictObject({ name: z.literal('cash-out'), via: z.enum(['ticket', 'handpay']).optional(), endsStreak: z.literal(true).optional() }),
    /** A station's credit moved between the tables it follows (protocol/transfer-requests.ts). */
    ...transferCommands(),
    /** Service mode: sign-in, pages, actions and the second person's confirmation (protocol/service.ts). */
    ...serviceCommands(),
  ]),
);
export type CommandBody = z.infer<typeof CommandBody>;

/** A command names the view and the version it was made against; a stale one is refused. */
export const Command = lazily('Command', () =>
  z.strictObject({
    type: z.literal('command'),
    id: MessageId,
    view: ViewName,
    version: Version,
    command: CommandBody,
  }),
);

/**
 * The parts of a station's view a screen holds apart: its own part (`snapshot`), the public round,
 * the roads or last rounds, and its recall (`recall`: sent only when asked for, by `resync`).
 */
export const PartName = z.enum(['own', 'round', 'panel', 'recall']);
export type PartName = z.infer<typeof PartName>;

/** The public parts, each sent once per change to every station screen. */
export const PublicPartName = z.enum(['round', 'panel']);
export type PublicPartName = z.infer<typeof PublicPartName>;

/**
 * A screen asks for parts of its view whole again: a patch did not follow the version it holds
 * (one was lost on the way) or did not fit its copy. The host sends each part whole, then patches
 * against that version again. `own` is the view's own state (a station's own part, or the whole
 * view of the table display and service mode).
 */
export const Resync = lazily('Resync', () =>
  z.strictObject({
    type: z.literal('resync'),
    id: MessageId,
    view: ViewName,
    parts: z.array(PartName).min(1).max(PartName.options.length),
  }),
);

/**
 * What a screen drew into textures itself, by name (renderer/src/pixi/context-loss.ts): the card
 * atlas, the buttons' faces, the table's felt and its road maps. A closed list, so a report names
 * nothing the host would log as free text.
 */
export const BakedArt = z.enum(['card-atlas', 'button-faces', 'felt', 'road-marks']);
export type BakedArt = z.infer<typeof BakedArt>;

/**
 * A screen tells the host what befell it that the kiosk's log must keep (protocol 7): its WebGL
 * context lost (a GPU reset, a driver update), and restored with everything it baked drawn again.
 * No free text: the events and the art are closed lists and the numbers bounded, so a screen
 * that lies can put no more in the log than a line of its own budget (docs/operations.md).
 */
export const Report = lazily('Report', () =>
  z.discriminatedUnion('event', [
    z.strictObject({ type: z.literal('report'), id: MessageId, event: z.literal('gpu-context-lost') }),
    z.strictObject({
      type: z.literal('report'),
      id: MessageId,
      event: z.literal('gpu-context-restored'),
      /** The art drawn again, each once. */
      redrawn: z.array(BakedArt).max(BakedArt.options.length),
      /** Art whose drawing threw (the screen shows it blank until it is drawn again). */
      failed: z.array(BakedArt).max(BakedArt.options.length),
      /** Layers cached as textures (`cacheAsTexture`) marked to be drawn again. */
      cachedLayers: z.number().int().nonnegative().max(10_000),
      /** From the browser's `webglcontextrestored` to the first frame drawn after it, in ms. */
      ms: z.number().int().nonnegative().max(3_600_000),
    }),
  ]),
);
export type Report = z.infer<typeof Report>;
/** A report as the screen makes it, before the link gives it its type and id. */
export type ReportBody = Report extends infer R ? (R extends Report ? Omit<R, 'type' | 'id'> : never) : never;

export const ClientMessage = lazily('ClientMessage', () => z.discriminatedUnion('type', [Hello, HelloStation, Subscribe, Command, Resync, Report]));
export type ClientMessage = z.infer<typeof ClientMessage>;
export type Hello = z.infer<typeof Hello>;
export type HelloStation = z.infer<typeof HelloStation>;
export type Subscribe = z.infer<typeof Subscribe>;
export type Command = z.infer<typeof Command>;
export type Resync = z.infer<typeof Resync>;

// ── Host → client ────────────────────────────────────────────────────────────

export const Welcome = lazily('Welcome', () =>
  z.strictObject({
    type: z.literal('welcome'),
    ref: MessageId,
    protocol: z.number().int(),
    session: z.string().min(1),
    /** The view the launch token grants. */
    view: ViewName,
  }),
);

/** A view's state (a station's own part: the shared parts come as `public`), with the version commands must name. */
export const Snapshot = lazily('Snapshot', () =>
  z.strictObject({
    type: z.literal('snapshot'),
    view: ViewName,
    version: Version,
    state: SnapshotState,
  }),
);

/**
 * A part every station shows, the same text for all: the public round, or the roads / last
 * rounds. Encoded once per change and sent to every station screen; a screen that fell behind
 * gets only the latest. Its version orders the part's own changes; commands never name it.
 */
export const PublicPart = lazily('PublicPart', () =>
  z.discriminatedUnion('part', [
    z.strictObject({ type: z.literal('public'), part: z.literal('round'), version: Version, state: PublicRound }),
    z.strictObject({ type: z.literal('public'), part: z.literal('panel'), version: Version, state: PublicPanel }),
  ]),
);
export type PublicPart = z.infer<typeof PublicPart>;

/** A patch makes a part's next version: it applies to the version before it, and to no other. */
const PatchedVersion = Version.min(1);

/**
 * What changed in a view's own state (a station's own part) to make `version` from the version
 * before it, which the screen must hold: applied to that version only (protocol/patch.ts), the
 * result checked against the view's schema. A screen holding any other version asks for the part
 * whole (`resync`).
 */
export const Patch = lazily('Patch', () => z.strictObject({ type: z.literal('patch'), view: ViewName, version: PatchedVersion, ops: PatchOps }));
export type Patch = z.infer<typeof Patch>;

/**
 * A station's recall, whole: its last rounds, newest first, at the version its own part names
 * (`recalled.version`). Sent only to a screen that asked for it (`resync` of `recall`), while its
 * recall or replay panel is open: every station is no longer sent each settled round it may
 * never look at (protocol 5).
 */
export const Recall = lazily('Recall', () =>
  z.strictObject({
    type: z.literal('recall'),
    view: ViewName,
    version: Version,
    rounds: z.array(StationRecallRound).max(MAX_RECALL_ROUNDS),
  }),
);
export type Recall = z.infer<typeof Recall>;

/** What changed in a public part to make `version` from the one before: made once, the same bytes for every station screen. */
export const PublicPatch = lazily('PublicPatch', () =>
  z.strictObject({ type: z.literal('public-patch'), part: PublicPartName, version: PatchedVersion, ops: PatchOps }),
);
export type PublicPatch = z.infer<typeof PublicPatch>;

/**
 * A patch as the host writes it (protocol 6): `[target, version, ops]`, the target a public part
 * (`round`, `panel`) or the view whose own part it patches (`station/101`). The object envelope
 * (`{"type":"public-patch","part":"round","version":N,"ops":…}`) was 50–60 bytes of every patch,
 * a patch about 170: the tuple's is 10–20. It is read into the same `public-patch` or `patch`
 * message, checked by the same schemas (the ops, the version, the view), so nothing past the
 * decoder knows which form came; the object form is still read (tests and tools write it).
 */
export const PatchTuple = lazily('PatchTuple', () => z.tuple([z.union([PublicPartName, ViewName]), PatchedVersion, PatchOps]).transform(patchOfTuple));

/** The message a patch tuple stands for. */
function patchOfTuple([target, version, ops]: [PublicPartName | ViewName, number, PatchOp[]]): Patch | PublicPatch {
  return target === 'round' || target === 'panel' ? { type: 'public-patch', part: target, version, ops } : { type: 'patch', view: target, version, ops };
}

export const Ack = lazily('Ack', () =>
  z.strictObject({
    type: z.literal('ack'),
    ref: MessageId,
    view: ViewName,
    version: Version,
  }),
);

export const ErrorCode = z.enum([
  'invalid-json',
  'invalid-message',
  'oversized',
  /** Over the connection's message rate: the screen is told once, then closed if it keeps on. */
  'rate-limited',
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

export const ProtocolError = lazily('ProtocolError', () =>
  z.strictObject({
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
  }),
);

/** An edge's greeting to a new connection: the nonce to prove the station's secret on (issued by the table's host), no `ref`. */
export const Challenge = lazily('Challenge', () =>
  z.strictObject({
    type: z.literal('challenge'),
    ref: MessageId.optional(),
    nonce: z.string().regex(/^[A-Za-z0-9_-]{24}$/),
  }),
);

export const HostMessage = lazily('HostMessage', () =>
  z.union([PatchTuple, Welcome, Snapshot, PublicPart, Patch, PublicPatch, Recall, Ack, ProtocolError, Challenge]),
);
export type HostMessage = z.infer<typeof HostMessage>;
export type Welcome = z.infer<typeof Welcome>;
export type Snapshot = z.infer<typeof Snapshot>;
export type Ack = z.infer<typeof Ack>;
export type ProtocolError = z.infer<typeof ProtocolError>;

/** A snapshot of a view whose state is `state`'s kind. */
const snapshotOf = (state: z.ZodType<SnapshotState>) => z.strictObject({ type: z.literal('snapshot'), view: ViewName, version: Version, state });

/** Checks a message from the host: its data, or its issues (zod's result). */
export type HostMessageCheck = (json: unknown) => z.ZodSafeParseResult<HostMessage>;

/** The host's messages by their `type` (`patch` also comes as a tuple: `PatchTuple`), with a snapshot's schema. */
function byType(snapshot: z.ZodType<HostMessage>): Readonly<Record<string, z.ZodType<HostMessage>>> {
  return {
    welcome: Welcome,
    snapshot,
    public: PublicPart,
    patch: Patch,
    'public-patch': PublicPatch,
    recall: Recall,
    ack: Ack,
    error: ProtocolError,
    challenge: Challenge,
  };
}

/**
 * `HostMessage` checked one schema a message type: the tuple form is a patch, an object the
 * schema its `type` names, and only that schema is built, the first time such a message comes. It
 * accepts and gives exactly what `HostMessage` does (each `type` is one option's alone, and only
 * the tuple is an array), and a refusal names the field at fault, not the union's "Invalid input".
 */
function checkByType(types: Readonly<Record<string, z.ZodType<HostMessage>>>): HostMessageCheck {
  return (json) => {
    if (Array.isArray(json)) {
      // A station's every card: read plainly where it plainly fits, else by the schema (patch-read.ts).
      const plain = plainPatchTuple(json);
      return plain ? { success: true, data: patchOfTuple(plain) } : PatchTuple.safeParse(json);
    }
    const type: unknown = typeof json === 'object' && json !== null && 'type' in json ? json.type : undefined;
    const schema = typeof type === 'string' && Object.hasOwn(types, type) ? types[type] : undefined;
    if (schema) return schema.safeParse(json);
    const message = type === undefined ? 'a host message is an object with a type, or a patch tuple' : 'not a message the host sends';
    return {
      success: false,
      error: new z.ZodError([{ code: 'custom', path: type === undefined ? [] : ['type'], message, input: json }]) as z.ZodError<HostMessage>,
    };
  };
}

/** Any view's host messages (tools, tests, the station agent's relay). */
const ANY_VIEW = checkByType(byType(Snapshot));

/** Each kind of view's: a snapshot of its own kind only. Every station view's snapshot is a station's own part. */
const OF_KIND = {
  table: checkByType(byType(lazily('Snapshot of the table', () => snapshotOf(snapshotStateOf('table'))))),
  service: checkByType(byType(lazily('Snapshot of service mode', () => snapshotOf(snapshotStateOf('service'))))),
  station: checkByType(byType(lazily("Snapshot of a station's own part", () => snapshotOf(snapshotStateOf('station/1'))))),
};

/**
 * A host message as a screen of this view receives it (without a view: any view's): `HostMessage`
 * but for a snapshot's state, which must be the view's own kind. A page builds the schemas of the
 * messages it receives and of its own view only: a table page never a station's nor service
 * mode's (issues 31 and 52); what it accepts is what `HostMessage` accepts for its view, less
 * snapshots of another kind, which the host never sends it.
 */
export function hostMessageFor(view?: ViewName): HostMessageCheck {
  if (view === undefined) return ANY_VIEW;
  return view === 'table' || view === 'service' ? OF_KIND[view] : OF_KIND.station;
}
