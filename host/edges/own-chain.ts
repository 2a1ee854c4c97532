import { applyPatch, encode, protocolError, type PatchOp } from '../../protocol/index.js';
import { SharedMessage, type Update } from '../screens/outbox.js';

/** The host sends a station's own part whole at least every this many versions (edge-bridge.ts); an edge chains the patches between. */
export const WHOLE_EVERY = 32;
/** Patches an edge chains on a whole at most (twice the host's): past it, it asks for the part whole. */
export const MAX_CHAIN = 2 * WHOLE_EVERY;

/** The `state` of a snapshot message as the host encoded it. */
function stateOfWhole(whole: SharedMessage): unknown {
  const m = JSON.parse(whole.text) as { type?: unknown; state?: unknown };
  if (m.type !== 'snapshot' || typeof m.state !== 'object' || m.state === null) throw new Error('not a snapshot');
  return m.state;
}

/** The operations of a patch message: the tuple the host writes (`[target, version, ops]`), or the object form. */
function opsOf(patch: SharedMessage): readonly PatchOp[] {
  const m = JSON.parse(patch.text) as unknown;
  const ops = Array.isArray(m) ? (m[2] as unknown) : (m as { ops?: unknown } | null)?.ops;
  if (!Array.isArray(ops)) throw new Error('a patch without its operations');
  return ops as PatchOp[];
}

/**
 * A station's own part at an edge, published by the host as its patch alone (the edge held the
 * version before): the patch is handed on as it came, and its whole is made here only when a
 * connection needs it (one that joins, one that fell behind and skipped a version): the version
 * before's state with the patch applied (protocol/patch.ts), encoded as the host's snapshot
 * message. Nothing is parsed while every connection follows with the patches. A link is let go
 * once its state is made, so a chain holds at most the patches since the last whole, which the
 * host sends at least every `WHOLE_EVERY` versions.
 *
 * `told.made` is called for each whole made; `told.failed` when one cannot be made (a patch that does not fit: never from a host
 * that made it on the state it sent): the edge asks the host for the part whole, and the
 * connection is sent an error meanwhile, so its copy stays at the version it held and its next
 * patch does not follow: it asks for the part whole, as after a lost message.
 */
export class ChainedOwn implements Update {
  private state: unknown = undefined;
  private message: SharedMessage | null = null;
  readonly depth: number;

  constructor(
    readonly version: number,
    readonly patch: SharedMessage,
    private prev: Update | null,
    private readonly view: string,
    private readonly told: { made(): void; failed(): void },
  ) {
    this.depth = prev instanceof ChainedOwn ? prev.depth + 1 : 1;
  }

  whole(): SharedMessage {
    if (this.message) return this.message;
    try {
      const state = this.stateOf();
      this.message = new SharedMessage(`{"type":"snapshot","view":${JSON.stringify(this.view)},"version":${this.version},"state":${JSON.stringify(state)}}`);
      this.told.made();
      return this.message;
    } catch {
      this.told.failed();
      return new SharedMessage(encode(protocolError('internal', 'this part is on its way whole again')));
    }
  }

  /** The state at this version (throws when it cannot be made). */
  stateOf(): unknown {
    if (this.state !== undefined) return this.state;
    const prev = this.prev;
    if (prev === null) throw new Error('the chain was broken');
    const base = prev instanceof ChainedOwn ? prev.stateOf() : stateOfWhole(prev.whole());
    this.state = applyPatch(base, opsOf(this.patch));
    this.prev = null;
    return this.state;
  }
}
