/**
 * How long an enrolment file waits for its download: long enough to plug in a USB stick at the
 * service screen, short enough that a file nobody came for does not sit in the host's memory.
 */
export const ENROLMENT_DOWNLOAD_MS = 5 * 60_000;

/** The service session an enrolment file belongs to: its `service.enter` entry, and who that is. */
export interface EnrollingSession {
  readonly enterSeq: number;
  /** `Name (staff)`, as the journal names people. */
  readonly who: string;
}

/** Why a download was refused. */
export type EnrolmentRefusal = 'no-file' | 'other-session' | 'expired';

/** Why a waiting file was thrown away without being downloaded. */
export type EnrolmentDiscard = 'expired' | 'session-ended' | 'revoked' | 're-enrolled';

/** `station`: the station's number, or the peer table's id (its enrolment file for that peer, host/service/backend/peers.ts). */
export interface DiscardedFile<K extends number | string = number> {
  readonly station: K;
  readonly owner: EnrollingSession;
  readonly why: EnrolmentDiscard;
}

interface Waiting {
  readonly file: string;
  readonly owner: EnrollingSession;
  readonly until: number;
}

/**
 * The enrolment files waiting for their one download. A file holds the station's secret, which
 * the host keeps nowhere else (the registry has its hash only): it is handed once, to the service
 * session that enrolled the station, before its deadline, and then forgotten. A file that waited
 * too long, whose session ended, or whose credential was replaced or revoked is forgotten too; the
 * station is enrolled again for a new one. What happened is returned so the caller journals it.
 */
export class EnrolmentDownloads<K extends number | string = number> {
  private readonly waiting = new Map<K, Waiting>();

  constructor(
    private readonly now: () => number,
    readonly waitMs = ENROLMENT_DOWNLOAD_MS,
  ) {}

  /** A new file for `station`, for `owner` only; one waiting for the station before it is discarded (returned). */
  hold(station: K, file: string, owner: EnrollingSession): DiscardedFile<K>[] {
    const replaced = this.discard(station, 're-enrolled');
    this.waiting.set(station, { file, owner, until: this.now() + this.waitMs });
    return replaced;
  }

  /**
   * The file of `station` for the session `by`: the file, once, to its owner before its deadline;
   * otherwise why not. Files past their deadline are discarded first (returned in `discarded`).
   */
  take(station: K, by: EnrollingSession): { file: string | null; refused: EnrolmentRefusal | null; discarded: DiscardedFile<K>[] } {
    const discarded = this.expire();
    const w = this.waiting.get(station);
    if (!w) return { file: null, refused: discarded.some((d) => d.station === station) ? 'expired' : 'no-file', discarded };
    if (w.owner.enterSeq !== by.enterSeq) return { file: null, refused: 'other-session', discarded };
    this.waiting.delete(station);
    return { file: w.file, refused: null, discarded };
  }

  /** Whether a file of `station` waits for the session `enterSeq` now. */
  waitsFor(station: K, enterSeq: number): boolean {
    const w = this.waiting.get(station);
    return w !== undefined && w.owner.enterSeq === enterSeq && w.until > this.now();
  }

  /** The earliest deadline among the waiting files (ms on the clock), or null. */
  nextDeadline(): number | null {
    let next: number | null = null;
    for (const w of this.waiting.values()) if (next === null || w.until < next) next = w.until;
    return next;
  }

  /** Discards the files past their deadline. */
  expire(): DiscardedFile<K>[] {
    const now = this.now();
    return [...this.waiting].filter(([, w]) => w.until <= now).flatMap(([station]) => this.discard(station, 'expired'));
  }

  /** The session ended (signed out, idle, screen closed, host stopping): its files are discarded. */
  sessionEnded(enterSeq: number): DiscardedFile<K>[] {
    return [...this.waiting].filter(([, w]) => w.owner.enterSeq === enterSeq).flatMap(([station]) => this.discard(station, 'session-ended'));
  }

  /** Discards the file of `station`, if one waits. */
  discard(station: K, why: EnrolmentDiscard): DiscardedFile<K>[] {
    const w = this.waiting.get(station);
    if (!w) return [];
    this.waiting.delete(station);
    return [{ station, owner: w.owner, why }];
  }
}
